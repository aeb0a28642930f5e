#!/usr/bin/env node
// The `satyapan-admin` executable: everything but process I/O and the connection lives in admin-cli.ts.
import { createRedisConnection, type RedisConnection } from '@satyapan/core';
import { UsageError, runAdmin } from './admin-cli.js';

let connection: RedisConnection | undefined;
runAdmin(process.argv.slice(2), () => (connection = createRedisConnection({ flavour: 'producer', connectionName: 'satyapan-admin' })))
  .then(
    (output) => process.stdout.write(output),
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = error instanceof UsageError ? 2 : 1;
    },
  )
  .finally(() => connection?.disconnect());
