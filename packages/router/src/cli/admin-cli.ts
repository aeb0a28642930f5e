/**
 * satyapan-admin: operator commands against the Redis a deployment's routers share.
 *
 *   satyapan-admin clear-lockout --address <ip> [--api-key <key>] [--login-scope <scope>]... [--key-prefix <prefix>]
 *
 * Redis is the one of REDIS_CLUSTER_NODES, else REDIS_URL, else redis://127.0.0.1:6379 (as the routers find it);
 * the key prefix is --key-prefix, else SATYAPAN_KEY_PREFIX, else `satyapan` (the router's default).
 */
import { parseArgs } from 'node:util';
import type { RedisConnection } from '@satyapan/core';
import { clearCredentialLockout } from '../middleware/rate-limit.js';

export const USAGE = `usage:
  satyapan-admin clear-lockout --address <ip> [--api-key <key>] [--login-scope <scope>]... [--key-prefix <prefix>]
      ends the credential lockout of a source address (429 "Too many failed credential attempts from this
      address") and, when given, of an API key and of a host's login scopes (the demo's dashboard: queue-dashboard)
  Redis: REDIS_CLUSTER_NODES, else REDIS_URL, else redis://127.0.0.1:6379; key prefix: --key-prefix, else
  SATYAPAN_KEY_PREFIX, else satyapan
`;

export class UsageError extends Error {
  override readonly name = 'UsageError';
}

const OPTIONS = {
  address: { type: 'string' },
  'api-key': { type: 'string' },
  'login-scope': { type: 'string', multiple: true },
  'key-prefix': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** Runs one command over `connection` and returns what to print; throws UsageError for a malformed command line. */
export async function runAdmin(argv: readonly string[], connection: () => RedisConnection, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true });
  } catch (error) {
    throw new UsageError(`${(error as Error).message}\n${USAGE}`);
  }
  const { values, positionals } = parsed;
  if (values.help || positionals.length === 0) return USAGE;
  if (positionals[0] !== 'clear-lockout' || positionals.length > 1) throw new UsageError(USAGE);
  const address = values.address;
  const apiKey = values['api-key'];
  if (address === undefined && apiKey === undefined) throw new UsageError(`clear-lockout needs --address or --api-key\n${USAGE}`);
  const keyPrefix = values['key-prefix'] ?? env['SATYAPAN_KEY_PREFIX'] ?? 'satyapan';
  const loginScopes = values['login-scope'] ?? [];
  const { cleared } = await clearCredentialLockout({
    connection: connection(), keyPrefix, loginScopes,
    ...(address !== undefined ? { address } : {}), ...(apiKey !== undefined ? { apiKey } : {}),
  });
  const what = [address !== undefined ? `address ${address}` : '', apiKey !== undefined ? 'the API key' : ''].filter(Boolean).join(' and ');
  return cleared === 0
    ? `${what}: no failed attempts counted under key prefix ${keyPrefix} (nothing to clear; is the prefix the routers'?)\n`
    : `${what}: cleared ${cleared} failed-attempt counter(s) under key prefix ${keyPrefix}; the lockout is over\n`;
}
