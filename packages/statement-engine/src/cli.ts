#!/usr/bin/env node
// The satyapan-statement command (package.json "bin").

import { run } from './cli/main.js';

process.exitCode = await run(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr });
