import { createHash, randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { parseClusterNodes } from '@satyapan/core';

/** Everything the demo reads from the environment, with the embedded defaults of docs/ARCHITECTURE.md. */
export interface HostConfig {
  port: number;
  host: string;
  redisUrl: string;
  /** Seed nodes of a Redis Cluster (`REDIS_CLUSTER_NODES=host:port,...`); when set, `redisUrl` is not used. */
  redisClusterNodes: string[] | undefined;
  dataDir: string;
  demoKey: string;
  demoSecret: string;
  tokenSecret: string;
  storageSecret: string;
  sealingKey: string;
  publicUrl: string | undefined;
  /** Run the statement worker in this process (`SATYAPAN_WORKER`, default on); off leaves it to examples/worker. */
  workerInProcess: boolean;
  /** Conversions at once in the in-process worker (`SATYAPAN_WORKER_CONCURRENCY`, as examples/worker reads it); default 1. */
  workerConcurrency: number;
  /** Form 16 generation limits of the in-process worker (`SATYAPAN_FORM16_TIMEOUT_MS`, `SATYAPAN_FORM16_MEMORY_MB`, as examples/worker reads them); unset, the worker's defaults. */
  form16Limits: { timeoutMs?: number; memoryMb?: number };
  /**
   * Prefix of every Redis key (`SATYAPAN_KEY_PREFIX`; default `satyapan-<8 hex digits of the data dir's path hash>`):
   * demos with different data dirs on one Redis share nothing, credential lockouts included; give the same
   * prefix to demos that are routers of one deployment.
   */
  keyPrefix: string;
  /** Basic-auth account of the queue dashboard at /admin/queues (`SATYAPAN_ADMIN_USER`, default `admin`). */
  adminUser: string;
  /** Its password (`SATYAPAN_ADMIN_PASSWORD`); generated per start when unset, and then printed in the banner. */
  adminPassword: string;
  adminPasswordGenerated: boolean;
  /**
   * Storage on S3 or an S3-compatible store (`SATYAPAN_S3_BUCKET`, `SATYAPAN_S3_PREFIX`, `SATYAPAN_S3_ENDPOINT`,
   * `AWS_REGION`; credentials from the usual AWS variables), as examples/worker reads it; FsStorage under the data
   * dir when unset. Several demos on one Redis and one bucket are N routers of one deployment.
   */
  s3: DemoS3Config | undefined;
  /** The demo client's webhook (`SATYAPAN_DEMO_WEBHOOK_URL`): statement jobs that end are POSTed there. */
  demoWebhookUrl: string | undefined;
  /** Its signing secret (`SATYAPAN_DEMO_WEBHOOK_SECRET`); generated per start and printed when unset. */
  demoWebhookSecret: string | undefined;
  demoWebhookSecretGenerated: boolean;
  /** The demo client's requests per minute (`SATYAPAN_DEMO_RATE_LIMIT`); the router's default (100) when unset. */
  demoRateLimit: number | undefined;
}

export interface DemoS3Config {
  bucket: string;
  keyPrefix: string | undefined;
  endpoint: string | undefined;
  region: string;
}

function random(prefix: string, bytes = 18): string {
  return `${prefix}${randomBytes(bytes).toString('base64url')}`;
}

/**
 * Reads and checks the environment: each problem is one line naming the variable (main.ts prints it and
 * exits 1). Unset means the embedded default; set but empty is a mistake, not a request for the default.
 */
export function readConfig(env: NodeJS.ProcessEnv = process.env): HostConfig {
  const port = Number(env['PORT'] ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new Error(`PORT must be a port number, got ${env['PORT']}`);
  const value = (name: string, fallback: () => string): string => {
    const given = env[name];
    if (given === undefined) return fallback();
    if (given.trim() === '') throw new Error(`${name} is set but empty: give a value or unset it`);
    return given;
  };
  const tokenSecret = value('SATYAPAN_TOKEN_SECRET', () => random('', 32));
  if (Buffer.byteLength(tokenSecret) < 32) throw new Error('SATYAPAN_TOKEN_SECRET must be at least 32 bytes');
  const adminUser = value('SATYAPAN_ADMIN_USER', () => 'admin');
  const dataDir = resolve(value('SATYAPAN_DATA_DIR', () => '.data'));
  const optional = (name: string): string | undefined => (env[name] === undefined ? undefined : value(name, () => ''));
  const demoWebhookUrl = optional('SATYAPAN_DEMO_WEBHOOK_URL');
  if (demoWebhookUrl !== undefined && !/^https?:$/.test(urlOrNull(demoWebhookUrl)?.protocol ?? '')) {
    throw new Error('SATYAPAN_DEMO_WEBHOOK_URL must be an http:// or https:// URL');
  }
  const demoWebhookSecret = optional('SATYAPAN_DEMO_WEBHOOK_SECRET');
  const bucket = optional('SATYAPAN_S3_BUCKET');
  // A colon cannot be part of a basic-auth user name (RFC 7617): the first colon ends it.
  if (adminUser.includes(':')) throw new Error('SATYAPAN_ADMIN_USER must not contain a colon');
  return {
    port,
    host: value('HOST', () => '127.0.0.1'),
    redisUrl: checkedRedisUrl(value('REDIS_URL', () => 'redis://127.0.0.1:6379')),
    redisClusterNodes: env['REDIS_CLUSTER_NODES'] === undefined ? undefined : parseClusterNodes(value('REDIS_CLUSTER_NODES', () => '')),
    dataDir,
    demoKey: value('SATYAPAN_DEMO_KEY', () => random('key_demo_')),
    demoSecret: value('SATYAPAN_DEMO_SECRET', () => random('secret_demo_')),
    // Random per start unless given: tokens and signed URLs of a previous run stop working on restart.
    tokenSecret,
    storageSecret: value('SATYAPAN_STORAGE_SECRET', () => random('', 32)),
    sealingKey: value('SATYAPAN_SEALING_KEY', () => randomBytes(32).toString('base64')),
    publicUrl: env['SATYAPAN_PUBLIC_URL'] === undefined ? undefined : value('SATYAPAN_PUBLIC_URL', () => ''),
    workerInProcess: onOff(value('SATYAPAN_WORKER', () => 'on')),
    keyPrefix: value('SATYAPAN_KEY_PREFIX', () => dataDirKeyPrefix(dataDir)),
    adminUser,
    adminPassword: value('SATYAPAN_ADMIN_PASSWORD', () => random('', 18)),
    adminPasswordGenerated: env['SATYAPAN_ADMIN_PASSWORD'] === undefined,
    s3: bucket === undefined ? undefined : {
      bucket,
      keyPrefix: optional('SATYAPAN_S3_PREFIX'),
      endpoint: optional('SATYAPAN_S3_ENDPOINT'),
      region: value('AWS_REGION', () => 'us-east-1'),
    },
    demoWebhookUrl,
    // A secret only means something with a URL to sign for.
    demoWebhookSecret: demoWebhookUrl === undefined ? undefined : demoWebhookSecret ?? `whsec_${randomBytes(24).toString('base64')}`,
    demoWebhookSecretGenerated: demoWebhookUrl !== undefined && demoWebhookSecret === undefined,
    demoRateLimit: positiveInteger(optional('SATYAPAN_DEMO_RATE_LIMIT'), 'SATYAPAN_DEMO_RATE_LIMIT'),
    workerConcurrency: positiveInteger(optional('SATYAPAN_WORKER_CONCURRENCY'), 'SATYAPAN_WORKER_CONCURRENCY') ?? 1,
    form16Limits: limitPair(positiveInteger(optional('SATYAPAN_FORM16_TIMEOUT_MS'), 'SATYAPAN_FORM16_TIMEOUT_MS'), positiveInteger(optional('SATYAPAN_FORM16_MEMORY_MB'), 'SATYAPAN_FORM16_MEMORY_MB')),
  };
}

/**
 * The demo's default Redis key prefix: its own per data dir (the folder's absolute path, hashed), so that two
 * demos on one Redis share no counters (a credential lockout another demo's failures ran up), tokens or jobs, and
 * a restart with the same folder finds its own keys again.
 */
export function dataDirKeyPrefix(dataDir: string): string {
  return `satyapan-${createHash('sha256').update(resolve(dataDir)).digest('hex').slice(0, 8)}`;
}

function limitPair(timeoutMs: number | undefined, memoryMb: number | undefined): { timeoutMs?: number; memoryMb?: number } {
  return { ...(timeoutMs ? { timeoutMs } : {}), ...(memoryMb ? { memoryMb } : {}) };
}

function positiveInteger(text: string | undefined, name: string): number | undefined {
  if (text === undefined) return undefined;
  const number = Number(text);
  if (!Number.isInteger(number) || number <= 0) throw new Error(`${name} must be a positive integer, got ${text}`);
  return number;
}

function urlOrNull(text: string): URL | null {
  try {
    return new URL(text);
  } catch {
    return null;
  }
}

function onOff(text: string): boolean {
  if (text === 'on') return true;
  if (text === 'off') return false;
  throw new Error(`SATYAPAN_WORKER must be on or off, got ${text}`);
}

/** `redis://` or `rediss://` with a host: `127.0.0.1:6379` alone would otherwise read as a URL of scheme "127.0.0.1". */
function checkedRedisUrl(url: string): string {
  let parsed: URL | null = null;
  try {
    parsed = new URL(url);
  } catch {
    parsed = null;
  }
  if (!parsed || (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') || !parsed.hostname) {
    // The value itself is not echoed: it may carry a password.
    throw new Error('REDIS_URL is malformed: expected redis://host:port or rediss://host:port (with a scheme)');
  }
  return url;
}
