import { randomUUID } from 'node:crypto';
import express, { type NextFunction, type Request, type Response } from 'express';
import { constantTimeEqual } from '@satyapan/core';
import { hasClientCredentials } from '../client-credentials.js';
import { listenOnLoopback } from '../listen.js';
import { CallCounter, type RateLimitSetting } from '../call-counter.js';
import { pennyLessScenario, type PennyLessScenario } from './test-accounts.js';

/**
 * A penny-less bank account verification provider on loopback, with the shape of Setu's PennyLess drop API
 * (sync):
 *   POST /api/verify/ban/pennyless  {accountNumber, ifsc}
 *     -> 200 {status: "SUCCESS", data: {bankAccountNumber, bankAccountName, bankAccountIfsc, entityType,
 *             ifscCrossCheck}, traceId}
 *     -> 200 {status: "FAILED", data: {bankAccountNumber, bankAccountIfsc}, error: {code, detail}, traceId}
 *     -> 400/401/429/503 {status, success: false, error: {code, title, detail, traceID}}
 * Clients authenticate with `x-client-id`, `x-client-secret` and `x-product-instance-id`. Outcomes are chosen
 * by the account number (test-accounts.ts); no money moves.
 */
export interface PennyLessSimulatorOptions {
  port?: number;
  host?: string;
  clientId?: string;
  clientSecret?: string;
  productInstanceId?: string;
  /** Delay before every answer, e.g. to exercise a caller's timeout. */
  latencyMs?: number;
  /** The provider's own rate limit: past `requests` in any `perMs` window, a verification answers 429 (Retry-After). */
  rateLimit?: RateLimitSetting;
}

export interface PennyLessSimulator {
  url: string;
  clientId: string;
  clientSecret: string;
  productInstanceId: string;
  /** Every verification answers 503 while on. */
  setDown(on: boolean): void;
  setLatency(ms: number): void;
  /** Verification requests that passed authentication (and the rate limit). */
  requests(): number;
  /** Verification requests by account number: how many times each account was asked about. */
  callsByAccount(): ReadonlyMap<string, number>;
  /** Requests answered 429 by the rate limit of `rateLimit`. */
  rateLimited(): number;
  close(): Promise<void>;
}

interface PennyLessCall {
  accountNumber: string;
  ifsc: string;
}

export async function startPennyLessSimulator(options: PennyLessSimulatorOptions = {}): Promise<PennyLessSimulator> {
  const clientId = options.clientId ?? 'satyapan-pennyless-client';
  const clientSecret = options.clientSecret ?? 'satyapan-pennyless-secret';
  const productInstanceId = options.productInstanceId ?? 'satyapan-pennyless-product';
  let latencyMs = options.latencyMs ?? 0;
  let down = false;
  let requests = 0;
  const counter = new CallCounter(options.rateLimit);

  const app = express();
  app.disable('x-powered-by');
  app.use(express.json({ limit: '8kb' }));
  app.use((_req: Request, _res: Response, next: NextFunction) => {
    if (latencyMs > 0) setTimeout(next, latencyMs);
    else next();
  });
  app.use((req: Request, res: Response, next: NextFunction) => {
    const instanceOk = constantTimeEqual(req.get('x-product-instance-id') ?? '', productInstanceId);
    if (!hasClientCredentials(req, { clientId, clientSecret }) || !instanceOk) {
      return void fail(res, 401, 'unauthorised', 'Client credentials or product instance are invalid');
    }
    if (down) return void fail(res, 503, 'service-unavailable', 'Service is temporarily unavailable');
    next();
  });

  app.post('/api/verify/ban/pennyless', (req, res) => {
    const call = parseCall(req.body);
    if (!call) return void fail(res, 400, 'invalid-param', 'accountNumber (6 to 40 letters or digits) and ifsc (11 characters) are required');
    if (!counter.admit()) {
      res.setHeader('Retry-After', '1');
      return void fail(res, 429, 'too-many-requests', 'Rate limit exceeded');
    }
    requests++;
    counter.count(call.accountNumber);
    answer(res, call, pennyLessScenario(call.accountNumber));
  });

  app.use((_req: Request, res: Response) => void fail(res, 404, 'path-not-found', 'No such endpoint'));

  const { url, close } = await listenOnLoopback(app, options);
  return {
    url, clientId, clientSecret, productInstanceId,
    setDown: (on) => void (down = on),
    setLatency: (ms) => void (latencyMs = ms),
    requests: () => requests,
    callsByAccount: () => counter.byAccount,
    rateLimited: () => counter.refused,
    close,
  };
}

function parseCall(body: unknown): PennyLessCall | null {
  const b = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  const accountNumber = b['accountNumber'];
  const ifsc = b['ifsc'];
  if (typeof accountNumber !== 'string' || !/^[A-Za-z0-9]{6,40}$/.test(accountNumber)) return null;
  if (typeof ifsc !== 'string' || !/^[A-Za-z]{4}0[A-Za-z0-9]{6}$/.test(ifsc)) return null;
  return { accountNumber, ifsc: ifsc.toUpperCase() };
}

function answer(res: Response, call: PennyLessCall, scenario: PennyLessScenario): void {
  const traceId = randomUUID();
  const account = { bankAccountNumber: call.accountNumber, bankAccountIfsc: call.ifsc };
  if (scenario.kind === 'error') {
    if (scenario.status === 429) res.setHeader('Retry-After', '1');
    return fail(res, scenario.status, scenario.code, scenario.detail);
  }
  if (scenario.kind === 'failed') {
    return void res.json({ status: 'FAILED', data: account, error: { code: scenario.code, detail: scenario.detail }, traceId });
  }
  res.json({
    status: 'SUCCESS',
    data: { ...account, bankAccountName: scenario.name, entityType: scenario.entityType, ifscCrossCheck: true },
    traceId,
  });
}

function fail(res: Response, status: number, code: string, detail: string): void {
  res.status(status).json({ status, success: false, error: { code, title: code.replace(/-/g, ' '), detail, traceID: randomUUID() } });
}
