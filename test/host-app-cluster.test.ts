// The demo (examples/host-app) and the standalone worker (examples/worker) on a real Redis Cluster, selected by
// REDIS_CLUSTER_NODES: a statement job goes from submit to a downloaded TXT, and its keys are on the cluster,
// none on the single Redis.
import { expect } from 'chai';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRedisConnection, waitForRedis, type RedisCluster } from '@satyapan/core';
import { createSatyapanClient } from '@satyapan/client';
import { PROGRAMS, spawnDemo, spawnProgram, type ProgramProcess } from './support/spawn-program.js';
import { deleteKeysMatching, keysMatching, sharedRedisCluster } from './support/redis-cluster.js';
import { workbook26Q } from './statements-support/workbooks.js';
import { loadScaled } from '../packages/jobs/test/support/processes.js';

describe('demo host app and standalone worker on a Redis Cluster (REDIS_CLUSTER_NODES)', function () {
  this.timeout(90_000);
  const keyPrefix = `test-cluster-demo-${randomUUID()}`;
  let dataDir: string;
  let cluster: RedisCluster;

  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'satyapan-demo-cluster-'));
    cluster = await (await sharedRedisCluster()).ready('producer', 'demo-cluster-test');
  });
  after(async () => {
    await deleteKeysMatching(cluster, `${keyPrefix}*`);
    cluster.disconnect();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('runs a statement job end to end: the demo takes it, examples/worker converts it, the TXT downloads', async () => {
    const { nodes } = await sharedRedisCluster();
    const demo = spawnDemo({
      REDIS_CLUSTER_NODES: nodes.join(','), SATYAPAN_DATA_DIR: dataDir, SATYAPAN_WORKER: 'off', SATYAPAN_KEY_PREFIX: keyPrefix,
      SATYAPAN_DEMO_KEY: 'key_cluster', SATYAPAN_DEMO_SECRET: 'secret_cluster',
    });
    let worker: ProgramProcess | undefined;
    try {
      await demo.waitFor(/Stop with Ctrl\+C/);
      expect(demo.output()).to.include(`Redis            cluster ${nodes.join(',')}`);
      const settings = Object.fromEntries([...demo.output().matchAll(/^ {4}([A-Z_]+)=(\S*)$/gm)].map((match) => [match[1]!, match[2]!]));
      expect(settings['REDIS_CLUSTER_NODES']).to.equal(nodes.join(','));
      expect(settings).not.to.have.property('REDIS_URL');

      const api = demo.output().match(/API mounted at\s+(\S+)/)?.[1] ?? '';
      const client = createSatyapanClient({ baseUrl: api, apiKey: 'key_cluster', apiSecret: 'secret_cluster' });
      const job = (await client.POST('/tds/reports/txt', {
        body: { '@entity': 'in.co.service.tds.reports.request', tan: 'PNEG01234C', form: '26Q', quarter: 'Q2', financial_year: 'FY 2025-26' },
      })).data!.data;
      expect((await fetch(job.json_url!, { method: 'PUT', body: JSON.stringify(workbook26Q()) })).status).to.equal(200);

      await mkdir(join(dataDir, 'worker-tmp'));
      // Only what the banner printed: no REDIS_URL reaches the worker from this test's environment either.
      worker = spawnProgram(PROGRAMS.worker, { ...settings, REDIS_URL: 'redis://127.0.0.1:1', SATYAPAN_TMP_DIR: join(dataDir, 'worker-tmp') });
      await worker.waitFor(/statement worker ready/);
      let polled = (await client.GET('/tds/reports/txt', { params: { query: { job_id: job.job_id } } })).data!.data;
      // Spaced out under load, the number of polls kept: the demo client's rate limit is 100 calls a minute.
      for (let i = 0; i < 60 && polled.status !== 'succeeded' && polled.status !== 'failed'; i += 1) {
        await new Promise((resolve) => setTimeout(resolve, loadScaled(500)));
        polled = (await client.GET('/tds/reports/txt', { params: { query: { job_id: job.job_id } } })).data!.data;
      }
      expect(polled.status, `${JSON.stringify(polled)}\n${worker.output()}`).to.equal('succeeded');
      expect((await (await fetch(polled.txt_url!)).text()).split('\r\n')[0]).to.match(/^1\^FH\^/);

      // The job record, its indexes, the rate-limit counters and the BullMQ queue are on the cluster...
      const onCluster = await keysMatching(cluster, `${keyPrefix}*`);
      expect(onCluster.some((key) => key.includes(`:job:${job.job_id}`))).to.equal(true);
      expect(onCluster.some((key) => key.startsWith(`${keyPrefix}:bull:{statements}:`))).to.equal(true);
      // ...and nothing of this run is on the single Redis.
      const single = createRedisConnection({ url: 'redis://127.0.0.1:6379', flavour: 'producer', connectionName: 'demo-cluster-check' });
      try {
        await waitForRedis(single);
        expect(await single.keys(`${keyPrefix}*`)).to.deep.equal([]);
      } finally {
        single.disconnect();
      }
    } finally {
      if (worker) expect(await worker.stop()).to.equal(0);
      expect(await demo.stop()).to.equal(0);
    }
  });
});
