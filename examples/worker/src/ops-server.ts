import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { metricsHandler, type SatyapanMetrics } from '@satyapan/core';

export interface OpsServerOptions {
  host: string;
  port: number;
  metrics: SatyapanMetrics;
  /** Whether the worker runs and its Redis connection is up (`StatementWorker.connected`). */
  ready: () => Promise<boolean>;
}

/**
 * The worker's own small HTTP server for operators, on SATYAPAN_METRICS_PORT: `GET /metrics` (Prometheus),
 * `GET /health/live` (the process runs) and `GET /health/ready` (the worker runs and Redis is connected).
 * A worker serves no API, so these are all it answers.
 */
export async function startOpsServer(options: OpsServerOptions): Promise<Server> {
  const serveMetrics = metricsHandler(options.metrics);
  const server = createServer((req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return json(res, 405, { status: 'method not allowed' });
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/metrics') return serveMetrics(req, res);
    if (path === '/health/live') return json(res, 200, { status: 'ok' });
    if (path === '/health/ready') return void answerReadiness(req, res, options.ready);
    json(res, 404, { status: 'not found' });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  return server;
}

async function answerReadiness(_req: IncomingMessage, res: ServerResponse, ready: () => Promise<boolean>): Promise<void> {
  const up = await ready().catch(() => false);
  json(res, up ? 200 : 503, { status: up ? 'ok' : 'unavailable', worker: up ? 'up' : 'down' });
}

function json(res: ServerResponse, status: number, body: Record<string, string>): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}
