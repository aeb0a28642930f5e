// Failover on a real Redis Cluster (three masters, one replica each): the master that holds a client's job
// records is killed while its jobs convert. While the slot is down the API answers 503 envelopes; once the
// replica is promoted the same processes serve again without a restart, every job succeeds, and every job
// has exactly one webhook (no job is lost, none ends twice).
import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRedisConnection, silentLogger, type RedisCluster, type RedisFlavour } from '@satyapan/core';
import { ownerOf, type StatementJobView } from '@satyapan/statement-queue';
import type { ClientConfig } from '@satyapan/router';
import { startRedisCluster, type RedisClusterHandle } from './support/redis-cluster.js';
import { eventually, startStatementsHost, type StatementsHost } from './statements-support/host.js';
import { workbook26Q } from './statements-support/workbooks.js';

const TDS_BODY = { '@entity': 'in.co.service.tds.reports.request', tan: 'PNEG01234C', form: '26Q', quarter: 'Q2', financial_year: 'FY 2025-26' };
const JOBS = 8;

/** A webhook receiver on loopback that counts deliveries per webhook-id. */
async function startReceiver(): Promise<{ url: string; deliveries: Map<string, number>; close(): Promise<void> }> {
  const deliveries = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const id = String(req.headers['webhook-id']);
      deliveries.set(id, (deliveries.get(id) ?? 0) + 1);
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    deliveries,
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

describe('Redis Cluster failover: a master is killed while statement jobs run', function () {
  this.timeout(120_000);
  let cluster: RedisClusterHandle;
  let host: StatementsHost;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let client: ClientConfig;
  const opened: RedisCluster[] = [];

  before(async () => {
    cluster = await startRedisCluster({ replicas: 1 });
    receiver = await startReceiver();
    client = { id: 'failover', apiKey: 'key_test_failover', apiSecret: 'secret_failover', webhookUrl: receiver.url, webhookSecret: 'failover-hook-secret' };
    // The outage is expected here: its connection-failure lines would only be noise.
    const connect = (flavour: RedisFlavour, connectionName: string): RedisCluster => {
      const connection = createRedisConnection({ nodes: cluster.nodes, flavour, connectionName, logger: silentLogger() });
      opened.push(connection);
      return connection;
    };
    host = await startStatementsHost({ clients: [client], connect });
    await host.startWorker({
      concurrency: 2,
      // Short retries, so that a conversion cut by the outage is tried again within the test.
      retry: { attempts: 10, backoffMs: 200 },
      webhooks: { allowPrivateUrls: [new URL(receiver.url).origin], retry: { baseDelayMs: 200, maxDelayMs: 1_000, minimumSpanMs: 60_000 } },
    });
  });
  after(async () => {
    // The test killed a master: the key clean-up can meet a connection the cluster closed under it, and the
    // cluster is stopped below anyway; any other failure of close() still fails the suite.
    await host?.close().catch((error: Error) => {
      if (!/Connection is closed/.test(error.message)) throw error;
    });
    for (const connection of opened) connection.disconnect();
    await receiver?.close();
    cluster?.stop();
  });

  /** The port of the master that serves `key`'s slot now. */
  async function masterOf(key: string): Promise<number> {
    const slot = Number(await host.redis.call('CLUSTER', 'KEYSLOT', key));
    const master = (host.redis as RedisCluster).slots[slot]?.[0] ?? '';
    return Number(master.split(':')[1]);
  }

  it('answers 503 while the slot is down, serves again after the promotion, and ends every job once', async () => {
    const jobs: StatementJobView[] = [];
    for (let i = 0; i < JOBS; i += 1) {
      const res = await host.call(client, 'POST', '/tds/reports/txt', TDS_BODY);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      jobs.push(res.body.data as StatementJobView);
    }
    for (const job of jobs) {
      const put = await fetch(job.json_url as string, { method: 'PUT', body: JSON.stringify(workbook26Q()), headers: { 'content-type': 'application/json' } });
      expect(put.status).to.equal(200);
    }
    // Kill the master of the client's records as soon as a conversion is under way.
    await eventually(async () => (await host.call(client, 'GET', `/tds/reports/txt?job_id=${jobs[0]!.job_id}`)).body.data?.status !== 'queued', 20_000, 20);
    const port = await masterOf(`${host.keyPrefix}:statements:{${ownerOf(client.id as string)}}:job:x`);
    const victim = cluster.processes.find((node) => node.port === port);
    expect(victim, `a node on port ${port}`).not.to.equal(undefined);
    victim!.process.kill('SIGKILL');

    // While the slot has no master: a 503 envelope, never a 500 or a hang.
    const down = await eventually(async () => {
      const res = await host.call(client, 'GET', `/tds/reports/txt?job_id=${jobs[0]!.job_id}`);
      expect(res.status, JSON.stringify(res.body)).to.be.oneOf([200, 503]);
      return res.status === 503 ? res : null;
    }, 10_000, 50);
    expect(down.body).to.include.keys('code', 'message', 'transaction_id');
    expect(down.body.code).to.equal(503);

    // The replica takes over (cluster-node-timeout 2 s); the same processes serve again and finish every job.
    const finished = await eventually(async () => {
      const views: StatementJobView[] = [];
      for (const job of jobs) {
        const res = await host.call(client, 'GET', `/tds/reports/txt?job_id=${job.job_id}`);
        if (res.status !== 200) return null;
        views.push(res.body.data as StatementJobView);
      }
      return views.every((view) => view.status === 'succeeded' || view.status === 'failed') ? views : null;
    }, 60_000, 250);
    expect(finished.map((view) => view.status)).to.deep.equal(jobs.map(() => 'succeeded'));
    // One webhook per job, with the job's own id: none lost, none sent for a second ending.
    await eventually(async () => receiver.deliveries.size === JOBS, 30_000, 100);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect([...receiver.deliveries.keys()].sort()).to.deep.equal(jobs.map((job) => `msg_${job.job_id}`).sort());
    expect([...receiver.deliveries.values()]).to.deep.equal(jobs.map(() => 1));
  });
});
