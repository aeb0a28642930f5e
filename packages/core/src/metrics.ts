// Prometheus metrics (prom-client) for every Satyapan process: one registry per `createMetrics()`, never
// prom-client's global one, so two routers (or two tests) in one process never share or clash on series.
// Labels take values from code only (route patterns, upstream and operation names, states): never a path, an
// account number, an IFSC or a client's identity.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export interface MetricsOptions {
  /** Also export prom-client's process metrics (CPU, memory, event-loop lag, GC); default false. */
  processMetrics?: boolean;
  /** Labels added to every series, e.g. `{ role: 'worker' }`. */
  defaultLabels?: Record<string, string>;
}

/** Counts of a queue's jobs by BullMQ state, read at scrape time (`Queue.getJobCounts`). */
export type QueueCounts = () => Promise<Record<string, number>>;

/** Why an upstream call ended: `ok` (an answer), `error` (an error the adapter raised: 5xx, timeout, refused). */
export type UpstreamOutcome = 'ok' | 'error';

/** The job states (core's JOB_STATUSES, statement and bulk jobs alike), webhook outcomes and verification caches that are counted. */
const JOB_STATES = ['created', 'queued', 'in_progress', 'succeeded', 'failed'] as const;
/** A bulk row's outcome (bulk's ROW_OUTCOMES): `interrupted` was in flight when its worker died, never called twice. */
const BULK_ROW_OUTCOMES = ['ok', 'invalid', 'error', 'interrupted'] as const;
/**
 * How one bulk run (a worker's turn with a job) ended: the job `succeeded` or `failed`; it `yielded` the lane to a
 * waiting job or was `handed_back` (the worker closing) with rows left; or an `error` sends it to BullMQ's retry.
 */
const BULK_RUN_OUTCOMES = ['succeeded', 'failed', 'yielded', 'handed_back', 'error'] as const;
export type BulkRunOutcome = (typeof BULK_RUN_OUTCOMES)[number];
const WEBHOOK_OUTCOMES = ['delivered', 'skipped', 'failed', 'given_up'] as const;
const VERIFICATION_CACHES = ['penny_drop', 'penny_less', 'pan_verification', 'pan_aadhaar_link'] as const;

/** How long the upstreams take: seconds, from 10 ms to a minute (OTP and locker calls can take several seconds). */
const UPSTREAM_BUCKETS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
/** A statement conversion runs from well under a second to minutes for the largest workbooks. */
const CONVERSION_BUCKETS = [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600];
/** A bulk run: an IFSC file of a few rows in well under a second; a turn of paid calls up to the whole job (hours). */
const BULK_RUN_BUCKETS = [0.1, 0.5, 1, 5, 10, 30, 60, 300, 900, 1800, 3600, 7200];

/**
 * The instruments of one process. Hosts create one with `createMetrics()`, pass it to the router, the services
 * and the worker, and serve `metricsHandler(metrics)` where their scraper looks.
 */
export class SatyapanMetrics {
  readonly registry: Registry;
  /** Requests by route pattern, method and status; its `_count` is the request count. */
  readonly httpRequestDuration: Histogram<'method' | 'route' | 'status'>;
  /** Calls to upstreams (lockers, Aadhaar OTP, penny drop, penny-less) by upstream, operation and outcome. */
  readonly upstreamDuration: Histogram<'upstream' | 'operation' | 'outcome'>;
  /** Statement jobs that entered each state (created, queued, in_progress, succeeded, failed). */
  readonly statementJobs: Counter<'state'>;
  /** Conversions by outcome (`converted`, `invalid_workbook`, `limit`: ended at a conversion limit, `error`). */
  readonly conversionDuration: Histogram<'outcome'>;
  /** Webhook delivery attempts: `delivered`, `skipped` (job gone, no URL), `failed` (will retry), `given_up`. */
  readonly webhookDeliveries: Counter<'outcome'>;
  /** Lookups of the verification caches (`penny_drop`, `penny_less`, `pan_verification`, `pan_aadhaar_link`) by result (`hit`, `miss`). */
  readonly cacheLookups: Counter<'cache' | 'result'>;
  /** Bulk verification jobs that entered each state (created, queued, in_progress, succeeded, failed). */
  readonly bulkJobs: Counter<'state'>;
  /** Bulk rows by outcome (`ok`, `invalid`, `error`, `interrupted`), counted once when their chunk is committed. */
  readonly bulkRows: Counter<'outcome'>;
  /** Bulk jobs' webhook delivery attempts, by outcome as `webhookDeliveries`. */
  readonly bulkWebhookDeliveries: Counter<'outcome'>;
  /**
   * Jobs of every family (`statement`, `bulk`) that entered each state, by kind: a statement job's kind is
   * `regular` or `correction`, a bulk job's its row check (`penny_drop`, `ifsc`, `pan`, ...).
   */
  readonly jobsByKind: Counter<'family' | 'kind' | 'state'>;
  /** Bulk runs (a worker's turn with a job) by how they ended (BULK_RUN_OUTCOMES). */
  readonly bulkRunDuration: Histogram<'outcome'>;
  /** Jobs in each queue by BullMQ state, read from Redis when scraped. */
  readonly queueDepth: Gauge<'queue' | 'state'>;
  private readonly queues = new Map<string, QueueCounts>();

