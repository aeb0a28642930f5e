// Root hook of `npm run test:cluster`: the suites listed in .mocharc.cluster.json run again, unchanged, on a real
// Redis Cluster. It starts the loopback cluster before any suite and points REDIS_CLUSTER_NODES at it, so every
// connection made without an explicit url (createRedisConnection's default) is a cluster connection. After the
// suites it checks that every master did serve them (a run that quietly fell back to one Redis would not).
import { Redis } from 'ioredis';
import { sharedRedisCluster } from './redis-cluster.js';

/** Commands a master must have served for the run to count as "on the cluster"; the suites send thousands. */
const MIN_COMMANDS_PER_MASTER = 500;

async function commandsServed(port: number): Promise<number> {
  const redis = new Redis({ host: '127.0.0.1', port, lazyConnect: true, maxRetriesPerRequest: 0 });
  try {
    await redis.connect();
    return Number(/total_commands_processed:(\d+)/.exec(await redis.info('stats'))?.[1] ?? 0);
  } finally {
    redis.disconnect();
  }
}

export const mochaHooks = {
  async beforeAll(this: Mocha.Context): Promise<void> {
    this.timeout(60_000);
    const cluster = await sharedRedisCluster();
    process.env['REDIS_CLUSTER_NODES'] = cluster.nodes.join(',');
    console.log(`      on a Redis Cluster of ${cluster.nodes.length} masters: ${cluster.nodes.join(',')}`);
  },
  async afterAll(): Promise<void> {
    const cluster = await sharedRedisCluster();
    const served = await Promise.all(cluster.processes.map((node) => commandsServed(node.port)));
    console.log(`      commands served per master: ${served.join(', ')}`);
    if (served.some((count) => count < MIN_COMMANDS_PER_MASTER)) {
      throw new Error(`A master of the cluster served fewer than ${MIN_COMMANDS_PER_MASTER} commands: the suites did not run on the cluster`);
    }
  },
};
