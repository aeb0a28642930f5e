import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { createRedisConnection, waitForRedis, type Clock } from '@satyapan/core';
import { convert } from '@satyapan/statement-engine';
import { JOB_STATUSES, SCRATCH_ROOT, StatementService, ownerOf, type StatementJobView } from '@satyapan/statement-queue';
import type { ClientConfig } from '@satyapan/router';
import { eventually, startStatementsHost, type StatementsHost, type WorkerProcess } from './statements-support/host.js';
import { startRedisProxy, type RedisProxy } from './statements-support/redis-proxy.js';
import { workbook26Q } from './statements-support/workbooks.js';
import { keysMatching } from './support/redis-cluster.js';

const CLIENT: ClientConfig = { id: 'fault-client', apiKey: 'key_test_fault', apiSecret: 'secret_fault' };
const TDS_BODY = { '@entity': 'in.co.service.tds.reports.request', tan: 'PNEG01234C', form: '26Q', quarter: 'Q2', financial_year: 'FY 2025-26' };

/** A statements host whose service reaches Redis through a TCP proxy the test can cut or hold. */
async function startHostBehindProxy(service: { watchUploads?: boolean } = {}): Promise<{ proxy: RedisProxy; serviceRedis: Redis; host: StatementsHost; stop(): Promise<void> }> {
  const proxy = await startRedisProxy();
  const serviceRedis: Redis = createRedisConnection({ url: proxy.url, flavour: 'producer', connectionName: 'statements-through-proxy' });
  serviceRedis.on('error', () => undefined);
  await waitForRedis(serviceRedis);
  const host = await startStatementsHost({ clients: [CLIENT], serviceRedis, service });
  return {
    proxy,
    serviceRedis,
    host,
    async stop() {
      await host.close();
      serviceRedis.disconnect();
      await proxy.close();
    },
  };
}

