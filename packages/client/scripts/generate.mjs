#!/usr/bin/env node
// Refreshes the client from a running API: saves its OpenAPI document (without `servers`, which name the host it
// ran on) as openapi.json, then generates src/schema.ts with openapi-typescript. openapi-typescript needs
// TypeScript 5's compiler API, which the repository's TypeScript 7 lacks, so npx runs both at pinned versions.
// Usage: npm start (in another terminal), then `npm run generate -w @satyapan/client [-- <openapi url>]`.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const url = process.argv[2] ?? 'http://127.0.0.1:3000/api/openapi.json';
const response = await fetch(url);
if (!response.ok) throw new Error(`${url} answered ${response.status}`);
const document = await response.json();
delete document.servers;
const text = `${JSON.stringify(document, null, 2)}\n`;
writeFileSync(`${root}/openapi.json`, text);
execFileSync('npx', ['--yes', '-p', 'openapi-typescript@7.13.0', '-p', 'typescript@5.9.3',
  'openapi-typescript', 'openapi.json', '-o', 'src/schema.ts'], { cwd: root, stdio: 'inherit' });
const digest = createHash('sha256').update(text).digest('hex');
const schema = readFileSync(`${root}/src/schema.ts`, 'utf8');
writeFileSync(`${root}/src/schema.ts`, `// Generated from openapi.json sha256:${digest}\n${schema}`);