  constructor(options: MetricsOptions = {}) {
    this.registry = new Registry();
    if (options.defaultLabels) this.registry.setDefaultLabels(options.defaultLabels);
    if (options.processMetrics) collectDefaultMetrics({ register: this.registry, prefix: 'satyapan_' });
    const registers = [this.registry];
    this.httpRequestDuration = new Histogram({
      name: 'satyapan_http_request_duration_seconds', help: 'HTTP requests by route pattern, method and status',
      labelNames: ['method', 'route', 'status'], registers,
    });
    this.upstreamDuration = new Histogram({
      name: 'satyapan_upstream_request_duration_seconds', help: 'Upstream calls by upstream, operation and outcome',
      labelNames: ['upstream', 'operation', 'outcome'], buckets: UPSTREAM_BUCKETS, registers,
    });
    this.statementJobs = new Counter({
      name: 'satyapan_statement_jobs_total', help: 'Statement jobs that entered each state', labelNames: ['state'], registers,
    });
    this.conversionDuration = new Histogram({
      name: 'satyapan_statement_conversion_duration_seconds', help: 'Statement conversions by outcome',
      labelNames: ['outcome'], buckets: CONVERSION_BUCKETS, registers,
    });
    this.webhookDeliveries = new Counter({
      name: 'satyapan_webhook_deliveries_total', help: 'Webhook delivery attempts by outcome', labelNames: ['outcome'], registers,
    });
    this.cacheLookups = new Counter({
      name: 'satyapan_cache_lookups_total', help: 'Verification cache lookups by cache and result', labelNames: ['cache', 'result'], registers,
    });
    this.bulkJobs = new Counter({
      name: 'satyapan_bulk_jobs_total', help: 'Bulk verification jobs that entered each state', labelNames: ['state'], registers,
    });
    this.bulkRows = new Counter({
      name: 'satyapan_bulk_rows_total', help: 'Bulk verification rows by outcome, counted when their chunk is committed', labelNames: ['outcome'], registers,
    });
    this.bulkWebhookDeliveries = new Counter({
      name: 'satyapan_bulk_webhook_deliveries_total', help: 'Bulk job webhook delivery attempts by outcome', labelNames: ['outcome'], registers,
    });
    this.jobsByKind = new Counter({
      name: 'satyapan_jobs_by_kind_total', help: 'Jobs of each family and kind that entered each state', labelNames: ['family', 'kind', 'state'], registers,
    });
    this.bulkRunDuration = new Histogram({
      name: 'satyapan_bulk_run_duration_seconds', help: 'Bulk job runs (a worker\'s turn with a job) by how they ended',
      labelNames: ['outcome'], buckets: BULK_RUN_BUCKETS, registers,
    });
    this.startAtZero();
    const queues = this.queues;
    this.queueDepth = new Gauge({
      name: 'satyapan_queue_jobs', help: 'Jobs in each queue by state, read from Redis at scrape time', labelNames: ['queue', 'state'], registers,
      async collect() {
        const answers = await Promise.all([...queues].map(async ([queue, counts]) => [queue, await countsWithin(counts, QUEUE_COUNTS_TIMEOUT_MS)] as const));
        // A queue that did not answer (Redis away) is left out of this scrape rather than shown with old values;
        // the scrape itself still answers.
        this.reset();
        for (const [queue, byState] of answers) {
          if (byState) for (const [state, count] of Object.entries(byState)) this.set({ queue, state }, count);
        }
      },
    });
  }

