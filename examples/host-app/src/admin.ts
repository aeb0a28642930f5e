import type { Express, NextFunction, Request, RequestHandler, Response } from 'express';
import type { Queue } from 'bullmq';
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import { constantTimeEqual } from '@satyapan/core';

export interface AdminAccount {
  user: string;
  password: string;
}

/**
 * The queue dashboard (bull-board: its pages and assets are served from its npm package, no CDN) at `path`,
 * behind HTTP basic auth: it shows job ids and lets an operator retry or remove jobs, so it is never open.
 */
export function mountQueueDashboard(app: Express, path: string, queues: readonly Queue[], account: AdminAccount): void {
  const serverAdapter = new ExpressAdapter();
  serverAdapter.setBasePath(path);
  createBullBoard({ queues: queues.map((queue) => new BullMQAdapter(queue)), serverAdapter });
  app.use(path, basicAuth(account, 'Satyapan queues'), sameOriginOnly, serverAdapter.getRouter() as RequestHandler);
}

/**
 * bull-board's page links a web font from a CDN; this policy keeps the browser on our origin (the font falls
 * back to the system's), and keeps the page out of frames.
 */
function sameOriginOnly(_req: Request, res: Response, next: NextFunction): void {
  res.setHeader('Content-Security-Policy', "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'none'");
  next();
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
