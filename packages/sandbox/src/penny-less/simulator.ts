import { randomUUID } from 'node:crypto';
import express, { type NextFunction, type Request, type Response } from 'express';
import { constantTimeEqual } from '@satyapan/core';
import { hasClientCredentials } from '../client-credentials.js';
import { listenOnLoopback } from '../listen.js';
import { CallCounter, type RateLimitSetting } from '../call-counter.js';
import { pennyLessScenario, type PennyLessScenario } from './test-accounts.js';

/**
 * A penny-less bank account verification provider on loopback that answers as Setu's PennyLess drop API
 * documents (SetuHQ/docs: its OpenAPI document and quickstart; fixtures/setu in the tests):
 *   POST /api/verify/ban/pennyless  {accountNumber (^\d{9,18}$), ifsc}
 *     -> 200 {status: "SUCCESS", data: {bankAccountNumber, bankAccountName, bankAccountIfsc, entityType,
 *             ifscCrossCheck, ifscDetails, merchantDetails (a merchant only)}, traceId}
 *     -> 200 {status: "ERROR", message: "Invalid bank details", traceId}
 *     -> 400/500 {error: {code, detail, traceId}}
 * Setu documents no 401 or 429: the simulator answers those (wrong credentials, its `rateLimit`) in the same
 * error shape. Clients authenticate with `x-client-id`, `x-client-secret` and `x-product-instance-id`. Outcomes
 * are chosen by the account number (test-accounts.ts); no money moves.
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
  /** Every verification answers Setu's documented 500 (`internal_server_error`) while on. */
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
      return void fail(res, 401, 'unauthorized', 'Client credentials or product instance are invalid');
    }
    if (down) return void fail(res, 500, 'internal_server_error', 'Upstream service error. Please reach out to support along with the traceId.');
    next();
  });

  app.post('/api/verify/ban/pennyless', (req, res) => {
    const call = parseCall(req.body);
    if (typeof call === 'string') return void fail(res, 400, 'bad_request', call);
    if (!counter.admit()) {
      res.setHeader('Retry-After', '1');
      return void fail(res, 429, 'too_many_requests', 'Rate limit exceeded');
    }
    requests++;
    counter.count(call.accountNumber);
    answer(res, call, pennyLessScenario(call.accountNumber));
  });

  app.use((_req: Request, res: Response) => void fail(res, 404, 'not_found', 'No such endpoint'));

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

/** The call, or the `detail` of Setu's 400 (its schema: `accountNumber` `^\d{9,18}$`, `ifsc` `^[A-Za-z]{4}0[A-Z0-9a-z]{6}$`). */
function parseCall(body: unknown): PennyLessCall | string {
  const b = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  const accountNumber = b['accountNumber'];
  const ifsc = b['ifsc'];
  if (accountNumber === undefined) return 'accountNumber is required';
  if (typeof accountNumber !== 'string' || !/^\d{9,18}$/.test(accountNumber)) return 'accountNumber must match ^\\d{9,18}$';
  if (ifsc === undefined) return 'ifsc is required';
  if (typeof ifsc !== 'string' || !/^[A-Za-z]{4}0[A-Za-z0-9]{6}$/.test(ifsc)) return 'ifsc must match ^[A-Za-z]{4}0[A-Z0-9a-z]{6}$';
  return { accountNumber, ifsc: ifsc.toUpperCase() };
}

function answer(res: Response, call: PennyLessCall, scenario: PennyLessScenario): void {
  const traceId = randomUUID();
  if (scenario.kind === 'error') {
    if (scenario.status === 429) res.setHeader('Retry-After', '1');
    return fail(res, scenario.status, scenario.code, scenario.detail);
  }
  if (scenario.kind === 'notFound') return void res.json({ status: 'ERROR', message: 'Invalid bank details', traceId });
  res.json({
    status: 'SUCCESS',
    data: {
      bankAccountNumber: call.accountNumber, bankAccountName: scenario.name, bankAccountIfsc: call.ifsc,
      entityType: scenario.entityType, ifscCrossCheck: true, ifscDetails: ifscDetails(call.ifsc),
      ...(scenario.entityType === 'MERCHANT' ? { merchantDetails: MERCHANT_DETAILS } : {}),
    },
    traceId,
  });
}

/** Every field of Setu's `IfscDetails` is a string, flags included ("true"). */
function ifscDetails(ifsc: string): Record<string, string> {
  return {
    name: 'SIMULATED BANK', branch: 'SIMULATED BRANCH', center: 'MUMBAI', district: 'MUMBAI', state: 'MAHARASHTRA',
    address: `SIMULATED BRANCH ${ifsc}`, contact: '', imps: 'true', rtgs: 'true', city: 'MUMBAI', iso3166: 'IN-MH',
    neft: 'true', micr: '400000000', upi: 'true', swift: '',
  };
}

const MERCHANT_DETAILS = {
  mccCode: '5399',
  identifier: { merchantType: 'SMALL', merchantGenre: 'OFFLINE', onBoardingType: 'BANK' },
  name: { brand: 'satyapan', legal: 'Satyapan Demo', franchise: 'satyapan' },
  ownership: { type: 'PRIVATE' },
};

function fail(res: Response, status: number, code: string, detail: string): void {
  res.status(status).json({ error: { code, detail, traceId: randomUUID() } });
}
