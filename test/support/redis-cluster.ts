// A real Redis Cluster on loopback for the tests that must run on one (never a mock): redis-server processes
// with cluster mode on, joined by `redis-cli --cluster create`, in a temp folder of their own. The suites share
// one cluster per mocha run (`sharedRedisCluster()` starts it on first use); it is stopped when the process
// exits, and each suite keeps to its own key prefix, as on the shared single Redis.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { createRedisConnection, isRedisCluster, waitForRedis, type RedisCluster, type RedisConnection, type RedisFlavour } from '@satyapan/core';
import { eventually, freePort } from './redis-server.js';

export interface RedisClusterOptions {
  /** Default 3, the fewest Redis Cluster accepts. */
  masters?: number;
  /** Replicas per master; default 0 (a failover test needs 1). */
  replicas?: number;
}

export interface ClusterNodeProcess {
  port: number;
  process: ChildProcess;
}

export interface RedisClusterHandle {
  /** `127.0.0.1:port` of every node, as REDIS_CLUSTER_NODES takes them. */
  nodes: string[];
  processes: ClusterNodeProcess[];
  /** A connection of the given flavour to this cluster (the caller disconnects it). */
  connect(flavour: RedisFlavour, connectionName?: string): RedisCluster;
  /** Resolves once connected. */
  ready(flavour: RedisFlavour, connectionName?: string): Promise<RedisCluster>;
  stop(): void;
}

const started: Array<{ processes: ClusterNodeProcess[]; dir: string }> = [];

/** Kills every node and removes its folder; synchronous, so that it also runs from an `exit` handler. */
function stopCluster(cluster: { processes: ClusterNodeProcess[]; dir: string }): void {
  for (const node of cluster.processes) {
    if (node.process.exitCode === null && node.process.signalCode === null) node.process.kill('SIGKILL');
  }
  rmSync(cluster.dir, { recursive: true, force: true });
}

const stopAll = (): void => {
  for (const cluster of started.splice(0)) stopCluster(cluster);
};
process.once('exit', stopAll);
// A run stopped by Ctrl+C or SIGTERM takes its clusters down too ('exit' does not run on a fatal signal).
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    stopAll();
    process.exit(128 + (signal === 'SIGINT' ? 2 : 15));
  });
}

/**
 * A port found free can be taken before redis-server binds it (other suites start servers too), and the two
 * free ports asked for can coincide: a node that does not answer is started again on other ports.
 */
async function startNode(dir: string, tries = 3): Promise<ClusterNodeProcess> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await startNodeOnce(dir);
    } catch (error) {
      if (attempt >= tries) throw error;
    }
  }
}

async function startNodeOnce(dir: string): Promise<ClusterNodeProcess> {
  const port = await freePort();
  // The cluster bus port defaults to port + 10000, which may be taken or past 65535: name a free one.
  let busPort = await freePort();
  while (busPort === port) busPort = await freePort();
  const child = spawn('redis-server', [
    '--port', String(port), '--cluster-port', String(busPort), '--bind', '127.0.0.1',
    '--cluster-enabled', 'yes', '--cluster-config-file', `nodes-${port}.conf`, '--cluster-node-timeout', '2000',
    // A replica may take over however long ago it last heard its master (a failover test kills one early).
    '--cluster-replica-validity-factor', '0',
    '--dir', dir, '--save', '', '--appendonly', 'no', '--protected-mode', 'no',
  ], { stdio: 'ignore' });
  const answers = await eventually(() => pings(port), 5_000);
  if (!answers) {
    child.kill('SIGKILL');
    throw new Error(`redis-server (cluster node) on port ${port} did not answer`);
  }
  return { port, process: child };
}

async function pings(port: number): Promise<boolean> {
  const redis = new Redis({ port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    return (await redis.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    redis.disconnect();
  }
}

/**
 * Ready once CLUSTER INFO says ok (slots covered, the nodes agree) and, on a replica, its link to its master is
 * up (a replica that never synced would not be promoted).
 */
async function nodeReady(port: number): Promise<boolean> {
  const redis = new Redis({ port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    const info = (await redis.call('CLUSTER', 'INFO')) as string;
    const replication = await redis.info('replication');
    const synced = !/role:slave/.test(replication) || /master_link_status:up/.test(replication);
    return /cluster_state:ok/.test(info) && /cluster_known_nodes:(\d+)/.exec(info)?.[1] !== '1' && synced;
  } catch {
    return false;
  } finally {
    redis.disconnect();
  }
}

export async function startRedisCluster(options: RedisClusterOptions = {}): Promise<RedisClusterHandle> {
  const masters = options.masters ?? 3;
  const replicas = options.replicas ?? 0;
  const dir = await mkdtemp(join(tmpdir(), 'satyapan-redis-cluster-'));
  const entry = { processes: [] as ClusterNodeProcess[], dir };
  started.push(entry);
  try {
    for (let i = 0; i < masters * (1 + replicas); i += 1) entry.processes.push(await startNode(dir));
    const nodes = entry.processes.map((node) => `127.0.0.1:${node.port}`);
    const create = spawnSync('redis-cli', ['--cluster', 'create', ...nodes, '--cluster-replicas', String(replicas), '--cluster-yes'], {
      encoding: 'utf8', timeout: 30_000,
    });
    if (create.status !== 0) throw new Error(`redis-cli --cluster create failed: ${create.stderr || create.stdout}`);
    for (const node of entry.processes) {
      if (!(await eventually(() => nodeReady(node.port), 10_000))) throw new Error(`cluster node ${node.port} never reported cluster_state:ok (and, on a replica, its master link up)`);
    }
    return handleOf(entry, nodes);
  } catch (error) {
    stopCluster(entry);
    started.splice(started.indexOf(entry), 1);
    throw error;
  }
}

function handleOf(entry: { processes: ClusterNodeProcess[]; dir: string }, nodes: string[]): RedisClusterHandle {
  const connect = (flavour: RedisFlavour, connectionName = `cluster-test-${flavour}`): RedisCluster =>
    createRedisConnection({ nodes, flavour, connectionName });
  return {
    nodes,
    processes: entry.processes,
    connect,
    async ready(flavour, connectionName) {
      const connection = connect(flavour, connectionName);
      await waitForRedis(connection, 10_000);
      return connection;
    },
    stop() {
      stopCluster(entry);
      const at = started.indexOf(entry);
      if (at >= 0) started.splice(at, 1);
    },
  };
}

let shared: Promise<RedisClusterHandle> | undefined;

/** The cluster of this mocha run: three masters, no replicas, started on first use, stopped on exit. */
export function sharedRedisCluster(): Promise<RedisClusterHandle> {
  shared ??= startRedisCluster();
  return shared;
}

/** The keys that match `pattern` on one Redis, or on every master of a cluster (KEYS answers for its own node). */
export async function keysMatching(redis: RedisConnection, pattern: string): Promise<string[]> {
  if (!isRedisCluster(redis)) return redis.keys(pattern);
  const perNode = await Promise.all(redis.nodes('master').map((node) => node.keys(pattern)));
  return perNode.flat();
}

/** Deletes the keys that match `pattern`, one DEL per key: on a cluster a DEL of several keys must not span slots. */
export async function deleteKeysMatching(redis: RedisConnection, pattern: string): Promise<void> {
  const keys = await keysMatching(redis, pattern);
  await Promise.all(keys.map((key) => redis.del(key)));
}
