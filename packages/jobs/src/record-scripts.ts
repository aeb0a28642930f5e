import { LuaScript, type JobStatus } from '@satyapan/core';

/**
 * The two writes every job record takes, as Lua on one Cluster slot. Records are Redis hashes of any family's
 * fields; a family that keeps status indexes (sorted sets of its jobs by status, score created_at) names them.
 */

/** KEYS[1] the record, KEYS[2..] sorted sets to list it in. ARGV: score, member, then field/value pairs. Refuses to overwrite. */
export const CREATE_RECORD = new LuaScript(`
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], unpack(ARGV, 3))
for i = 2, #KEYS do redis.call('ZADD', KEYS[i], ARGV[1], ARGV[2]) end
return 1
`);

/**
 * KEYS[1] the record, KEYS[2..] the status indexes in ARGV[5]'s order (none for a family without them).
 * ARGV: job id, new status, now, allowed sources (comma list), status order (comma list), field/value pairs.
 * Answers {'ok', previous}, {'missing', ''} or {'illegal', current}.
 */
export const TRANSITION_RECORD = new LuaScript(`
local current = redis.call('HGET', KEYS[1], 'status')
if not current then return {'missing', ''} end
local allowed = false
for from in string.gmatch(ARGV[4], '[^,]+') do
  if from == current then allowed = true end
end
if not allowed then return {'illegal', current} end
redis.call('HSET', KEYS[1], 'status', ARGV[2], 'updated_at', ARGV[3])
if #ARGV > 5 then redis.call('HSET', KEYS[1], unpack(ARGV, 6)) end
if ARGV[2] == 'in_progress' then redis.call('HINCRBY', KEYS[1], 'attempts', 1) end
if #KEYS > 1 then
  local slot = {}
  local i = 2
  for name in string.gmatch(ARGV[5], '[^,]+') do
    slot[name] = KEYS[i]
    i = i + 1
  end
  local created = redis.call('HGET', KEYS[1], 'created_at')
  redis.call('ZREM', slot[current], ARGV[1])
  redis.call('ZADD', slot[ARGV[2]], created, ARGV[1])
end
return {'ok', current}
`);

/** A record's fields as HSET's field/value list; a null field is left out (absent from the hash, read back as null). */
export function hashPairs(fields: Readonly<Record<string, string | number | null>>): string[] {
  return Object.entries(fields).flatMap(([name, value]) => (value === null ? [] : [name, String(value)]));
}

/** The webhook fields every family's record carries: the client's URL and its secret, sealed for the job. */
export interface WebhookFields {
  webhookUrl: string | null;
  webhookSecretSealed: string | null;
}

export function webhookHash(record: WebhookFields): { webhook_url: string | null; webhook_secret: string | null } {
  return { webhook_url: record.webhookUrl, webhook_secret: record.webhookSecretSealed };
}

export function webhookOfHash(hash: Readonly<Record<string, string>>): WebhookFields {
  return { webhookUrl: hash['webhook_url'] ?? null, webhookSecretSealed: hash['webhook_secret'] ?? null };
}

/** Each setting as given, or its default: the resolved settings a service or worker runs on. */
export function settingsFrom<K extends string>(defaults: Readonly<Record<K, number>>, given: { readonly [P in NoInfer<K>]?: number | undefined }): Record<K, number> {
  const settings = {} as Record<K, number>;
  for (const name of Object.keys(defaults) as K[]) settings[name] = given[name] ?? defaults[name];
  return settings;
}

/** What every family's job record holds, whatever the job computes (each family adds its own fields). */
export interface JobRecordBase extends WebhookFields {
  jobId: string;
  clientId: string;
  status: JobStatus;
  createdAt: number;
  updatedAt: number;
  /** Runs started (the transition to in_progress counts them). */
  attempts: number;
  /** A failed job's reason. */
  message: string | null;
}

/** The base fields by their hash names (`job_id`, `created_at`, ...), as every family has always written them. */
export function baseHash(record: JobRecordBase): Record<string, string | number | null> {
  return {
    job_id: record.jobId, client_id: record.clientId, status: record.status,
    created_at: record.createdAt, updated_at: record.updatedAt, attempts: record.attempts, message: record.message,
    ...webhookHash(record),
  };
}

/** The base fields of a record's hash; a hash without `job_id` is no record. */
export function baseOfHash(hash: Readonly<Record<string, string>>): JobRecordBase | null {
  if (!hash['job_id']) return null;
  return {
    jobId: hash['job_id'], clientId: hash['client_id'] ?? '', status: hash['status'] as JobStatus,
    createdAt: Number(hash['created_at'] ?? 0), updatedAt: Number(hash['updated_at'] ?? 0), attempts: Number(hash['attempts'] ?? 0),
    message: hash['message'] ?? null,
    ...webhookOfHash(hash),
  };
}

/**
 * A problem of a failed job's input as its poll shows it: where it is (`sheet`, `row`, `column`; `cell` for an
 * .xlsx workbook) and what it is.
 */
export interface JobProblem {
  code: string;
  message: string;
  sheet: string | null;
  row: number | null;
  column: string | null;
  cell?: string;
}
