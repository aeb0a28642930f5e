import express, { type NextFunction, type Request, type Response } from 'express';
import { systemClock, type Clock } from '@satyapan/core';
import { hasClientCredentials } from '../client-credentials.js';
import { listenOnLoopback } from '../listen.js';
import { CallCounter, type RateLimitSetting } from '../call-counter.js';
import { nameMatch } from './name-match.js';
import { outcomeFor, type AccountOutcome } from './outcomes.js';
import { PENNY_DROP_TEST_NAMES } from './test-accounts.js';

/**
 * A bank account verification (penny drop) provider on loopback, with the shape of Cashfree's Bank Account
 * Verification v2 sync API:
 *   POST /verification/bank-account/sync  {bank_account, ifsc, name?, phone?}
 *     -> 200 {reference_id, name_at_bank, bank_name, utr, city, branch, micr, name_match_score,
 *             name_match_result, account_status, account_status_code, ifsc_details}
 *     -> 400/401/409/422/429/500/503 {type, code, message}
 * Clients authenticate with the `x-client-id` and `x-client-secret` headers. Outcomes are chosen by the
 * account number (test-accounts.ts). `GET /_simulator/stats` reports the counters to other processes.
 */
export interface PennyDropSimulatorOptions {
  port?: number;
  host?: string;
  clientId?: string;
  clientSecret?: string;
  /** Delay before every answer, e.g. to exercise a caller's timeout. */
  latencyMs?: number;
  clock?: Clock;
  /** The provider's own rate limit: past `requests` in any `perMs` window, a verification answers 429 (Retry-After). */
  rateLimit?: RateLimitSetting;
}

export interface PennyDropSimulator {
  url: string;
  clientId: string;
  clientSecret: string;
  /** Every verification answers 503 while on. */
  setDown(on: boolean): void;
  /** Delay before every answer from now on. */
  setLatency(ms: number): void;
  /** Verification requests that passed authentication (and the rate limit). */
  requests(): number;
  /** Verification requests by account number: how many times each account was asked about. */
  callsByAccount(): ReadonlyMap<string, number>;
  /** Requests answered 429 by the rate limit of `rateLimit`. */
  rateLimited(): number;
  /** Rupees credited so far (successful penny drops), in all or to one account. */
  deposits(account?: string): number;
  close(): Promise<void>;
}

interface SyncRequest {
  bank_account: string;
  ifsc: string;
  name?: string;
  phone?: string;
}

class ProviderError extends Error {
  constructor(readonly status: number, readonly type: string, readonly code: string, message: string) {
    super(message);
  }
}

function parseRequest(body: unknown): SyncRequest {
  const b = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  const invalid = (code: string, message: string): ProviderError => new ProviderError(400, 'validation_error', code, message);
  if (typeof b['bank_account'] !== 'string' || !/^[A-Za-z0-9]{6,40}$/.test(b['bank_account'])) {
    throw invalid('bank_account_invalid', 'bank_account should be alphanumeric and 6 to 40 characters long');
  }
  if (typeof b['ifsc'] !== 'string' || !/^[A-Za-z]{4}0[A-Za-z0-9]{6}$/.test(b['ifsc'])) {
    throw invalid('ifsc_invalid', 'ifsc should be of 11 characters and 5th character should be 0');
  }
  if (b['name'] !== undefined && (typeof b['name'] !== 'string' || b['name'].length > 100)) {
    throw invalid('name_invalid', 'name should be at most 100 characters');
  }
  if (b['phone'] !== undefined && (typeof b['phone'] !== 'string' || !/^\d{8,13}$/.test(b['phone']))) {
    throw invalid('phone_invalid', 'phone should be 8 to 13 digits');
  }
  return b as unknown as SyncRequest;
}

/** A 12-digit IMPS-style RRN: last digit of the year, day of the year, hour, then a 6-digit sequence. */
function rrn(now: number, sequence: number): string {
  const date = new Date(now);
  const dayOfYear = Math.floor((now - Date.UTC(date.getUTCFullYear(), 0, 1)) / 86_400_000) + 1;
  return `${date.getUTCFullYear() % 10}${String(dayOfYear).padStart(3, '0')}${String(date.getUTCHours()).padStart(2, '0')}`
    + String(sequence % 1_000_000).padStart(6, '0');
}

