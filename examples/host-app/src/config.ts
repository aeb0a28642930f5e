import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';

/** Everything the demo reads from the environment, with the embedded defaults of ARCHITECTURE.md. */
export interface HostConfig {
  port: number;
  host: string;
  redisUrl: string;
  dataDir: string;
  demoKey: string;
  demoSecret: string;
  tokenSecret: string;
  storageSecret: string;
  sealingKey: string;
  publicUrl: string | undefined;
}

function random(prefix: string, bytes = 18): string {
  return `${prefix}${randomBytes(bytes).toString('base64url')}`;
}

export function readConfig(env: NodeJS.ProcessEnv = process.env): HostConfig {
  const port = Number(env['PORT'] ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new Error(`PORT must be a port number, got ${env['PORT']}`);
  return {
    port,
    host: env['HOST'] ?? '127.0.0.1',
    redisUrl: env['REDIS_URL'] ?? 'redis://127.0.0.1:6379',
    dataDir: resolve(env['SATYAPAN_DATA_DIR'] ?? '.data'),
    demoKey: env['SATYAPAN_DEMO_KEY'] ?? random('key_demo_'),
    demoSecret: env['SATYAPAN_DEMO_SECRET'] ?? random('secret_demo_'),
    // Random per start unless given: tokens and signed URLs of a previous run stop working on restart.
    tokenSecret: env['SATYAPAN_TOKEN_SECRET'] ?? random('', 32),
    storageSecret: env['SATYAPAN_STORAGE_SECRET'] ?? random('', 32),
    sealingKey: env['SATYAPAN_SEALING_KEY'] ?? randomBytes(32).toString('base64'),
    publicUrl: env['SATYAPAN_PUBLIC_URL'],
  };
}
