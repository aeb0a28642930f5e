import { readFileSync } from 'node:fs';
import { FsStorage, Sealer, parseClusterNodes, parseSealingKeys, requiredEnv, requirePublicUrl, type ObjectStorage, type SealingKey } from '@satyapan/core';
import { parseLimitPair } from '@satyapan/statement-engine';
import { S3Storage } from '@satyapan/storage-s3';

/** What the worker process reads from its environment. The API processes must use the same values. */
export interface WorkerConfig {
  redisUrl: string;
  /** Seed nodes of a Redis Cluster (`REDIS_CLUSTER_NODES=host:port,...`); when set, `redisUrl` is not used. */
  redisClusterNodes?: string[];
  keyPrefix: string;
  concurrency: number;
  sealingKeys: SealingKey[];
  storage: ObjectStorage;
  lockDurationMs?: number;
  stalledIntervalMs?: number;
  sweepIntervalMs?: number;
  shutdownTimeoutMs: number;
  webhookAllowList: string[];
  /** Largest workbook or CSI file converted (`SATYAPAN_MAX_UPLOAD_BYTES`); the API's limit; default 50 MB. */
  maxUploadBytes?: number;
  /** Parent of per-job scratch folders; default the OS temp directory. */
  tmpDir?: string;
  /** Wall time and memory of one conversion (`SATYAPAN_CONVERSION_TIMEOUT_MS`, `SATYAPAN_CONVERSION_MEMORY_MB`). */
  conversionLimits: { timeoutMs?: number; memoryMb?: number };
  /**
   * Wall time and memory of one Form 16 job's generation (`SATYAPAN_FORM16_TIMEOUT_MS`, `SATYAPAN_FORM16_MEMORY_MB`):
   * variables of their own, as a year's certificates for 10,000 employees take minutes where a statement takes
   * seconds (defaults 60 min and 2048 MB against 10 min and 1536 MB).
   */
  form16Limits: { timeoutMs?: number; memoryMb?: number };
  /** The engine's input limits over its defaults (`SATYAPAN_INPUT_LIMITS=sheetRows=100000,cellChars=5000`). */
  inputLimits?: Record<string, number>;
  logLevel: string;
  /** Port of /metrics and /health/* (`SATYAPAN_METRICS_PORT`); none is served when unset. */
  metricsPort?: number;
  /** Address it listens on (`SATYAPAN_METRICS_HOST`, default 127.0.0.1; 0.0.0.0 for a scraper on another host). */
  metricsHost: string;
  /** Bulk verification jobs: the row checks' providers and the pacing of their calls (see {@link BulkConfig}). */
  bulk: BulkConfig;
}

/**
 * What the bulk worker needs to run the same row checks as the API: the providers (penny drop when
 * SATYAPAN_PENNY_DROP_URL is set, penny-less when SATYAPAN_PENNY_LESS_URL is), the secrets their caches are
 * keyed with (the API's, or rows would miss the cache the API fills), the IFSC directory, and the rates.
 */
export interface BulkConfig {
  pennyDrop?: { url: string; clientId: string; clientSecret: string; cacheKeySecret: string; publicKeyPem?: string };
  pennyLess?: { url: string; clientId: string; clientSecret: string; productInstanceId: string; cacheKeySecret: string };
  /** PAN verification (Cashfree PAN 360) when SATYAPAN_PAN_URL is set. */
  pan?: { url: string; clientId: string; clientSecret: string; cacheKeySecret: string; publicKeyPem?: string };
  /** PAN-Aadhaar link status (the e-filing portal) when SATYAPAN_PAN_AADHAAR_LINK_URL is set. */
  panAadhaarLink?: { url: string; cacheKeySecret: string };
  /** A snapshot or Razorpay source (`SATYAPAN_IFSC_DIRECTORY`); the shipped sample when unset. */
  ifscDirectory?: string;
  /** Refuse rows whose IFSC the directory lacks without a paid call (`SATYAPAN_REFUSE_UNKNOWN_IFSC`, on unless `off`). */
  refuseUnknownIfsc: boolean;
  /** Calls per second by upstream (`SATYAPAN_BULK_RATE_PENNY_DROP`, `SATYAPAN_BULK_RATE_PENNY_LESS`, `SATYAPAN_BULK_RATE_PAN`, `SATYAPAN_BULK_RATE_PAN_AADHAAR_LINK`). */
  rateLimits: Record<string, number>;
  rowConcurrency?: number;
  chunkSize?: number;
}