describe('statement jobs under faults', function () {
  this.timeout(120_000);

  describe('a worker process killed with SIGKILL in the middle of a conversion', () => {
    let host: StatementsHost;
    /** Big enough that converting it takes a while, so the kill lands mid-conversion. */
    let workbook: ReturnType<typeof workbook26Q>;
    let workbookJson: string;
    /** The worker processes a test spawned: killed after it, so that one a failed test left takes no job of the next. */
    const spawned: WorkerProcess[] = [];
    const spawnWorker = (env: NodeJS.ProcessEnv): WorkerProcess => {
      const worker = host.spawnWorker(env);
      spawned.push(worker);
      return worker;
    };
    // The tests' seconds of synchronous work (making the workbook, converting it for the TXT expected) are done
    // where no request follows at once on a kept-alive connection to the host, which is in this process: on a loaded
    // machine they outlast the server's keep-alive timeout, whose timer then fires only as the next request is sent,
    // and the server closes the connection under it (fetch failed, ECONNRESET).
    before(async () => {
      workbook = workbook26Q({ rows: 120_000 });
      workbookJson = JSON.stringify(workbook);
      host = await startStatementsHost({ clients: [CLIENT] });
    });
    afterEach(async () => {
      for (const worker of spawned.splice(0)) await worker.kill('SIGKILL');
    });
    after(() => host.close());

    it('ends succeeded once a new worker starts, with exactly one TXT', async () => {
      // Short locks so the dead worker's job is found stalled within seconds, not the default 30 s.
      const env = { SATYAPAN_LOCK_DURATION_MS: '2000', SATYAPAN_STALLED_INTERVAL_MS: '1000', SATYAPAN_SWEEP_INTERVAL_MS: '500' };
      const first = spawnWorker(env);
      await first.ready();
      const submitted = await host.call(CLIENT, 'POST', '/tds/reports/txt', TDS_BODY);
      const job = submitted.body.data as StatementJobView;
      expect((await fetch(job.json_url as string, { method: 'PUT', body: workbookJson })).status).to.equal(200);
      const poll = async (): Promise<StatementJobView> => (await host.call(CLIENT, 'GET', `/tds/reports/txt?job_id=${job.job_id}`)).body.data as StatementJobView;
      await eventually(async () => (await poll()).status === 'in_progress', 30_000, 10);
      // Killed once the conversion has its scratch folder (the TXT and the engine's spill files go there; on
      // FsStorage the workbook is read in place).
      const scratchRoot = join(host.scratchDir, SCRATCH_ROOT);
      const jobScratch = async (): Promise<string[]> => {
        const owners = await readdir(scratchRoot).catch(() => [] as string[]);
        return owners.filter((owner) => existsSync(join(scratchRoot, owner, job.job_id)));
      };
      await eventually(async () => (await jobScratch()).length > 0, 30_000, 10);
      await first.kill('SIGKILL');
      expect((await poll()).status, 'the kill came after the conversion finished; use a bigger workbook').to.equal('in_progress');
      expect(await jobScratch(), 'the killed worker left its scratch behind').to.have.length(1);

      const second = spawnWorker(env);
      await second.ready();
      const done = await eventually(async () => {
        const current = await poll();
        return current.status === 'succeeded' || current.status === 'failed' ? current : null;
      }, 60_000, 100);
      expect(done.status).to.equal('succeeded');
      const folder = join(host.dataDir, 'statements', ownerOf(CLIENT.id as string), job.job_id);
      expect((await readdir(folder)).filter((name) => name.endsWith('.txt'))).to.deep.equal(['statement.txt']);
      const txt = await (await fetch(done.txt_url as string)).text();
      const expected = convert(workbook, { form: '26Q', quarter: 'Q2', financialYear: 'FY 2025-26', tan: 'PNEG01234C', now: () => new Date(job.created_at) });
      expect(txt).to.equal(expected.txt);
      expect((await host.service.store.get({ owner: ownerOf(CLIENT.id as string), jobId: job.job_id }))?.attempts).to.equal(2);
      // The run that finished the job removed its predecessor's scratch, and then its own.
      expect(await jobScratch()).to.deep.equal([]);
      await second.kill('SIGTERM');
    });

    it('ends failed (Processing error) when its workers keep dying past the stall limit', async () => {
      const first = spawnWorker({ SATYAPAN_LOCK_DURATION_MS: '2000', SATYAPAN_STALLED_INTERVAL_MS: '1000' });
      await first.ready();
      const submitted = await host.call(CLIENT, 'POST', '/tds/reports/txt', TDS_BODY);
      const job = submitted.body.data as StatementJobView;
      await fetch(job.json_url as string, { method: 'PUT', body: workbookJson });
      const poll = async (): Promise<StatementJobView> => (await host.call(CLIENT, 'GET', `/tds/reports/txt?job_id=${job.job_id}`)).body.data as StatementJobView;
      await eventually(async () => (await poll()).status === 'in_progress', 30_000, 10);
      await first.kill('SIGKILL');
      expect((await poll()).status).to.equal('in_progress');
      // This worker allows no stall at all: BullMQ fails the job itself, without running it again.
      await host.startWorker({ maxStalledCount: 0, stalledIntervalMs: 500, lockDurationMs: 2_000, webhooks: false });
      const done = await eventually(async () => {
        const current = await poll();
        return current.status === 'failed' || current.status === 'succeeded' ? current : null;
      }, 30_000, 100);
      expect(done).to.include({ status: 'failed', message: 'Processing error' });
      expect((await fetch(done.validation_report_url as string)).status).to.equal(200);
    });
  });

  describe('Redis connection dropped during submit', () => {
    let proxy: RedisProxy;
    let serviceRedis: Redis;
    let host: StatementsHost;
    let stop: () => Promise<void>;
    before(async () => {
      ({ proxy, serviceRedis, host, stop } = await startHostBehindProxy());
    });
    after(() => stop());

    async function recordKeys(): Promise<string[]> {
      return keysMatching(host.redis, `${host.keyPrefix}:statements:{${ownerOf(CLIENT.id as string)}}:job:*`);
    }

    it('answers 503 in the envelope and writes no job when the connection drops before the record is written', async () => {
      const cut = proxy.cutAt('evalsha');
      const res = await host.call(CLIENT, 'POST', '/tds/reports/txt', TDS_BODY);
      await cut;
      expect(res.status).to.equal(503);
      expect(res.body).to.include({ code: 503, message: 'Service Unavailable' });
      expect(res.body.transaction_id).to.be.a('string');
      expect(await recordKeys()).to.deep.equal([]);
      const indexes = await keysMatching(host.redis, `${host.keyPrefix}:statements:{${ownerOf(CLIENT.id as string)}}:idx:*`);
      expect(indexes).to.deep.equal([]);

      proxy.restore();
      await waitForRedis(serviceRedis, 10_000);
      // What the interrupted submit left behind is only a pending entry without a record.
      const pending = await host.redis.zrange(host.service.keys.pending, 0, '-1');
      expect(pending).to.have.length(1);
      // Even after the connection is back, the interrupted write is not replayed.
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(await recordKeys()).to.deep.equal([]);
      // A sweep keeps the entry while it could belong to a submit still writing its record...
      await host.service.sweepPending();
      expect(await host.redis.zcard(host.service.keys.pending)).to.equal(1);
      // ...and drops it once it is far too old for that.
      const aMinuteLater = sweepingService(host, { now: () => Date.now() + 61_000 });
      try {
        await aMinuteLater.sweepPending();
      } finally {
        await aMinuteLater.close();
      }
      expect(await host.redis.zcard(host.service.keys.pending)).to.equal(0);
      const search = await host.call(CLIENT, 'POST', '/tds/reports/txt/search', { '@entity': 'in.co.service.tds.reports.jobs.search' });
      expect(search.body.data.items).to.deep.equal([]);
      const again = await host.call(CLIENT, 'POST', '/tds/reports/txt', TDS_BODY);
      expect(again.status).to.equal(200);
    });

    it('leaves a complete job or none when the reply to the write is what gets lost', async () => {
      const before = new Set(await recordKeys());
      const cut = proxy.cutAt('evalsha', { forwardFirst: true });
      const res = await host.call(CLIENT, 'POST', '/tds/reports/txt', TDS_BODY);
      await cut;
      expect(res.status).to.equal(503);
      proxy.restore();
      await waitForRedis(serviceRedis, 10_000);
      const added = (await recordKeys()).filter((key) => !before.has(key));
      expect(added.length).to.be.at.most(1);
      for (const key of added) {
        // The script ran whole: the record has every field and sits in every index it belongs to.
        const jobId = key.slice(key.lastIndexOf(':') + 1);
        const record = await host.redis.hgetall(key);
        expect(record).to.include({ job_id: jobId, status: 'created', tan: 'PNEG01234C', form: '26Q' });
        const owner = ownerOf(CLIENT.id as string);
        const inIndexes = await Promise.all(['all', 'tan:PNEG01234C', 'form:nonsalary', 'quarter:Q2', 'fy:2025', 'status:created']
          .map((name) => host.redis.zscore(`${host.keyPrefix}:statements:{${owner}}:idx:tds:${name}`, jobId)));
        expect(inIndexes.every((score) => score === record['created_at'])).to.equal(true);
        for (const status of JOB_STATUSES.filter((s) => s !== 'created')) {
          expect(await host.redis.zscore(`${host.keyPrefix}:statements:{${owner}}:idx:tds:status:${status}`, jobId)).to.equal(null);
        }
      }
    });
  });

  describe('a sweep that runs while a submit is still writing its record', () => {
    let proxy: RedisProxy;
    let host: StatementsHost;
    let stop: () => Promise<void>;
    before(async () => {
      // As on S3 without notifications: only the sweep notices uploads.
      ({ proxy, host, stop } = await startHostBehindProxy({ watchUploads: false }));
    });
    after(() => stop());

    it('keeps the job pending, and a later sweep queues it once its workbook is there', async () => {
      const sweeper = sweepingService(host);
      try {
        const holding = proxy.holdAt('evalsha');
        const submitting = host.call(CLIENT, 'POST', '/tds/reports/txt', TDS_BODY);
        // The submit has marked its job pending; the script that writes the record is held back.
        const { release } = await holding;
        expect(await host.redis.zcard(host.service.keys.pending)).to.equal(1);
        await sweeper.sweepPending();
        expect(await host.redis.zcard(host.service.keys.pending)).to.equal(1);
        release();
        const submitted = await submitting;
        expect(submitted.status).to.equal(200);
        const job = submitted.body.data as StatementJobView;
        expect((await fetch(job.json_url as string, { method: 'PUT', body: JSON.stringify(workbook26Q({ rows: 2 })) })).status).to.equal(200);
        await sweeper.sweepPending();
        const polled = (await host.call(CLIENT, 'GET', `/tds/reports/txt?job_id=${job.job_id}`)).body.data as StatementJobView;
        expect(polled.status).to.equal('queued');
        expect(await host.redis.zcard(host.service.keys.pending)).to.equal(0);
      } finally {
        await sweeper.close();
      }
    });
  });
});

/** A second service on the same Redis and storage (as a worker's sweep would be), on its own clock. */
function sweepingService(host: StatementsHost, clock?: Clock): StatementService {
  return new StatementService({
    redis: host.redis, storage: host.storage, sealer: host.sealer, keyPrefix: host.keyPrefix, watchUploads: false,
    ...(clock ? { clock } : {}),
  });
}
