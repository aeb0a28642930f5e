#!/usr/bin/env node
// The `satyapan-ifsc` executable: everything but process I/O lives in ifsc-cli.ts, which tests call directly.
import { UsageError, runCli } from './ifsc-cli.js';

runCli(process.argv.slice(2)).then(
  (output) => process.stdout.write(output),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = error instanceof UsageError ? 2 : 1;
  },
);
