import { KeySpace, constantTimeEqual, sha256Hex, type ClientRecord, type RedisConnection } from '@satyapan/core';
import { PRODUCTS, type Product } from './products.js';

// A caller of the API as configured by the operator (`ClientRecord`, in core because area handlers see it):
// the secret itself is never kept, only its SHA-256.
export type { ClientRecord };

/** How operators write clients in configuration: the plain secret is hashed on load. */
export interface ClientConfig {
  id?: string;
  apiKey: string;
  apiSecret: string;
  products?: readonly Product[];
  rateLimitPerMinute?: number;
  webhookUrl?: string;
  webhookSecret?: string;
}

export interface ClientStore {
  findByApiKey(apiKey: string): Promise<ClientRecord | null>;
}

/** `position`: the client's place in the configured list, to name it in an error when it has no id. */
export function clientFromConfig(config: ClientConfig, position?: number): ClientRecord {
  const label = config.id ?? (position === undefined ? 'without id' : `#${position + 1}`);
  for (const field of ['apiKey', 'apiSecret'] as const) {
    if (typeof config[field] !== 'string' || config[field] === '') throw new Error(`Client ${label}: ${field} is missing or empty`);
  }
  const products = config.products ?? PRODUCTS;
  for (const product of products) {
    if (!(PRODUCTS as readonly string[]).includes(product)) throw new Error(`Unknown product for client: ${product}`);
  }
  return {
    id: config.id ?? `client_${sha256Hex(config.apiKey).slice(0, 16)}`,
    apiKey: config.apiKey,
    secretSha256: sha256Hex(config.apiSecret),
    products,
    ...(config.rateLimitPerMinute !== undefined ? { rateLimitPerMinute: config.rateLimitPerMinute } : {}),
    ...(config.webhookUrl !== undefined ? { webhookUrl: config.webhookUrl } : {}),
    ...(config.webhookSecret !== undefined ? { webhookSecret: config.webhookSecret } : {}),
  };
}

/** True when `secret` is the client's; constant time whatever the input. */
export function secretMatches(client: ClientRecord, secret: string): boolean {
  return constantTimeEqual(sha256Hex(secret), client.secretSha256);
}

/**
 * Clients given in configuration. Looked up by the SHA-256 of the key, so the lookup's timing says nothing
 * about the key's bytes. Finding a record under the presented key's digest is the comparison: it is what
 * `constantTimeEqual` would check (equal SHA-256 digests), so the key is hashed once per request, not three
 * times.
 */
export class StaticClientStore implements ClientStore {
  private readonly byKeyHash = new Map<string, ClientRecord>();

  constructor(clients: ReadonlyArray<ClientConfig | ClientRecord>) {
    for (const [position, client] of clients.entries()) {
      const record = 'secretSha256' in client ? client : clientFromConfig(client, position);
      this.byKeyHash.set(sha256Hex(record.apiKey), record);
    }
  }

  async findByApiKey(apiKey: string): Promise<ClientRecord | null> {
    return this.byKeyHash.get(sha256Hex(apiKey)) ?? null;
  }
}

/** Clients kept in Redis (one JSON value per key hash), for operators who add clients without a restart. */
export class RedisClientStore implements ClientStore {
  constructor(private readonly redis: RedisConnection, private readonly keys: KeySpace = new KeySpace()) {}

  async save(client: ClientConfig | ClientRecord): Promise<ClientRecord> {
    const record = 'secretSha256' in client ? client : clientFromConfig(client);
    await this.redis.set(this.keyOf(record.apiKey), JSON.stringify(record));
    return record;
  }

  async remove(apiKey: string): Promise<void> {
    await this.redis.del(this.keyOf(apiKey));
  }

  async findByApiKey(apiKey: string): Promise<ClientRecord | null> {
    const raw = await this.redis.get(this.keyOf(apiKey));
    if (!raw) return null;
    const record = JSON.parse(raw) as ClientRecord;
    return constantTimeEqual(record.apiKey, apiKey) ? record : null;
  }

  private keyOf(apiKey: string): string {
    return this.keys.plain('client', sha256Hex(apiKey));
  }
}

/** Looks in each store in turn: configuration first, then Redis. */
export class ChainedClientStore implements ClientStore {
  constructor(private readonly stores: readonly ClientStore[]) {}

  async findByApiKey(apiKey: string): Promise<ClientRecord | null> {
    for (const store of this.stores) {
      const found = await store.findByApiKey(apiKey);
      if (found) return found;
    }
    return null;
  }
}
