import axios, { type AxiosRequestConfig } from 'axios';
import { UnrecoverableError, type Job, type JobsOptions, type Queue } from 'bullmq';
import type { Clock, JobStatus, Logger, Sealer } from '@satyapan/core';
import type { JobRef } from '../refs.js';
import { BlockedAddressError, assertPublicLiteral, isAllowListed, publicLookupCallback } from './address-guard.js';
import { signWebhook } from './signature.js';

export interface WebhookRetryOptions {
  /** First wait after a failed try; default 5 s. Doubles on every try up to `maxDelayMs`. */
  baseDelayMs?: number;
  /** Longest wait between two tries; default 1 h. */
  maxDelayMs?: number;
  /** Tries continue until at least this long after the first; default 24 h. */
  minimumSpanMs?: number;
}

export interface WebhookOptions {
  /** Per try; default 10 s. */
  timeoutMs?: number;
  /**
   * Origins (`http://127.0.0.1:8080`) or host names a webhook may be sent to even though they are private,
   * loopback or link-local. Empty by default: such URLs are refused.
   */
  allowPrivateUrls?: readonly string[];
  retry?: WebhookRetryOptions;
}

const RETRY_DEFAULTS = { baseDelayMs: 5_000, maxDelayMs: 3_600_000, minimumSpanMs: 24 * 3_600_000 };
export const WEBHOOK_BACKOFF_TYPE = 'webhook-capped-exponential';

/** Wait before try `attemptsMade + 1`: exponential, capped. BullMQ calls it with the tries made so far. */
export function webhookBackoff(attemptsMade: number, retry: WebhookRetryOptions = {}): number {
  const { baseDelayMs, maxDelayMs } = { ...RETRY_DEFAULTS, ...retry };
  return Math.min(baseDelayMs * 2 ** Math.max(0, attemptsMade - 1), maxDelayMs);
}

/** How many tries make the waits between them add up to at least the minimum span. */
export function webhookAttempts(retry: WebhookRetryOptions = {}): number {
  const { minimumSpanMs } = { ...RETRY_DEFAULTS, ...retry };
  let attempts = 1;
  for (let waited = 0; waited < minimumSpanMs; attempts += 1) waited += webhookBackoff(attempts, retry);
  return attempts;
}

/** The name of every delivery job in a webhook queue. */
export const DELIVER_JOB = 'deliver';

/** What a delivery job carries: references only (BullMQ data is clear text); a family may add its own. */
export interface WebhookJobData extends JobRef {
  status: JobStatus;
  /** The Standard Webhooks message id, the same on every try. */
  webhookId: string;
}

export function webhookId(ref: JobRef): string {
  // Standard Webhooks ids must not contain '.'; a job ends once, so its id names the message.
  return `msg_${ref.jobId}`;
}

export function deliveryJobOptions(ref: JobRef, retry: WebhookRetryOptions = {}): JobsOptions {
  return {
    jobId: `wh-${ref.jobId}`,
    attempts: webhookAttempts(retry),
    backoff: { type: WEBHOOK_BACKOFF_TYPE },
    removeOnComplete: { age: 7 * 24 * 3600 },
    removeOnFail: { age: 30 * 24 * 3600 },
  };
}

/**
 * Queues the webhook of a job that reached a final state (idempotent: one delivery job per job); `extra` is the
 * family's own part of the job data.
 */
export async function enqueueDelivery<T extends WebhookJobData>(queue: Queue<T>, ref: JobRef, status: JobStatus, extra: Omit<T, keyof WebhookJobData>, retry?: WebhookRetryOptions): Promise<void> {
  const data = { ...extra, ...ref, status, webhookId: webhookId(ref) } as T;
  await (queue as unknown as Queue<WebhookJobData>).add(DELIVER_JOB, data, deliveryJobOptions(ref, retry));
}

/** A job's webhook as a family has it: where to, the secret sealed in its record, and the body built at each try. */
export interface WebhookTarget {
  url: string | null;
  /** The client's secret sealed with `secretContext`; null sends the Standard Webhooks headers unsigned. */
  secretSealed: string | null;
  secretContext: string;
  /** The `data` of the body: the job as its poll answers it now (fresh download URLs). */
  body(): Promise<unknown>;
}

/** How the sender finds a job's webhook; null when the job is gone. */
export interface WebhookSource {
  target(ref: JobRef): Promise<WebhookTarget | null>;
}

