import express, { type NextFunction, type Request, type Response } from 'express';
import { systemClock, type Clock } from '@satyapan/core';
import { listenOnLoopback } from '../listen.js';
import { AuthorizationState, type SimulatorClient } from './authorization-state.js';
import { oauthRoutes, type LockerProfile } from './oauth-routes.js';
import { docvaultResources, entityvaultResources } from './resource-routes.js';
import { accountRoutes } from './account-routes.js';
import { LockerSwitches } from './switches.js';
import { ENTITIES, INDIVIDUALS } from './fixtures.js';
import { escapeHtml } from './consent-page.js';

/**
 * Both national lockers on one loopback HTTP server, each under its own base path, speaking the partner API:
 *   <url>/docvault/public/oauth2/...     (individual document locker)
 *   <url>/entityvault/public/oauth2/...  (entity document locker)
 */

export interface LockerSimulatorOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  host?: string;
  /** Clients allowed to use the lockers; more can be added later with registerClient(). */
  clients?: SimulatorClient[];
  /** Lifetime of access tokens; the national lockers use 3600 s. */
  accessTokenTtlSeconds?: number;
  clock?: Clock;
}

export interface LockerSimulator {
  /** Root URL of the server, e.g. `http://127.0.0.1:43121`. */
  url: string;
  /** Base URL of the individual locker's partner API (what a client is configured with). */
  docvaultBaseUrl: string;
  /** Base URL of the entity locker's partner API. */
  entityvaultBaseUrl: string;
  registerClient(client: SimulatorClient): void;
  /** Machine endpoints answer 429 while on. */
  setRateLimited(on: boolean): void;
  /** Everything answers 503 while on. */
  setDown(on: boolean): void;
  /** Resource endpoints answer 500 while on. */
  setFailing(on: boolean): void;
  /** Turns every fault off. */
  resetSwitches(): void;
  /** Withdraws every consent a locker user gave: their access and refresh tokens stop working. */
  revokeUser(userId: string): number;
  /** Ends every access token issued so far (refresh tokens still work). */
  expireAccessTokens(): void;
  /** Requests served per endpoint name (authorize, consent, token, revoke, user, entity, files, file, eaadhaar, account). */
  requestCounts(): Record<string, number>;
  close(): Promise<void>;
}

const DOCVAULT: LockerProfile = {
  kind: 'docvault', displayName: 'docvault', documentTypes: ['ADHAR', 'PANCR', 'DRVLC'], scope: 'files.issueddocs',
};
const ENTITYVAULT: LockerProfile = {
  kind: 'entityvault', displayName: 'entityvault', documentTypes: ['CPMTD', 'GSTND', 'UDCER'], scope: 'entity.issueddocs',
};

export async function startLockerSimulator(options: LockerSimulatorOptions = {}): Promise<LockerSimulator> {
  const clock = options.clock ?? systemClock;
  const docvault = new AuthorizationState(clock, options.accessTokenTtlSeconds ?? 3600);
  const entityvault = new AuthorizationState(clock, options.accessTokenTtlSeconds ?? 3600);
  for (const client of options.clients ?? []) {
    docvault.registerClient(client);
    entityvault.registerClient(client);
  }
  const switches = new LockerSwitches();
  const counts: Record<string, number> = {};
  const count = (name: string): void => {
    counts[name] = (counts[name] ?? 0) + 1;
  };

  const app = express();
  app.disable('x-powered-by');
  app.get('/', (_req, res) => void res.type('html').send(homePage()));
  app.use('/docvault/public', oauthRoutes(DOCVAULT, docvault, switches, count), docvaultResources(docvault, switches, count),
    accountRoutes(docvault, switches, clock, count));
  app.use('/entityvault/public', oauthRoutes(ENTITYVAULT, entityvault, switches, count), entityvaultResources(entityvault, switches, count));
  app.use((_req, res) => void res.status(404).json({ error: 'not_found', error_description: 'No such endpoint' }));
  app.use(oauthStyleErrors);

  const { url, close } = await listenOnLoopback(app, options);
  return {
    url,
    docvaultBaseUrl: `${url}/docvault/public`,
    entityvaultBaseUrl: `${url}/entityvault/public`,
    registerClient(client) {
      docvault.registerClient(client);
      entityvault.registerClient(client);
    },
    setRateLimited: (on) => void (switches.rateLimited = on),
    setDown: (on) => void (switches.down = on),
    setFailing: (on) => void (switches.failing = on),
    resetSwitches: () => switches.reset(),
    revokeUser: (userId) => docvault.revokeUser(userId) + entityvault.revokeUser(userId),
    expireAccessTokens() {
      docvault.expireAccessTokens();
      entityvault.expireAccessTokens();
    },
    requestCounts: () => ({ ...counts }),
    close,
  };
}

/** Last handler: what Express would answer as an HTML page with a stack trace becomes an OAuth-style JSON error. */
function oauthStyleErrors(error: unknown, _req: Request, res: Response, _next: NextFunction): void {
  const status = (error as { status?: unknown } | null)?.status;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return void res.status(status).json({ error: 'invalid_request', error_description: 'The request could not be read' });
  }
  res.status(500).json({ error: 'server_error', error_description: 'Internal error' });
}

/** A landing page for people clicking around the demo: who lives in the lockers. */
function homePage(): string {
  const people = INDIVIDUALS.map((u) => `<li>${escapeHtml(u.name)} (${u.documents.join(', ')})</li>`).join('');
  const entities = ENTITIES.map((e) => `<li>${escapeHtml(e.name)}, signed in by ${escapeHtml(e.user.name)} (${e.documents.join(', ')})</li>`).join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Locker simulator</title></head><body>
<h1>Locker simulator</h1><p>Partner API under <code>/docvault/public</code> and <code>/entityvault/public</code>.</p>
<h2>docvault users</h2><ul>${people}</ul><h2>entityvault entities</h2><ul>${entities}</ul></body></html>`;
}
