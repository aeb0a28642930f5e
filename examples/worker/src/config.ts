import { FsStorage, Sealer, parseClusterNodes, type ObjectStorage, type SealingKey } from '@satyapan/core';
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
  logLevel: string;
  /** Port of /metrics and /health/* (`SATYAPAN_METRICS_PORT`); none is served when unset. */
  metricsPort?: number;
  /** Address it listens on (`SATYAPAN_METRICS_HOST`, default 127.0.0.1; 0.0.0.0 for a scraper on another host). */
  metricsHost: string;
}

function required(env: NodeJS.ProcessEnv, name: string): string {
  const value = env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
}

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
    root: required(env, 'SATYAPAN_DATA_DIR'),
    signingSecret: required(env, 'SATYAPAN_STORAGE_SECRET'),
    publicBaseUrl: required(env, 'SATYAPAN_STORAGE_URL'),
  });
}

export function readConfig(env: NodeJS.ProcessEnv = process.env): WorkerConfig {
  const lockDurationMs = positiveInteger(env, 'SATYAPAN_LOCK_DURATION_MS');
  const stalledIntervalMs = positiveInteger(env, 'SATYAPAN_STALLED_INTERVAL_MS');
  const sweepIntervalMs = positiveInteger(env, 'SATYAPAN_SWEEP_INTERVAL_MS');
  const metricsPort = positiveInteger(env, 'SATYAPAN_METRICS_PORT');
  const maxUploadBytes = positiveInteger(env, 'SATYAPAN_MAX_UPLOAD_BYTES');
  if (metricsPort !== undefined && metricsPort > 65_535) throw new Error(`SATYAPAN_METRICS_PORT must be a port number, got ${metricsPort}`);
  const redisClusterNodes = parseClusterNodes(env['REDIS_CLUSTER_NODES']);
  return {
    redisUrl: env['REDIS_URL'] ?? 'redis://127.0.0.1:6379',
    ...(redisClusterNodes ? { redisClusterNodes } : {}),
    keyPrefix: env['SATYAPAN_KEY_PREFIX'] ?? 'satyapan',
    concurrency: positiveInteger(env, 'SATYAPAN_WORKER_CONCURRENCY') ?? 1,
    // `id:base64key` entries separated by commas; the first one seals.
    sealingKeys: required(env, 'SATYAPAN_SEALING_KEYS').split(',').map((entry) => {
      const [id, key] = entry.split(':');
      if (!id || !key) throw new Error('SATYAPAN_SEALING_KEYS entries are id:base64key');
      return { id, key };
    }),
    storage: storageFrom(env),
    ...(lockDurationMs ? { lockDurationMs } : {}),
    ...(stalledIntervalMs ? { stalledIntervalMs } : {}),
    ...(sweepIntervalMs ? { sweepIntervalMs } : {}),
    ...(maxUploadBytes ? { maxUploadBytes } : {}),
    shutdownTimeoutMs: positiveInteger(env, 'SATYAPAN_SHUTDOWN_TIMEOUT_MS') ?? 30_000,
    webhookAllowList: (env['SATYAPAN_WEBHOOK_ALLOW'] ?? '').split(',').filter(Boolean),
    ...(env['SATYAPAN_TMP_DIR'] ? { tmpDir: env['SATYAPAN_TMP_DIR'] } : {}),
    logLevel: env['LOG_LEVEL'] ?? 'info',
    ...(metricsPort ? { metricsPort } : {}),
    metricsHost: env['SATYAPAN_METRICS_HOST'] || '127.0.0.1',
  };
}

export function sealerFrom(config: WorkerConfig): Sealer {
  return new Sealer(config.sealingKeys);
}
