// Many processes, one deployment (issue 14, "Many processes"): two routers (the demo host app with its worker off)
// and two workers (examples/worker), each a real child process, on a real Redis Cluster and S3 (s3rver). 500
// statement jobs are submitted across both routers and uploaded to their pre-signed URLs; one worker is killed
// with SIGKILL while it holds a conversion. Every job must succeed exactly once: one `succeeded` completion per job
// in the queue's event stream, one start per job in its record and one TXT written per job in S3 (the jobs the
// killed worker held may run a second time, and only they); every webhook is delivered once per job, a refused
// delivery is retried with the same `webhook-id`; and search through both routers lists every job.
import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Queue } from 'bullmq';
import { sha256Hex, type RedisCluster } from '@satyapan/core';
import {
  STATEMENT_QUEUE, StatementKeys, createStatementQueue, createWebhookQueue, ownerOf, storageKeys, verifyWebhook,
  type StatementJobView,
} from '@satyapan/statement-queue';
import { PROGRAMS, spawnDemo, spawnProgram, type ProgramProcess } from './support/spawn-program.js';
import { deleteKeysMatching, sharedRedisCluster } from './support/redis-cluster.js';
import { eventually } from './statements-support/host.js';
import { startS3rver, type S3Server } from './statements-support/s3rver.js';
import { workbook26Q } from './statements-support/workbooks.js';
import { loadScaled } from '../packages/jobs/test/support/processes.js';

const JOBS = 500;
/** Submitters running at once (each submits, then uploads, then takes the next job). */
const LANES = 10;
/** The victim is killed once half the jobs have been acknowledged by the webhook receiver. */
const KILL_AFTER = JOBS / 2;
const TDS_BODY = { '@entity': 'in.co.service.tds.reports.request', tan: 'PNEG01234C', form: '26Q', quarter: 'Q2', financial_year: 'FY 2025-26' };
const BUCKET = 'many-processes';

interface Delivery { webhookId: string; jobId: string; status: string; accepted: boolean }

/**
 * A webhook receiver that verifies every delivery's signature, refuses the first try of about one job in 16 (those
 * whose id ends in 0) with a 503 so that BullMQ retries it, and records every try.
 */