/** A source that reads a family's record and maps it to its target (null when the record is gone). */
export function recordWebhooks<R>(load: (ref: JobRef) => Promise<R | null>, targetOf: (record: R) => WebhookTarget): WebhookSource {
  return {
    async target(ref) {
      const record = await load(ref);
      return record === null ? null : targetOf(record);
    },
  };
}

export interface WebhookSenderOptions extends WebhookOptions {
  source: WebhookSource;
  sealer: Sealer;
  clock: Clock;
  logger: Logger;
}

export type DeliveryOutcome = { delivered: true; status: number } | { delivered: false; reason: 'job-gone' | 'no-webhook-url' };

/**
 * Posts `{data: <job as polled>}` to the client's URL. The body is built at every try, so its download URLs are
 * fresh; `webhook-id` stays the same. Any 2xx acknowledges; anything else, or a network error, throws so BullMQ
 * retries with the capped exponential backoff. Redirects are not followed; blocked addresses fail at once.
 */
export class WebhookSender {
  constructor(private readonly options: WebhookSenderOptions) {}

  async deliver(job: Job<WebhookJobData>): Promise<DeliveryOutcome> {
    const { source, logger } = this.options;
    const ref: JobRef = { owner: job.data.owner, jobId: job.data.jobId };
    const target = await source.target(ref);
    if (!target) return { delivered: false, reason: 'job-gone' };
    if (!target.url) return { delivered: false, reason: 'no-webhook-url' };
    const url = this.checkedUrl(target.url, job);
    const body = JSON.stringify({ data: await target.body() });
    const headers = this.headersFor(target, job.data.webhookId, body);
    try {
      const response = await axios.post(url.href, body, this.requestConfig(url, headers));
      (response.data as NodeJS.ReadableStream & { destroy?: () => void }).destroy?.();
      if (response.status >= 200 && response.status < 300) return { delivered: true, status: response.status };
      throw new Error(`Webhook receiver answered ${response.status}`);
    } catch (error) {
      if (error instanceof BlockedAddressError || (error as { cause?: unknown }).cause instanceof BlockedAddressError) {
        throw this.refusal(job, url.hostname, (error as Error).message);
      }
      logger.info('webhook delivery failed; will retry', {
        job_id: ref.jobId, webhook_id: job.data.webhookId, origin: url.origin, attempt: job.attemptsMade + 1, error: (error as Error).message,
      });
      throw error;
    }
  }

  private checkedUrl(raw: string, job: Job<WebhookJobData>): URL {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw this.refusal(job, null, 'Webhook URL is not a URL');
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw this.refusal(job, url.hostname, 'Webhook URL must be http or https');
    if (!this.allowListed(url)) {
      try {
        assertPublicLiteral(url);
      } catch (error) {
        throw this.refusal(job, url.hostname, (error as Error).message);
      }
    }
    return url;
  }

  /**
   * A delivery that will never be made: logged at once (not only when the tries run out), naming the host only,
   * since a webhook URL's path, query or user info may carry the receiver's secrets.
   */
  private refusal(job: Job<WebhookJobData>, host: string | null, reason: string): UnrecoverableError {
    this.options.logger.warn('webhook delivery refused', { job_id: job.data.jobId, webhook_id: job.data.webhookId, host, reason });
    return new UnrecoverableError(reason);
  }

  private allowListed(url: URL): boolean {
    return isAllowListed(url, this.options.allowPrivateUrls ?? []);
  }

  private headersFor(target: WebhookTarget, id: string, body: string): Record<string, string> {
    const base = { 'content-type': 'application/json', 'user-agent': 'satyapan-webhooks/1' };
    if (!target.secretSealed) return { ...base, 'webhook-id': id, 'webhook-timestamp': String(this.nowSeconds()) };
    const secret = this.options.sealer.unsealText(target.secretSealed, target.secretContext);
    return { ...base, ...signWebhook(secret, id, this.nowSeconds(), body) };
  }

  private requestConfig(url: URL, headers: Record<string, string>): AxiosRequestConfig {
    return {
      headers,
      timeout: this.options.timeoutMs ?? 10_000,
      maxRedirects: 0,
      proxy: false,
      responseType: 'stream',
      validateStatus: () => true,
      ...(this.allowListed(url) ? {} : { lookup: publicLookupCallback as unknown as AxiosRequestConfig['lookup'] }),
    };
  }

  private nowSeconds(): number {
    return Math.floor(this.options.clock.now() / 1000);
  }
}
