// A worker as its own process: `node examples/worker/dist/main.js` with the environment of config.ts. Converts
// queued workbooks, sends webhooks, runs bulk verification jobs, queues uploads it finds (S3), purges expired
// jobs. Scale by starting more of these; SIGTERM or SIGINT finishes (or hands back) the running jobs, then exits.
import type { Server } from 'node:http';
import { createLogger, createMetrics, createRedisConnection, waitForRedis } from '@satyapan/core';
import { createStatementWorker } from '@satyapan/statement-queue';
import { createForm16Worker } from '@satyapan/form16-queue';
import { startBulkWorker } from './bulk.js';
import { readConfig, sealerFrom } from './config.js';
import { startOpsServer } from './ops-server.js';

async function main(): Promise<void> {
  const config = readConfig();
  const logger = createLogger({ level: config.logLevel, defaultMeta: { app: 'statement-worker', pid: process.pid } });
  const redisTarget = config.redisClusterNodes ? { nodes: config.redisClusterNodes } : { url: config.redisUrl };
  const connection = createRedisConnection({ ...redisTarget, flavour: 'worker', connectionName: 'satyapan-statement-worker', logger });
  await waitForRedis(connection, 10_000);
  const metrics = createMetrics({ processMetrics: true, defaultLabels: { role: 'worker' } });
  const sealer = sealerFrom(config);
  const worker = createStatementWorker({
    connection,
    storage: config.storage,
    sealer,
    keyPrefix: config.keyPrefix,
    concurrency: config.concurrency,
    logger,
    metrics,
    webhooks: { allowPrivateUrls: config.webhookAllowList },
    ...(config.lockDurationMs ? { lockDurationMs: config.lockDurationMs } : {}),
    ...(config.stalledIntervalMs ? { stalledIntervalMs: config.stalledIntervalMs } : {}),
    ...(config.sweepIntervalMs ? { sweepIntervalMs: config.sweepIntervalMs } : {}),
    ...(config.tmpDir ? { tmpDir: config.tmpDir } : {}),
    ...(config.maxUploadBytes ? { maxUploadBytes: config.maxUploadBytes } : {}),
    conversionLimits: config.conversionLimits,
    ...(config.inputLimits ? { inputLimits: config.inputLimits } : {}),
  });
  await worker.ready();
  const bulk = await startBulkWorker(config, connection, config.storage, sealer, logger, metrics);
  // Form 16 jobs (Part B PDFs from a 24Q Q4 workbook, merged and signed), one at a time: each is CPU-bound, and
  // runs in a child process under its own limits.
  const form16 = createForm16Worker({
    connection, storage: config.storage, sealer, keyPrefix: config.keyPrefix, logger, metrics,
    generationLimits: config.form16Limits,
    webhooks: { allowPrivateUrls: config.webhookAllowList },
    ...(config.tmpDir ? { tmpDir: config.tmpDir } : {}),
    ...(config.maxUploadBytes ? { maxUploadBytes: config.maxUploadBytes } : {}),
    ...(config.sweepIntervalMs ? { sweepIntervalMs: config.sweepIntervalMs } : {}),
  });
  await form16.ready();
  const ready = async (): Promise<boolean> => (await worker.connected()) && (await bulk.worker.connected()) && (await form16.connected());
  const ops: Server | undefined = config.metricsPort === undefined ? undefined
    : await startOpsServer({ host: config.metricsHost, port: config.metricsPort, metrics, ready });
  if (ops) process.stdout.write(`metrics and health on http://${config.metricsHost}:${config.metricsPort}/metrics\n`);
  logger.info('statement worker ready', { concurrency: config.concurrency });
  process.stdout.write(`statement worker ready (pid ${process.pid})\n`);
  logger.info('bulk worker ready', { kinds: bulk.kinds, rate_limits: config.bulk.rateLimits });
  process.stdout.write(`bulk worker ready (kinds ${bulk.kinds.join(', ')})\n`);
  process.stdout.write('form16 worker ready\n');

  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    logger.info('shutting down', { signal });
    ops?.close();
    Promise.all([
      worker.close({ timeoutMs: config.shutdownTimeoutMs }), bulk.worker.close({ timeoutMs: config.shutdownTimeoutMs }), form16.close({ timeoutMs: config.shutdownTimeoutMs }),
    ])
      .then(() => bulk.close())
      .then(() => connection.quit())
      .then(() => process.exit(0), (error: unknown) => {
        logger.error('shutdown failed', { error: (error as Error).message });
        process.exit(1);
      });
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((error: unknown) => {
  process.stderr.write(`The statement worker could not start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