async function startReceiver(secret: string): Promise<{ url: string; deliveries: Delivery[]; acceptedJobs: Set<string>; badSignatures: number; close(): Promise<void> }> {
  const deliveries: Delivery[] = [];
  const acceptedJobs = new Set<string>();
  const state = { badSignatures: 0 };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      let body: { data: StatementJobView };
      try {
        body = verifyWebhook<{ data: StatementJobView }>({ secret, body: Buffer.concat(chunks), headers: req.headers });
      } catch {
        state.badSignatures += 1;
        res.writeHead(400).end();
        return;
      }
      const id = String(req.headers['webhook-id']);
      const jobId = body.data.job_id;
      const refuse = jobId.endsWith('0') && !deliveries.some((delivery) => delivery.webhookId === id);
      deliveries.push({ webhookId: id, jobId, status: body.data.status, accepted: !refuse });
      if (!refuse) acceptedJobs.add(jobId);
      res.writeHead(refuse ? 503 : 204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    deliveries,
    acceptedJobs,
    get badSignatures() { return state.badSignatures; },
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

/** `count` of each value in `values`. */
function tally(values: Iterable<string>): Map<string, number> {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return counts;
}

describe('two routers and two workers on a Redis Cluster and S3: 500 jobs, a worker killed midway', function () {
  this.timeout(300_000);
  const run = randomUUID().slice(0, 8);
  const keyPrefix = `test-many-${run}`;
  const keys = new StatementKeys(keyPrefix);
  const s3Prefix = `many-${run}/`;
  const apiKey = `key_many_${run}`;
  const apiSecret = `secret_many_${run}`;
  const webhookSecret = `whsec_${randomBytes(24).toString('base64')}`;
  let s3: S3Server;
  let redis: RedisCluster;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let scratch: string;
  let statementQueue: Queue;
  let webhookQueue: Queue;
  const routers: ProgramProcess[] = [];
  const workers: ProgramProcess[] = [];
  let apis: string[] = [];
  /** `${s3Prefix}statements/<owner>/<job>/statement.txt` -> PUTs answered. */
  const txtWrites = new Map<string, number>();

  before(async function () {
    this.timeout(loadScaled(120_000));
    const cluster = await sharedRedisCluster();
    redis = await cluster.ready('producer', 'many-processes-test');
    statementQueue = createStatementQueue(redis, keys.bullPrefix);
    webhookQueue = createWebhookQueue(redis, keys.bullPrefix);
    s3 = await startS3rver(BUCKET);
    s3.onAnswered(({ method, key }) => {
      if (method === 'PUT' && key.endsWith('/statement.txt')) txtWrites.set(key, (txtWrites.get(key) ?? 0) + 1);
    });
    receiver = await startReceiver(webhookSecret);
    scratch = await mkdtemp(join(tmpdir(), 'satyapan-many-'));
    const endpoint = s3.clientConfig.endpoint as string;
    const credentials = { AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER' };
    // What every router of one deployment shares (docs/OPERATIONS.md): Redis, key prefix, token secret, sealing
    // key, storage, clients. Each router gets its own data folder: nothing of the deployment is kept there.
    const shared = {
      ...credentials,
      REDIS_CLUSTER_NODES: cluster.nodes.join(','), SATYAPAN_KEY_PREFIX: keyPrefix, SATYAPAN_WORKER: 'off',
      SATYAPAN_TOKEN_SECRET: randomBytes(32).toString('base64'), SATYAPAN_SEALING_KEY: randomBytes(32).toString('base64'),
      SATYAPAN_S3_BUCKET: BUCKET, SATYAPAN_S3_PREFIX: s3Prefix, SATYAPAN_S3_ENDPOINT: endpoint,
      SATYAPAN_DEMO_KEY: apiKey, SATYAPAN_DEMO_SECRET: apiSecret, SATYAPAN_DEMO_RATE_LIMIT: '1000000',
      SATYAPAN_DEMO_WEBHOOK_URL: receiver.url, SATYAPAN_DEMO_WEBHOOK_SECRET: webhookSecret,
      // Only the cluster: a router or worker that fell back to a single Redis would not connect at all.
      REDIS_URL: 'redis://127.0.0.1:1',
    };
    for (const name of ['a', 'b']) {
      routers.push(spawnDemo({ ...shared, SATYAPAN_DATA_DIR: join(scratch, `router-${name}`) }));
    }
    await Promise.all(routers.map((router) => router.waitFor(/Stop with Ctrl\+C/, 90_000)));
    apis = routers.map((router) => router.output().match(/API mounted at\s+(\S+)/)?.[1] ?? '');
    expect(routers[0]!.output()).to.include(`Storage          S3 bucket ${BUCKET} at ${s3.clientConfig.endpoint as string}`);
    expect(routers[0]!.output()).to.include(`POSTed to ${receiver.url} (secret from SATYAPAN_DEMO_WEBHOOK_SECRET)`);
    expect(routers[0]!.output()).not.to.include(webhookSecret);
    // The workers get what a router's banner prints for them (plus the AWS credentials, which it never prints).
    const printed = routers.map((router) => Object.fromEntries([...router.output().matchAll(/^ {4}([A-Z_0-9]+)=(\S*)$/gm)].map((m) => [m[1]!, m[2]!])));
    expect(printed[0]).to.include({ SATYAPAN_S3_BUCKET: BUCKET, SATYAPAN_S3_PREFIX: s3Prefix, SATYAPAN_S3_ENDPOINT: endpoint, REDIS_CLUSTER_NODES: cluster.nodes.join(',') });
    expect(printed[0]).not.to.have.property('SATYAPAN_DATA_DIR');
    // Each demo runs its own sandbox providers (for bulk jobs): their URLs are each demo's own; the rest must agree.
    const sharedSettings = (settings: Record<string, string>) => Object.fromEntries(Object.entries(settings).filter(([name]) => !/^SATYAPAN_(PENNY_DROP|PENNY_LESS|PAN|PAN_AADHAAR_LINK)_URL$/.test(name)));
    expect(sharedSettings(printed[1]!)).to.deep.equal(sharedSettings(printed[0]!));
    for (const name of ['1', '2']) {
      workers.push(spawnProgram(PROGRAMS.worker, {
        ...printed[0], ...credentials, REDIS_URL: 'redis://127.0.0.1:1',
        SATYAPAN_WORKER_CONCURRENCY: '2', SATYAPAN_SWEEP_INTERVAL_MS: '200',
        // A dead worker's jobs are taken up again within seconds, not the default half minute.
        SATYAPAN_LOCK_DURATION_MS: '5000', SATYAPAN_STALLED_INTERVAL_MS: '1000',
        SATYAPAN_TMP_DIR: join(scratch, `worker-${name}`),
      }));
    }
    await Promise.all(workers.map((worker) => worker.waitFor(/statement worker ready/, 90_000)));
  });

  after(async function () {
    this.timeout(loadScaled(60_000));
    await Promise.all([...routers, ...workers].map((program) => program.stop()));
    await statementQueue?.close();
    await webhookQueue?.close();
    if (redis) {
      await deleteKeysMatching(redis, `${keyPrefix}*`);
      redis.disconnect();
    }
    await receiver?.close();
    await s3?.close();
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  it('every job succeeds exactly once, every webhook is delivered once per job, and both routers find every job', async () => {
    const token = await authenticate(apis[0]!, apiKey, apiSecret);
    // A token issued by one router is honoured by the other.
    const headers = { authorization: token, 'x-api-key': apiKey, 'content-type': 'application/json' };
    const call = async (router: number, method: string, path: string, body?: unknown): Promise<{ status: number; body: { data: unknown } }> => {
      const response = await fetch(`${apis[router]}${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
      return { status: response.status, body: (await response.json()) as { data: unknown } };
    };
    const workbook = JSON.stringify(workbook26Q({ rows: 2 }));

    // Submit and upload through both routers, LANES at a time.
    const jobs: Array<{ jobId: string; router: number }> = [];
    let next = 0;
    const lane = async (): Promise<void> => {
      for (let index = next++; index < JOBS; index = next++) {
        const router = index % 2;
        const submitted = await call(router, 'POST', '/tds/reports/txt', TDS_BODY);
        expect(submitted.status, JSON.stringify(submitted.body)).to.equal(200);
        const job = submitted.body.data as StatementJobView;
        jobs.push({ jobId: job.job_id, router });
        const put = await fetch(job.json_url as string, { method: 'PUT', body: workbook, headers: { 'content-type': 'application/json' } });
        expect(put.status).to.equal(200);
      }
    };

    // The victim is frozen (SIGSTOP) so that what it holds can be read without a race, and killed only while it
    // holds a conversion; otherwise it is let go on and looked at again a moment later.
    const [victim, survivor] = workers as [ProgramProcess, ProgramProcess];
    const victimName = `${hostname()}:${victim.child.pid}`;
    const held = { conversions: [] as string[], deliveries: [] as string[] };
    const killedAt = { submitted: 0 };
    const kill = async (): Promise<void> => {
      await eventually(async () => receiver.acceptedJobs.size >= KILL_AFTER, 150_000, 50);
      await eventually(async () => {
        victim.child.kill('SIGSTOP');
        const active = (await statementQueue.getActive()).filter((job) => job.processedBy === victimName);
        if (active.length === 0) {
          victim.child.kill('SIGCONT');
          return false;
        }
        held.conversions = active.map((job) => job.id as string);
        held.deliveries = (await webhookQueue.getActive()).filter((job) => job.processedBy === victimName).map((job) => job.id as string);
        killedAt.submitted = jobs.length;
        victim.child.kill('SIGKILL');
        return true;
      }, 30_000, 20);
    };
    await Promise.all([...Array.from({ length: LANES }, lane), kill()]);
    expect(await victim.exited()).to.equal(null);
    expect(victim.child.signalCode).to.equal('SIGKILL');
    expect(held.conversions.length).to.be.within(1, 2);

    // Done when every job was acknowledged and neither queue has anything left to run: no conversion or delivery
    // can follow, so every count below is final.
    await eventually(async () => {
      if (receiver.acceptedJobs.size < JOBS) return false;
      const counts = await Promise.all([statementQueue, webhookQueue].map((queue) => queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized', 'waiting-children')));
      return counts.every((count) => Object.values(count).every((n) => n === 0));
    }, 200_000, 250);
    expect(survivor.child.exitCode).to.equal(null);

    const ids = jobs.map((job) => job.jobId);
    // The demo names its client after its key.
    const owner = ownerOf(`demo-${sha256Hex(apiKey).slice(0, 16)}`);
    const mayRunTwice = new Set(held.conversions);

    // Polled through the router that did not take the job: every job succeeded, with its TXT.
    const polls = await Promise.all(jobs.map(async ({ jobId, router }) => (await call(1 - router, 'GET', `/tds/reports/txt?job_id=${jobId}`)).body.data as StatementJobView));
    expect(polls.filter((view) => view.status !== 'succeeded').map((view) => `${view.job_id} ${view.status}`)).to.deep.equal([]);
    expect(polls.every((view) => typeof view.txt_url === 'string')).to.equal(true);
    const sample = await (await fetch(polls[0]!.txt_url as string)).text();
    expect(sample.split('\r\n')[0]).to.match(/^1\^FH\^/);

    // Converted once, counted three ways. (1) The statement queue's event stream: each job was added once and
    // completed as `succeeded` once; a second completion of a job the victim held says `skipped` (it had ended).
    const events = (await redis.xrange(`${keys.bullPrefix}:${STATEMENT_QUEUE}:events`, '-', '+')).map(([, fields]) => {
      const entry: Record<string, string> = {};
      for (let i = 0; i + 1 < fields.length; i += 2) entry[fields[i]!] = fields[i + 1]!;
      return entry;
    });
    const ofThisRun = (entry: Record<string, string>): boolean => ids.includes(entry['jobId'] ?? '');
    const added = tally(events.filter((entry) => entry['event'] === 'added' && ofThisRun(entry)).map((entry) => entry['jobId']!));
    expect(added.size, 'the event stream holds every job of the run (none trimmed)').to.equal(JOBS);
    expect([...added.values()].every((count) => count === 1)).to.equal(true);
    const completed = events.filter((entry) => entry['event'] === 'completed' && ofThisRun(entry));
    const succeeded = tally(completed.filter((entry) => (JSON.parse(entry['returnvalue'] ?? '{}') as { outcome?: string }).outcome === 'succeeded').map((entry) => entry['jobId']!));
    expect([...succeeded].filter(([, count]) => count !== 1)).to.deep.equal([]);
    const otherCompletions = completed.filter((entry) => (JSON.parse(entry['returnvalue'] ?? '{}') as { outcome?: string }).outcome !== 'succeeded');
    // A job the victim held may have ended its record (succeeded) and then died before BullMQ heard of it: its
    // only completion is then the survivor's `skipped` rerun. Any other job must have its `succeeded` completion.
    const withoutSucceeded = ids.filter((jobId) => !succeeded.has(jobId));
    expect(withoutSucceeded.filter((jobId) => !mayRunTwice.has(jobId)), 'jobs without a succeeded completion that the victim did not hold').to.deep.equal([]);
    const completedOtherwise = new Set(otherCompletions.map((entry) => entry['jobId']!));
    expect(withoutSucceeded.filter((jobId) => !completedOtherwise.has(jobId)), 'jobs that never completed').to.deep.equal([]);
    expect(otherCompletions.filter((entry) => !mayRunTwice.has(entry['jobId']!)).map((entry) => entry['returnvalue'])).to.deep.equal([]);
    expect(events.filter((entry) => entry['event'] === 'failed' && ofThisRun(entry))).to.deep.equal([]);

    // (2) Each record counts the conversions started (`attempts`): one per job, at most two for a job the
    // victim held. (3) S3 counts the TXT writes: the same.
    const pipeline = redis.pipeline();
    for (const jobId of ids) pipeline.hget(keys.record({ owner, jobId }), 'attempts');
    const attempts = ((await pipeline.exec()) ?? []).map(([error, value]) => {
      if (error) throw error;
      return Number(value);
    });
    const writes = ids.map((jobId) => txtWrites.get(`${s3Prefix}${storageKeys.txt({ owner, jobId })}`) ?? 0);
    ids.forEach((jobId, i) => {
      const most = mayRunTwice.has(jobId) ? 2 : 1;
      expect(attempts[i], `conversions started of job ${jobId}`).to.be.within(1, most);
      expect(writes[i], `TXT writes of job ${jobId}`).to.be.within(1, most);
    });
    // Both workers converted: the victim until it was killed, the survivor the rest, including what the victim held.
    const survivorName = `${hostname()}:${survivor.child.pid}`;
    const processedBy = tally(await Promise.all(ids.map(async (jobId) => (await statementQueue.getJob(jobId))?.processedBy ?? 'unknown')));
    expect([...processedBy.keys()].sort()).to.deep.equal([survivorName, victimName].sort());
    for (const jobId of held.conversions) expect((await statementQueue.getJob(jobId))?.processedBy).to.equal(survivorName);
    console.log(`      killed worker converted ${processedBy.get(victimName)} jobs and held ${held.conversions.length} conversion(s) and ${held.deliveries.length} delivery(ies) at the kill (${killedAt.submitted} jobs submitted by then); the survivor converted ${processedBy.get(survivorName)}; conversions started in all: ${attempts.reduce((a, b) => a + b, 0)}`);

    // Webhooks: one message id per job (its own), every delivery signed and about a succeeded job, each job
    // acknowledged once (a delivery the victim held may have reached the receiver before the kill and again after
    // it, with the same id), and a refused first try retried with the same id.
    expect(receiver.badSignatures).to.equal(0);
    const idsPerJob = new Map<string, Set<string>>();
    for (const delivery of receiver.deliveries) {
      if (!idsPerJob.has(delivery.jobId)) idsPerJob.set(delivery.jobId, new Set());
      idsPerJob.get(delivery.jobId)!.add(delivery.webhookId);
      expect(delivery.status).to.equal('succeeded');
    }
    expect([...idsPerJob.keys()].sort()).to.deep.equal([...ids].sort());
    for (const [jobId, messageIds] of idsPerJob) expect([...messageIds]).to.deep.equal([`msg_${jobId}`]);
    const accepted = tally(receiver.deliveries.filter((delivery) => delivery.accepted).map((delivery) => delivery.jobId));
    const heldDeliveries = new Set(held.deliveries.map((id) => id.replace(/^wh-/, '')));
    for (const jobId of ids) expect(accepted.get(jobId), `acknowledged deliveries of job ${jobId}`).to.be.within(1, heldDeliveries.has(jobId) ? 2 : 1);
    const refusedFirst = ids.filter((jobId) => jobId.endsWith('0'));
    expect(refusedFirst.length).to.be.greaterThan(0);
    for (const jobId of refusedFirst) {
      const tries = receiver.deliveries.filter((delivery) => delivery.jobId === jobId);
      expect(tries.length, `tries of job ${jobId}`).to.be.at.least(2);
      expect(tries[0]!.accepted).to.equal(false);
    }

    // Search through both routers, the cursor of one router's page taken to the other: every job, once.
    for (const first of [0, 1]) {
      const seen: string[] = [];
      let cursor: unknown;
      for (let page = 0; page < JOBS / 50 + 2; page += 1) {
        const router = (first + page) % 2;
        const res = await call(router, 'POST', '/tds/reports/txt/search', {
          '@entity': 'in.co.service.tds.reports.jobs.search', page_size: 50, ...(cursor ? { last_evaluated_key: cursor } : {}),
        });
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        const data = res.body.data as { items: StatementJobView[]; last_evaluated_key: unknown };
        seen.push(...data.items.map((item) => item.job_id));
        expect(data.items.every((item) => item.status === 'succeeded')).to.equal(true);
        cursor = data.last_evaluated_key;
        if (!cursor) break;
      }
      expect(seen.length).to.equal(JOBS);
      expect([...seen].sort()).to.deep.equal([...ids].sort());
    }

    expect(await survivor.stop()).to.equal(0);
  });
});

async function authenticate(api: string, apiKey: string, apiSecret: string): Promise<string> {
  const response = await fetch(`${api}/authenticate`, { method: 'POST', headers: { 'x-api-key': apiKey, 'x-api-secret': apiSecret } });
  expect(response.status).to.equal(200);
  return ((await response.json()) as { data: { access_token: string } }).data.access_token;
}