export async function startPennyDropSimulator(options: PennyDropSimulatorOptions = {}): Promise<PennyDropSimulator> {
  const clock = options.clock ?? systemClock;
  const clientId = options.clientId ?? 'satyapan-bav-client';
  const clientSecret = options.clientSecret ?? 'satyapan-bav-secret';
  let latencyMs = options.latencyMs ?? 0;
  let down = false;
  let requests = 0;
  const counter = new CallCounter(options.rateLimit);
  let referenceId = 7_000_001;
  const credited = new Map<string, number>();

  const answer = (request: SyncRequest, outcome: AccountOutcome): Record<string, unknown> => {
    const ref = referenceId++;
    const ifsc = request.ifsc.toUpperCase();
    const base = { reference_id: ref, account_status: outcome.accountStatus, account_status_code: outcome.code };
    if (!outcome.deposits) return { ...base, name_at_bank: null, utr: null, name_match_score: null, name_match_result: null };
    credited.set(request.bank_account, (credited.get(request.bank_account) ?? 0) + 1);
    const atBank = PENNY_DROP_TEST_NAMES[request.bank_account] ?? 'ACCOUNT HOLDER';
    const match = request.name ? nameMatch(request.name, atBank) : { score: null, result: null };
    return {
      ...base,
      name_at_bank: atBank,
      bank_name: 'SIMULATED BANK',
      utr: rrn(clock.now(), ref),
      city: 'MUMBAI',
      branch: 'SIMULATED BRANCH',
      micr: 0,
      name_match_score: match.score,
      name_match_result: match.result,
      ifsc_details: { bank: 'SIMULATED BANK', ifsc, ifsc_subcode: ifsc.slice(0, 5), category: 'DIRECT_MEMBER' },
    };
  };

  const app = express();
  app.disable('x-powered-by');
  app.get('/_simulator/stats', (_req, res) => {
    res.json({
      requests, deposits: [...credited.values()].reduce((a, b) => a + b, 0), rate_limited: counter.refused,
      accounts_asked_twice: [...counter.byAccount.values()].filter((calls) => calls > 1).length,
    });
  });
  app.use(express.json({ limit: '8kb' }));
  app.use((_req: Request, _res: Response, next: NextFunction) => {
    if (latencyMs > 0) setTimeout(next, latencyMs);
    else next();
  });
  app.use((req: Request, res: Response, next: NextFunction) => {
    if (!hasClientCredentials(req, { clientId, clientSecret })) {
      return void fail(res, new ProviderError(401, 'authentication_error', 'request_failed', 'authentication Failed'));
    }
    if (down) return void fail(res, new ProviderError(503, 'api_error', 'service_unavailable', 'Service is temporarily unavailable'));
    next();
  });

  app.post('/verification/bank-account/sync', (req, res) => {
    try {
      const request = parseRequest(req.body);
      if (!counter.admit()) throw new ProviderError(429, 'rate_limit_error', 'too_many_requests', 'Too many requests');
      requests++;
      counter.count(request.bank_account);
      const outcome = outcomeFor(request.bank_account);
      if (outcome.kind === 'error') throw new ProviderError(outcome.status, outcome.type, outcome.code, outcome.message);
      res.json(answer(request, outcome));
    } catch (error) {
      if (error instanceof ProviderError) return void fail(res, error);
      throw error;
    }
  });

  app.use((_req: Request, res: Response) => void fail(res, new ProviderError(404, 'invalid_request_error', 'not_found', 'Not found')));

  const { url, close } = await listenOnLoopback(app, options);
  return {
    url,
    clientId,
    clientSecret,
    setDown: (on) => void (down = on),
    setLatency: (ms) => void (latencyMs = ms),
    requests: () => requests,
    callsByAccount: () => counter.byAccount,
    rateLimited: () => counter.refused,
    deposits: (account) => (account === undefined
      ? [...credited.values()].reduce((a, b) => a + b, 0)
      : credited.get(account) ?? 0),
    close,
  };
}

function fail(res: Response, error: ProviderError): void {
  if (error.status === 429) res.setHeader('Retry-After', '1');
  res.status(error.status).json({ type: error.type, code: error.code, message: error.message });
}
