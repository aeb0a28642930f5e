import { batched, type KeySpace, type createRedisConnection } from '@satyapan/core';
import type { ApiDocType, SessionRecord, SessionStatus } from './model.js';

/** ioredis client type, taken from core so that this package needs no direct ioredis dependency. */
export type RedisClient = ReturnType<typeof createRedisConnection>;

/**
 * Sessions as Redis hashes, one per session: `<prefix>:{<session id>}:session`. The single-use state nonce
 * lives beside it in the same hash slot: `<prefix>:{<session id>}:state:<nonce>`. Both expire with the session
 * (consent expiry plus a retention period, so that an expired session can still say it is expired).
 */
export class SessionStore {
  constructor(private readonly redis: RedisClient, private readonly keys: KeySpace) {}

  /**
   * One script writes the hash, its TTL and the state nonce, after checking the TTL: a MULTI would keep the
   * HSET when PEXPIRE fails (a TTL Redis refuses), leaving a session that never expires.
   */
  async create(record: SessionRecord, stateNonce: string | null, ttlMs: number): Promise<void> {
    if (!Number.isSafeInteger(ttlMs) || ttlMs < 1) throw new RangeError(`A session TTL must be a positive whole number of ms, got ${ttlMs}`);
    const keys = [this.sessionKey(record.id), ...(stateNonce ? [this.stateKey(record.id, stateNonce)] : [])];
    await this.redis.eval(CREATE, keys.length, ...keys, String(ttlMs), ...Object.entries(encode(record)).flat());
  }

  async get(id: string): Promise<SessionRecord | null> {
    if (!/^[0-9a-f-]{36}$/.test(id)) return null;
    const key = this.sessionKey(id);
    // Every read of a session starts here: batched, so that the reads of one event-loop turn share a write.
    // HMGET of the record's fields rather than HGETALL: the answer holds the values without the field names and
    // is read in place, where HGETALL's names doubled the strings to decode and built an object to read from.
    const values = await batched<Array<string | null>>(this.redis, key, (target) => target.hmget(key, ...FIELDS));
    return values[FIELD_INDEX.id] ? decode(values) : null;
  }

  /**
   * Moves a session from one of `from` to a new status, writing `changes` with it, atomically. Returns false
   * when the session was no longer in one of the `from` statuses (someone else moved it first).
   */
  async transition(id: string, from: readonly SessionStatus[], changes: Partial<SessionRecord> & { status: SessionStatus }): Promise<boolean> {
    const fields = Object.entries(encode(changes)).flat();
    const result = await this.redis.eval(TRANSITION, 1, this.sessionKey(id), from.join(','), ...fields);
    return result === 1;
  }

  /** Writes fields without a status check (used for refreshed tokens, where the last writer may win). */
  async update(id: string, changes: Partial<SessionRecord>): Promise<void> {
    const fields = Object.entries(encode(changes)).flat();
    if (fields.length > 0) await this.redis.eval(UPDATE_IF_EXISTS, 1, this.sessionKey(id), ...fields);
  }

  /** Arms a new single-use state for a session that already exists (SDK sessions get theirs late). */
  async addState(id: string, nonce: string): Promise<void> {
    const ttl = await this.redis.pttl(this.sessionKey(id));
    if (ttl > 0) await this.redis.set(this.stateKey(id, nonce), '1', 'PX', ttl);
  }

  /** True exactly once per state: the nonce is deleted as it is read. */
  async consumeState(id: string, nonce: string): Promise<boolean> {
    return (await this.redis.getdel(this.stateKey(id, nonce))) !== null;
  }

  private sessionKey(id: string): string {
    return this.keys.tagged(id, 'session');
  }

  private stateKey(id: string, nonce: string): string {
    return this.keys.tagged(id, 'state', nonce);
  }
}

// KEYS[1]: session hash, KEYS[2] (optional): state nonce. ARGV[1]: TTL in ms; ARGV[2..]: field/value pairs.
const CREATE = `
local ttl = tonumber(ARGV[1])
if not ttl or ttl < 1 or ttl ~= math.floor(ttl) then return redis.error_reply('ERR invalid session TTL') end
redis.call('HSET', KEYS[1], unpack(ARGV, 2))
redis.call('PEXPIRE', KEYS[1], ttl)
if KEYS[2] then redis.call('SET', KEYS[2], '1', 'PX', ttl) end
return 1`;

// ARGV[1]: comma-separated allowed current statuses; ARGV[2..]: field/value pairs to write.
const TRANSITION = `
local current = redis.call('HGET', KEYS[1], 'status')
if not current then return 0 end
for allowed in string.gmatch(ARGV[1], '[^,]+') do
  if allowed == current then
    redis.call('HSET', KEYS[1], unpack(ARGV, 2))
    return 1
  end
end
return 0`;

const UPDATE_IF_EXISTS = `
if redis.call('EXISTS', KEYS[1]) == 1 then redis.call('HSET', KEYS[1], unpack(ARGV)) end
return 0`;

type Hash = Record<string, string>;

const JSON_FIELDS = new Set<keyof SessionRecord>(['docTypes', 'options', 'documentsConsented']);

function encode(record: Partial<SessionRecord>): Hash {
  const hash: Hash = {};
  for (const [field, value] of Object.entries(record) as Array<[keyof SessionRecord, unknown]>) {
    if (value === undefined) continue;
    hash[field] = value === null ? '' : JSON_FIELDS.has(field) ? JSON.stringify(value) : String(value);
  }
  return hash;
}

/** Every field of a record, in the order `get` asks for them; the compiler checks that none is missing. */
const FIELDS = [
  'id', 'kind', 'variant', 'owner', 'status', 'flow', 'redirectUrl', 'callbackUrl', 'docTypes', 'options', 'consentExpiry',
  'createdAt', 'updatedAt', 'documentsConsented', 'sealedVerifier', 'sealedTokens', 'authorizationUrl',
] as const satisfies ReadonlyArray<keyof SessionRecord>;
const EVERY_FIELD_READ: Exclude<keyof SessionRecord, (typeof FIELDS)[number]> extends never ? true : never = true;
void EVERY_FIELD_READ;
const FIELD_INDEX = Object.fromEntries(FIELDS.map((field, i) => [field, i])) as Record<keyof SessionRecord, number>;

/** A record from HMGET's answer to {@link FIELDS}; an empty string or a missing field is null. */
function decode(values: ReadonlyArray<string | null>): SessionRecord {
  const text = (field: keyof SessionRecord): string | null => values[FIELD_INDEX[field]] || null;
  const json = <T>(field: keyof SessionRecord): T | null => {
    const value = text(field);
    return value ? (JSON.parse(value) as T) : null;
  };
  const number = (field: keyof SessionRecord): number | null => {
    const value = text(field);
    return value ? Number(value) : null;
  };
  return {
    id: text('id') as string,
    kind: text('kind') as SessionRecord['kind'],
    variant: text('variant') as SessionRecord['variant'],
    owner: text('owner') as string,
    status: text('status') as SessionStatus,
    flow: text('flow') as SessionRecord['flow'],
    redirectUrl: text('redirectUrl'),
    callbackUrl: text('callbackUrl'),
    docTypes: json<ApiDocType[]>('docTypes'),
    options: json<SessionRecord['options']>('options') ?? {},
    consentExpiry: number('consentExpiry') as number,
    createdAt: number('createdAt') as number,
    updatedAt: number('updatedAt'),
    documentsConsented: json<ApiDocType[]>('documentsConsented'),
    sealedVerifier: text('sealedVerifier'),
    sealedTokens: text('sealedTokens'),
    authorizationUrl: text('authorizationUrl'),
  };
}
