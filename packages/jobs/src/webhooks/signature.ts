import { constantTimeEqual, hmacSign } from '@satyapan/core';

/**
 * Webhook signatures (docs/API.md): `x-service-signature` is base64 HMAC-SHA256 of the body keyed with the client's
 * secret exactly as configured (the vendor's scheme), and the Standard Webhooks headers sign
 * `<webhook-id>.<webhook-timestamp>.<body>` as `v1,<base64>`. For the latter, a secret written `whsec_<base64>`
 * is a Standard Webhooks secret whose key is the decoded bytes; any other secret is keyed by its UTF-8 bytes.
 */
export interface WebhookHeaders {
  'x-service-signature': string;
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

export const DEFAULT_TOLERANCE_SECONDS = 5 * 60;

function standardKey(secret: string): Buffer {
  return secret.startsWith('whsec_') ? Buffer.from(secret.slice('whsec_'.length), 'base64') : Buffer.from(secret, 'utf8');
}

export function signWebhook(secret: string, webhookId: string, timestampSeconds: number, body: string): WebhookHeaders {
  const signed = `${webhookId}.${timestampSeconds}.${body}`;
  return {
    'x-service-signature': hmacSign(secret, body, 'base64'),
    'webhook-id': webhookId,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': `v1,${hmacSign(standardKey(secret), signed, 'base64')}`,
  };
}

export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
  constructor(readonly code: 'MISSING_HEADERS' | 'TIMESTAMP_OUT_OF_TOLERANCE' | 'BAD_SIGNATURE', message: string) {
    super(message);
  }
}

/**
 * Which signature a receiver checks; it never falls back from one to the other, so removing headers cannot
 * downgrade a check. `standard-webhooks` (the default) signs the id and a timestamp, which must be fresh: a
 * captured delivery cannot be replayed later. `x-service-signature` is the vendor's scheme, for receivers written
 * against the vendor: it signs the body only, so a captured delivery stays valid and can be replayed forever.
 */
export type WebhookScheme = 'standard-webhooks' | 'x-service-signature';

export interface VerifyOptions {
  secret: string;
  /** Default `standard-webhooks`; `x-service-signature` must be chosen explicitly (replayable, see above). */
  scheme?: WebhookScheme;
  /** The raw body exactly as received (not re-serialised JSON). */
  body: string | Buffer;
  /** Request headers; names are matched case-insensitively. */
  headers: Record<string, string | string[] | undefined>;
  toleranceSeconds?: number;
  /** Unix ms, for tests. */
  now?: number;
}

/**
 * For receivers: checks a delivery with the scheme the receiver chose and returns its parsed body. Receivers
 * should also drop a `webhook-id` they have already processed: retries repeat it.
 */
export function verifyWebhook<T = unknown>(options: VerifyOptions): T {
  const headers = lowerCased(options.headers);
  const body = Buffer.isBuffer(options.body) ? options.body.toString('utf8') : options.body;
  const scheme = options.scheme ?? 'standard-webhooks';
  // Only the exact name selects the replayable scheme: a misspelt one must not quietly weaken the check.
  if (scheme === 'standard-webhooks') verifyStandard(options, headers, body);
  else if (scheme === 'x-service-signature') verifyServiceSignature(options.secret, headers, body);
  else throw new TypeError(`Unknown webhook scheme: ${String(scheme)} (expected 'standard-webhooks' or 'x-service-signature')`);
  return JSON.parse(body) as T;
}

function verifyStandard(options: VerifyOptions, headers: Record<string, string | undefined>, body: string): void {
  const id = headers['webhook-id'];
  const timestamp = headers['webhook-timestamp'];
  const signatures = headers['webhook-signature'];
  if (!id || !timestamp || !signatures) {
    throw new WebhookVerificationError('MISSING_HEADERS', 'webhook-id, webhook-timestamp and webhook-signature are required');
  }
  checkTimestamp(timestamp, options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS, options.now ?? Date.now());
  const expected = `v1,${hmacSign(standardKey(options.secret), `${id}.${timestamp}.${body}`, 'base64')}`;
  if (!signatures.split(' ').some((candidate) => constantTimeEqual(candidate, expected))) {
    throw new WebhookVerificationError('BAD_SIGNATURE', 'No matching webhook-signature');
  }
}

function verifyServiceSignature(secret: string, headers: Record<string, string | undefined>, body: string): void {
  const signature = headers['x-service-signature'];
  if (!signature) throw new WebhookVerificationError('MISSING_HEADERS', 'x-service-signature is required');
  if (!constantTimeEqual(signature, hmacSign(secret, body, 'base64'))) {
    throw new WebhookVerificationError('BAD_SIGNATURE', 'x-service-signature does not match');
  }
}

function checkTimestamp(value: string, toleranceSeconds: number, nowMs: number): void {
  const seconds = Number(value);
  if (!Number.isInteger(seconds) || Math.abs(nowMs / 1000 - seconds) > toleranceSeconds) {
    throw new WebhookVerificationError('TIMESTAMP_OUT_OF_TOLERANCE', 'webhook-timestamp is outside the tolerance');
  }
}

function lowerCased(headers: VerifyOptions['headers']): Record<string, string | undefined> {
  const result: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(headers)) result[name.toLowerCase()] = Array.isArray(value) ? value.join(' ') : value;
  return result;
}