function required(env: NodeJS.ProcessEnv, name: string, what?: string): string {
  return requiredEnv(name, what, env);
}

/** The API's cache key secret of a verification: rows must read and fill the cache the API does. */
const CACHE_SECRET = 'the API\'s cache key secret of this verification, so that rows share its cache';

function positiveInteger(env: NodeJS.ProcessEnv, name: string): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive integer, got ${raw}`);
  return value;
}

/**
 * Storage: S3 when SATYAPAN_S3_BUCKET is set (credentials from the usual AWS variables), else FsStorage under
 * SATYAPAN_DATA_DIR with the API's signing secret and public storage URL (webhooks carry signed download URLs).
 */
function storageFrom(env: NodeJS.ProcessEnv): ObjectStorage {
  const bucket = env['SATYAPAN_S3_BUCKET'];
  if (bucket) {
    const endpoint = env['SATYAPAN_S3_ENDPOINT'];
    return new S3Storage({
      bucket,
      ...(env['SATYAPAN_S3_PREFIX'] ? { keyPrefix: env['SATYAPAN_S3_PREFIX'] } : {}),
      clientConfig: {
        region: env['AWS_REGION'] ?? 'us-east-1',
        ...(endpoint ? { endpoint, forcePathStyle: true } : {}),
      },
    });
  }
  return new FsStorage({
    root: required(env, 'SATYAPAN_DATA_DIR', 'the API\'s storage folder (FsStorage root), or SATYAPAN_S3_BUCKET for S3'),
    signingSecret: required(env, 'SATYAPAN_STORAGE_SECRET', 'the API\'s FsStorage signingSecret'),
    publicBaseUrl: requirePublicUrl('', 'SATYAPAN_STORAGE_URL', required(env, 'SATYAPAN_STORAGE_URL', 'the public URL of the router\'s storage endpoint, <publicBaseUrl>/storage')),
  });
}

export function readConfig(env: NodeJS.ProcessEnv = process.env): WorkerConfig {
  const lockDurationMs = positiveInteger(env, 'SATYAPAN_LOCK_DURATION_MS');
  const stalledIntervalMs = positiveInteger(env, 'SATYAPAN_STALLED_INTERVAL_MS');
  const sweepIntervalMs = positiveInteger(env, 'SATYAPAN_SWEEP_INTERVAL_MS');
  const metricsPort = positiveInteger(env, 'SATYAPAN_METRICS_PORT');
  const maxUploadBytes = positiveInteger(env, 'SATYAPAN_MAX_UPLOAD_BYTES');
  const conversionTimeoutMs = positiveInteger(env, 'SATYAPAN_CONVERSION_TIMEOUT_MS');
  const conversionMemoryMb = positiveInteger(env, 'SATYAPAN_CONVERSION_MEMORY_MB');
  const form16TimeoutMs = positiveInteger(env, 'SATYAPAN_FORM16_TIMEOUT_MS');
  const form16MemoryMb = positiveInteger(env, 'SATYAPAN_FORM16_MEMORY_MB');
  const inputLimits = limitsFrom(env, 'SATYAPAN_INPUT_LIMITS');
  if (metricsPort !== undefined && metricsPort > 65_535) throw new Error(`SATYAPAN_METRICS_PORT must be a port number, got ${metricsPort}`);
  const redisClusterNodes = parseClusterNodes(env['REDIS_CLUSTER_NODES']);
  return {
    redisUrl: env['REDIS_URL'] ?? 'redis://127.0.0.1:6379',
    ...(redisClusterNodes ? { redisClusterNodes } : {}),
    keyPrefix: env['SATYAPAN_KEY_PREFIX'] ?? 'satyapan',
    concurrency: positiveInteger(env, 'SATYAPAN_WORKER_CONCURRENCY') ?? 1,
    // `id:base64key` entries separated by commas; the first one seals.
    sealingKeys: parseSealingKeys(required(env, 'SATYAPAN_SEALING_KEYS', 'the API\'s sealing keys, id:base64key[,id:base64key]')),
    storage: storageFrom(env),
    ...(lockDurationMs ? { lockDurationMs } : {}),
    ...(stalledIntervalMs ? { stalledIntervalMs } : {}),
    ...(sweepIntervalMs ? { sweepIntervalMs } : {}),
    ...(maxUploadBytes ? { maxUploadBytes } : {}),
    ...(inputLimits ? { inputLimits } : {}),
    conversionLimits: { ...(conversionTimeoutMs ? { timeoutMs: conversionTimeoutMs } : {}), ...(conversionMemoryMb ? { memoryMb: conversionMemoryMb } : {}) },
    form16Limits: { ...(form16TimeoutMs ? { timeoutMs: form16TimeoutMs } : {}), ...(form16MemoryMb ? { memoryMb: form16MemoryMb } : {}) },
    shutdownTimeoutMs: positiveInteger(env, 'SATYAPAN_SHUTDOWN_TIMEOUT_MS') ?? 30_000,
    webhookAllowList: (env['SATYAPAN_WEBHOOK_ALLOW'] ?? '').split(',').filter(Boolean),
    ...(env['SATYAPAN_TMP_DIR'] ? { tmpDir: env['SATYAPAN_TMP_DIR'] } : {}),
    logLevel: env['LOG_LEVEL'] ?? 'info',
    ...(metricsPort ? { metricsPort } : {}),
    metricsHost: env['SATYAPAN_METRICS_HOST'] || '127.0.0.1',
    bulk: bulkFrom(env),
  };
}

export function sealerFrom(config: WorkerConfig): Sealer {
  return new Sealer(config.sealingKeys);
}

function positiveNumber(env: NodeJS.ProcessEnv, name: string): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number, got ${raw}`);
  return value;
}

