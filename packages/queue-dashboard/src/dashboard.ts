// The queue dashboard a host mounts next to the router: bull-board over the statement, webhook and bulk queues,
// behind basic auth, the router's credential lockout and same-origin writes.
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Queue } from 'bullmq';
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import { constantTimeEqual, serviceError, type Logger, type RedisConnection } from '@satyapan/core';
import { hostPages, loginLockout } from '@satyapan/router';

export interface AdminAccount {
  user: string;
  password: string;
}

/** An Express app or router: all the dashboard needs of it is `use`. */
export interface MountPoint {
  use(path: string, ...handlers: RequestHandler[]): unknown;
}

export interface QueueDashboardOptions {
  /**
   * The queues to show: `statements.queue` (StatementService), `createWebhookQueue(redis,
   * statements.keys.bullPrefix)` (its webhooks; close it with the host) and `bulk.queue` (BulkService).
   */
  queues: readonly Queue[];
  account: AdminAccount;
  /**
   * The dashboard's origin as browsers reach it (`SATYAPAN_PUBLIC_URL`, else `http://HOST:PORT`): a request that
   * changes state (retry, remove, pause) from a page of any other origin is refused.
   */
  origin: string;
  /** Where failed logins are counted, shared by every process of the host. */
  redis: RedisConnection;
  keyPrefix: string;
  logger?: Logger;
  /** Failed logins per address before a lockout, and its window; default 20 in 15 minutes. */
  lockout?: { perAddress?: number; windowMs?: number };
}

/**
 * bull-board's page links a web font from a CDN; this policy keeps the browser on our origin (the font falls
 * back to the system's), and keeps the page out of frames.
 */
const DASHBOARD_CSP = "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'none'";

/**
 * The queue dashboard (bull-board: its pages and assets are served from its npm package, no CDN) at `path`,
 * behind HTTP basic auth: it shows job ids and lets an operator retry or remove jobs, so it is never open.
 * Failed logins lock their address out (the router's credential lockout), and a state-changing request must
 * come from the dashboard's own origin: the browser sends basic-auth credentials with another site's form too.
 */
export function mountQueueDashboard(app: MountPoint, path: string, options: QueueDashboardOptions): void {
  const serverAdapter = new ExpressAdapter();
  serverAdapter.setBasePath(path);
  createBullBoard({ queues: options.queues.map((queue) => new BullMQAdapter(queue, DISPLAY_OPTIONS(queue))), serverAdapter });
  const lockout = loginLockout(options.redis, { scope: 'queue-dashboard', keyPrefix: options.keyPrefix, ...options.lockout });
  app.use(path, hostPages({ headers: { 'Content-Security-Policy': DASHBOARD_CSP }, ...(options.logger ? { logger: options.logger } : {}) }, (pages) => {
    pages.use(lockout, basicAuth(options.account, 'Satyapan queues'), sameOriginWrites(options.origin), serverAdapter.getRouter() as RequestHandler);
  }));
}

/**
 * A queue's name as people read it: without the Redis Cluster hash-tag braces that keep its keys in one slot
 * (`{statements}` is shown `statements`). The dashboard's URLs keep the real name.
 */
export function shownQueueName(name: string): string {
  return name.replace(/^\{(.+)\}$/, '$1');
}

/**
 * How bull-board shows a queue: its cards and pages show `displayName`; its menu shows the name, grouped by a
 * `delimiter` when there is one, and then without a hash tag's braces. No queue name of ours holds `:`, so the
 * delimiter forms no group: it only takes the braces off the menu's names.
 */
const DISPLAY_OPTIONS = (queue: Queue) => ({ displayName: shownQueueName(queue.name), delimiter: ':' });

/** Methods that change nothing (RFC 9110 safe methods): a cross-site page may read-trigger them, never write. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Refuses (403) a state-changing request whose `Origin` is not `origin`, or, without an `Origin`, whose
 * `Sec-Fetch-Site` says another site sent it. Browsers send `Origin` with every POST, PUT and DELETE; a request
 * with neither header is no browser's (curl with the password), so it is let through.
 */
function sameOriginWrites(origin: string): RequestHandler {
  const own = new URL(origin).origin;
  return (req: Request, _res: Response, next: NextFunction) => {
    if (SAFE_METHODS.has(req.method) || isSameOrigin(req, own)) return next();
    next(serviceError('CROSS_SITE_REQUEST'));
  };
}

function isSameOrigin(req: Request, own: string): boolean {
  const origin = req.headers.origin;
  if (origin !== undefined) return origin === own;
  const site = req.headers['sec-fetch-site'];
  return site === undefined || site === 'same-origin' || site === 'none';
}

/** RFC 7617 basic auth against one account; compares in constant time so the answer's timing tells nothing. */
export function basicAuth(account: AdminAccount, realm: string): RequestHandler {
  const expected = `${account.user}:${account.password}`;
  return (req: Request, res: Response, next: NextFunction) => {
    const given = credentialsOf(req.headers.authorization);
    if (given !== null && constantTimeEqual(given, expected)) return next();
    res.setHeader('WWW-Authenticate', `Basic realm="${realm}", charset="UTF-8"`);
    res.status(401).type('text/plain').send('Authentication required\n');
  };
}

function credentialsOf(header: string | undefined): string | null {
  const match = /^Basic ([A-Za-z0-9+/=]+)$/i.exec(header ?? '');
  return match ? Buffer.from(match[1]!, 'base64').toString('utf8') : null;
}