  /**
   * Every known series of the counters from zero, so that `rate()` and `increase()` see the first event and an
   * alert on a series that has not happened yet has something to read.
   */
  private startAtZero(): void {
    for (const state of JOB_STATES) this.statementJobs.inc({ state }, 0);
    for (const state of JOB_STATES) this.bulkJobs.inc({ state }, 0);
    for (const outcome of BULK_ROW_OUTCOMES) this.bulkRows.inc({ outcome }, 0);
    for (const outcome of WEBHOOK_OUTCOMES) this.webhookDeliveries.inc({ outcome }, 0);
    for (const outcome of WEBHOOK_OUTCOMES) this.bulkWebhookDeliveries.inc({ outcome }, 0);
    for (const cache of VERIFICATION_CACHES) for (const result of ['hit', 'miss']) this.cacheLookups.inc({ cache, result }, 0);
  }

  /** Reports a queue's depth at each scrape; a second registration under one name replaces the first. */
  watchQueue(name: string, counts: QueueCounts): void {
    this.queues.set(name, counts);
  }

  /** Runs one upstream call and records its duration and outcome. */
  async timeUpstream<T>(upstream: string, operation: string, call: () => Promise<T>): Promise<T> {
    const started = performance.now();
    let outcome: UpstreamOutcome = 'error';
    try {
      const result = await call();
      outcome = 'ok';
      return result;
    } finally {
      this.upstreamDuration.observe({ upstream, operation, outcome }, (performance.now() - started) / 1000);
    }
  }

  /**
   * The same port with every method that returns a promise timed as a call to `upstream` (the method's name is
   * the operation). For adapters of an upstream (a locker client, an OTP provider): the adapter stays unaware.
   */
  instrumentUpstream<T extends object>(port: T, upstream: string): T {
    const wrappers = new Map<PropertyKey, unknown>();
    const timeUpstream = this.timeUpstream.bind(this);
    return new Proxy(port, {
      get(target, property) {
        const value: unknown = Reflect.get(target, property, target);
        if (typeof value !== 'function' || typeof property !== 'string') return value;
        let wrapper = wrappers.get(property);
        if (!wrapper) {
          wrapper = (...args: unknown[]): unknown => {
            const result: unknown = value.apply(target, args);
            if (!(result instanceof Promise)) return result;
            return timeUpstream(upstream, property, () => result);
          };
          wrappers.set(property, wrapper);
        }
        return wrapper;
      },
    });
  }

  /** The exposition text of every series (what `metricsHandler` serves). */
  async text(): Promise<string> {
    return this.registry.metrics();
  }
}

/** How long a scrape waits for a queue's counts: a worker connection waits for Redis forever. */
const QUEUE_COUNTS_TIMEOUT_MS = 1_000;

async function countsWithin(counts: QueueCounts, timeoutMs: number): Promise<Record<string, number> | null> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((resolve) => { timer = setTimeout(() => resolve(null), timeoutMs); });
  try {
    return await Promise.race([counts().catch(() => null), late]);
  } finally {
    clearTimeout(timer);
  }
}

export function createMetrics(options: MetricsOptions = {}): SatyapanMetrics {
  return new SatyapanMetrics(options);
}

/**
 * A Node request handler serving the metrics in Prometheus' text format; it works as an Express handler too:
 * `app.get('/metrics', metricsHandler(metrics))`. Mount it where only the scraper reaches (not on the public API).
 */
export function metricsHandler(metrics: SatyapanMetrics): (req: IncomingMessage, res: ServerResponse) => void {
  return (_req, res) => {
    metrics.text().then((body) => {
      res.statusCode = 200;
      res.setHeader('content-type', metrics.registry.contentType);
      res.end(body);
    }, () => {
      res.statusCode = 500;
      res.setHeader('content-type', 'text/plain');
      res.end('metrics could not be collected\n');
    });
  };
}