/** Calls per second to an upstream; `off` turns its pacing off (Infinity); unset keeps the default (BULK_DEFAULTS.rateLimits). */
function rateOf(env: NodeJS.ProcessEnv, name: string): number | undefined {
  return env[name] === 'off' ? Infinity : positiveNumber(env, name);
}

/**
 * `name=value` pairs, comma-separated, of whole numbers: the engine checks the names and values when the worker
 * starts (an unknown limit names the known ones).
 */
function limitsFrom(env: NodeJS.ProcessEnv, name: string): Record<string, number> | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  const limits: Record<string, number> = {};
  for (const text of raw.split(',')) {
    const pair = parseLimitPair(text);
    if (!pair) throw new Error(`${name} must be name=value pairs separated by commas (e.g. sheetRows=100000), got ${text.trim().slice(0, 40)}`);
    limits[pair[0]] = pair[1];
  }
  return limits;
}

/**
 * Cashfree's public key (PEM) from the file a variable names, for signing calls (`x-cf-signature`) from a host
 * whose egress IP is not whitelisted; nothing when the variable is unset.
 */
function publicKeyFrom(env: NodeJS.ProcessEnv, name: string): { publicKeyPem?: string } {
  const path = env[name];
  if (!path) return {};
  try {
    return { publicKeyPem: readFileSync(path, 'utf8') };
  } catch (error) {
    throw new Error(`${name} names a file that cannot be read: ${(error as NodeJS.ErrnoException).code ?? 'error'}`);
  }
}

/** A switch that is on unless set to `off`; anything but `on` or `off` is a mistake named at start. */
function onOrOff(env: NodeJS.ProcessEnv, name: string): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '' || raw === 'on') return true;
  if (raw === 'off') return false;
  throw new Error(`${name} must be on or off, got ${raw}`);
}

