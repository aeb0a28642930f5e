// Records written before the job framework existed are read, polled, listed, dispatched and delivered by the
// framework's code (issue 25: "existing records and URLs keep working"). The fixture is every Redis key the
// statement-queue and bulk packages of commit a1b61a9 (main before @satyapan/jobs) wrote for three jobs: a failed
// statement job with a webhook, a correction job still waiting for its uploads, a succeeded bulk job. Its sealing
// key is a test key, written into the fixture with it.
import { mkdtemp, rm } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { FsStorage, ManualClock, Sealer, createRedisConnection, waitForRedis, type RedisConnection } from '@satyapan/core';
import { StatementService, ownerOf, statementWebhooks, storageKeys } from '@satyapan/statement-queue';
import { BulkService, RowCheckRegistry } from '@satyapan/bulk';
import { deleteKeysMatching } from './support/redis-cluster.js';

interface Fixture {
  sealingKey: string;
  jobs: { statementFailed: string; statementWaiting: string; bulkSucceeded: string };
  keys: Record<string, { type: 'hash'; value: Record<string, string> } | { type: 'zset'; value: string[] }>;
}

const FIXTURE = JSON.parse(readFileSync(new URL('./fixtures/job-records-a1b61a9.json', import.meta.url), 'utf8')) as Fixture;
const CLIENT = 'compat-client';
/** When the fixture's jobs were written (its records' created_at). */
const WRITTEN_AT = Date.UTC(2026, 10, 20, 6, 0, 0);

async function restore(redis: RedisConnection, prefix: string): Promise<void> {
  for (const [name, entry] of Object.entries(FIXTURE.keys)) {
    const key = name.replace('{prefix}', prefix);
    if (entry.type === 'hash') await redis.hset(key, entry.value);
    else for (let i = 0; i < entry.value.length; i += 2) await redis.zadd(key, entry.value[i + 1] as string, entry.value[i] as string);
  }
}

describe('job records written before the job framework', function () {
  this.timeout(20_000);
  const prefix = `test:compat:${randomUUID()}`;
  let redis: RedisConnection;
  let dataDir: string;
  let statements: StatementService;
  let bulk: BulkService;

  before(async () => {
    redis = createRedisConnection({ flavour: 'producer', connectionName: 'compat-test' });
    await waitForRedis(redis);
    await restore(redis, prefix);
    dataDir = await mkdtemp(join(tmpdir(), 'satyapan-compat-'));
    const clock = new ManualClock(WRITTEN_AT + 60_000);
    const storage = new FsStorage({ root: dataDir, signingSecret: 'compat', clock, publicBaseUrl: 'http://127.0.0.1:9/storage' });
    const sealer = new Sealer([{ id: 'k1', key: FIXTURE.sealingKey }]);
    statements = new StatementService({ redis, storage, sealer, keyPrefix: prefix, clock });
    bulk = new BulkService({ redis, storage, sealer, keyPrefix: prefix, clock, registry: new RowCheckRegistry([]) });
  });

  after(async () => {
    await statements?.close();
    await bulk?.close();
    await deleteKeysMatching(redis, `${prefix}*`);
    redis.disconnect();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('polls and lists a statement job as before: its state, message, error details and search indexes', async () => {
    const job = await statements.getJob('tds', CLIENT, FIXTURE.jobs.statementFailed);
    expect(job).to.include({ job_id: FIXTURE.jobs.statementFailed, status: 'failed', message: 'Validation error', tan: 'AHMA09719D', quarter: 'Q3' });
    expect(JSON.stringify(job)).to.include('TAN_MISMATCH');
    const failed = await statements.searchJobs('tds', CLIENT, { status: 'failed' });
    expect(failed.items.map((item) => item.job_id)).to.deep.equal([FIXTURE.jobs.statementFailed]);
  });

  it('dispatches a correction job submitted before: once both files are in, it is queued and its indexes move', async () => {
    const ref = { owner: ownerOf(CLIENT), jobId: FIXTURE.jobs.statementWaiting };
    await statements.handleObjectCreated(storageKeys.upload(ref));
    expect((await statements.getJob('tds', CLIENT, ref.jobId)).status).to.equal('created');
    const storage = (statements as unknown as { options: { storage: FsStorage } }).options.storage;
    await storage.put(storageKeys.upload(ref), '{}');
    await storage.put(storageKeys.consoUpload(ref), 'conso');
    await statements.handleObjectCreated(storageKeys.consoUpload(ref));
    expect((await statements.getJob('tds', CLIENT, ref.jobId)).status).to.equal('queued');
    const queued = await statements.searchJobs('tds', CLIENT, { status: 'queued' });
    expect(queued.items.map((item) => item.job_id)).to.deep.equal([ref.jobId]);
    expect((await statements.queue.getJob(ref.jobId))?.data).to.deep.equal({ ...ref, domain: 'tds' });
  });

  it('opens the webhook secret the old code sealed, through the framework\'s webhook source', async () => {
    const storage = (statements as unknown as { options: { storage: FsStorage } }).options.storage;
    const target = await statementWebhooks(statements.store, storage, 3600).target({ owner: ownerOf(CLIENT), jobId: FIXTURE.jobs.statementFailed });
    expect(target?.url).to.equal('https://hooks.example.in/satyapan');
    const sealer = new Sealer([{ id: 'k1', key: FIXTURE.sealingKey }]);
    expect(sealer.unsealText(target!.secretSealed as string, target!.secretContext)).to.equal('whsec_compat');
    expect(await target!.body()).to.include({ job_id: FIXTURE.jobs.statementFailed, status: 'failed' });
  });

  it('polls and lists a bulk job as before; a record without webhook fields has no webhook', async () => {
    const job = await bulk.get(CLIENT, FIXTURE.jobs.bulkSucceeded);
    expect(job).to.include({ status: 'succeeded', kind: 'ifsc', rows_total: 3, rows_done: 3 });
    expect(job.summary).to.deep.equal({ ok: 2, invalid: 1, error: 0, interrupted: 0 });
    expect(job.result_url).to.match(/result\.csv\?/);
    const page = await bulk.list(CLIENT);
    expect(page.items.map((item) => item.job_id)).to.deep.equal([FIXTURE.jobs.bulkSucceeded]);
    const record = await bulk.store.get({ owner: (await import('@satyapan/bulk')).bulkOwnerOf(CLIENT), jobId: FIXTURE.jobs.bulkSucceeded });
    expect(record).to.include({ webhookUrl: null, webhookSecretSealed: null });
  });
});