function bulkFrom(env: NodeJS.ProcessEnv): BulkConfig {
  const pennyDropUrl = env['SATYAPAN_PENNY_DROP_URL'];
  const pennyLessUrl = env['SATYAPAN_PENNY_LESS_URL'];
  const rateLimits: Record<string, number> = {};
  const pennyDropRate = rateOf(env, 'SATYAPAN_BULK_RATE_PENNY_DROP');
  const pennyLessRate = rateOf(env, 'SATYAPAN_BULK_RATE_PENNY_LESS');
  const panRate = rateOf(env, 'SATYAPAN_BULK_RATE_PAN');
  if (panRate !== undefined) rateLimits['pan_verification'] = panRate;
  const linkRate = rateOf(env, 'SATYAPAN_BULK_RATE_PAN_AADHAAR_LINK');
  if (linkRate !== undefined) rateLimits['pan_aadhaar_link'] = linkRate;
  if (pennyDropRate !== undefined) rateLimits['penny_drop'] = pennyDropRate;
  if (pennyLessRate !== undefined) rateLimits['penny_less'] = pennyLessRate;
  const rowConcurrency = positiveInteger(env, 'SATYAPAN_BULK_ROW_CONCURRENCY');
  const chunkSize = positiveInteger(env, 'SATYAPAN_BULK_CHUNK_SIZE');
  return {
    ...(pennyDropUrl ? {
      pennyDrop: {
        url: pennyDropUrl,
        clientId: required(env, 'SATYAPAN_PENNY_DROP_CLIENT_ID'),
        clientSecret: required(env, 'SATYAPAN_PENNY_DROP_CLIENT_SECRET'),
        cacheKeySecret: required(env, 'SATYAPAN_PENNY_DROP_CACHE_KEY_SECRET', CACHE_SECRET),
        ...publicKeyFrom(env, 'SATYAPAN_PENNY_DROP_PUBLIC_KEY_FILE'),
      },
    } : {}),
    ...(pennyLessUrl ? {
      pennyLess: {
        url: pennyLessUrl,
        clientId: required(env, 'SATYAPAN_PENNY_LESS_CLIENT_ID'),
        clientSecret: required(env, 'SATYAPAN_PENNY_LESS_CLIENT_SECRET'),
        productInstanceId: required(env, 'SATYAPAN_PENNY_LESS_PRODUCT_INSTANCE_ID'),
        cacheKeySecret: required(env, 'SATYAPAN_PENNY_LESS_CACHE_KEY_SECRET', CACHE_SECRET),
      },
    } : {}),
    ...(env['SATYAPAN_PAN_URL'] ? {
      pan: {
        url: env['SATYAPAN_PAN_URL'],
        clientId: required(env, 'SATYAPAN_PAN_CLIENT_ID'),
        clientSecret: required(env, 'SATYAPAN_PAN_CLIENT_SECRET'),
        cacheKeySecret: required(env, 'SATYAPAN_PAN_CACHE_KEY_SECRET', CACHE_SECRET),
        ...publicKeyFrom(env, 'SATYAPAN_PAN_PUBLIC_KEY_FILE'),
      },
    } : {}),
    ...(env['SATYAPAN_PAN_AADHAAR_LINK_URL'] ? {
      panAadhaarLink: { url: env['SATYAPAN_PAN_AADHAAR_LINK_URL'], cacheKeySecret: required(env, 'SATYAPAN_PAN_AADHAAR_LINK_CACHE_KEY_SECRET', CACHE_SECRET) },
    } : {}),
    ...(env['SATYAPAN_IFSC_DIRECTORY'] ? { ifscDirectory: env['SATYAPAN_IFSC_DIRECTORY'] } : {}),
    refuseUnknownIfsc: onOrOff(env, 'SATYAPAN_REFUSE_UNKNOWN_IFSC'),
    rateLimits,
    ...(rowConcurrency ? { rowConcurrency } : {}),
    ...(chunkSize ? { chunkSize } : {}),
  };
}
