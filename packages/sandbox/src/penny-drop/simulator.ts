import express, { type NextFunction, type Request, type Response } from 'express';
import { systemClock, type Clock } from '@satyapan/core';
import { listenOnLoopback } from '../listen.js';
import { CallCounter, type RateLimitSetting } from '../call-counter.js';
import { nameMatch } from './name-match.js';
import { cashfreeGate, type SignatureCheck } from '../cashfree-signature.js';
import { BAD_GATEWAY, RATE_LIMITED, outcomeFor, type AccountOutcome, type ErrorOutcome } from './outcomes.js';
import { PENNY_DROP_TEST_NAMES } from './test-accounts.js';

/**
 * A bank account verification (penny drop) provider on loopback that answers as Cashfree's Bank Account
 * Verification v2 sync API documents (its OpenAPI 2023-12-18; fixtures/cashfree in the tests):
 *   POST /verification/bank-account/sync  {bank_account, ifsc, name?, phone?}
 *     -> 200 {reference_id, name_at_bank, bank_name, city, branch, micr, name_match_score, name_match_result,
 *             account_status (VALID | INVALID), account_status_code, utr}
 *     -> 422 {type, code, message, error: {reference_id}} for the bank's and the rails' failures (lower case)
 *     -> 400/401/403/429/500/502 {type, code, message}
 * Clients authenticate with `x-client-id` and `x-client-secret`, and with `x-cf-signature` when `signature` is
 * set. Outcomes are chosen by the account number (test-accounts.ts). `GET /_simulator/stats` reports the
 * counters to other processes.
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
  /** Require Cashfree's request signature (a host that is not whitelisted): without a valid one, 403. */
  signature?: SignatureCheck;
}

export interface PennyDropSimulator {
  url: string;
  clientId: string;
  clientSecret: string;
  /** Every verification answers Cashfree's documented 502 (`verification attempt failed`) while on. */
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
  constructor(readonly status: number, readonly type: string, readonly code: string, message: string, readonly referenceId?: number) {
    super(message);
  }

  static of(outcome: ErrorOutcome, referenceId?: number): ProviderError {
    return new ProviderError(outcome.status, outcome.type, outcome.code, outcome.message, outcome.withReference ? referenceId : undefined);
  }
}

/** The request checks of `400SyncBAVV2`, codes and messages as Cashfree publishes them. */
function parseRequest(body: unknown): SyncRequest {
  const b = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  const invalid = (code: string, message: string): ProviderError => new ProviderError(400, 'validation_error', code, message);
  const account = b['bank_account'];
  if (account === undefined || account === '') throw invalid('bank_account_missing', 'bank_account is missing in the request.');
  if (typeof account !== 'string' || !/^[A-Za-z0-9]*$/.test(account)) throw invalid('bank_account_value_invalid', 'bank_account should be alphanumeric.');
  if (account.length < 6) throw invalid('bank_account_length_short', 'bank_account should include a minimum of 6 characters.');
  if (account.length > 40) throw invalid('bank_account_length_exceeded', 'bank_account can include a maximum of 40 characters.');
  if (b['ifsc'] === undefined || b['ifsc'] === '') throw invalid('ifsc_missing', 'ifsc is missing in the request.');
  if (typeof b['ifsc'] !== 'string' || !/^[A-Za-z]{4}0[A-Za-z0-9]{6}$/.test(b['ifsc'])) {
    throw invalid('ifsc_value_invalid', 'ifsc should be of 11 characters and 5th character should be 0.');
  }
  const name = b['name'];
  if (name !== undefined && typeof name === 'string' && name.length > 100) throw invalid('name_length_exceeded', 'name can include a maximum of 100 characters.');
  if (name !== undefined && (typeof name !== 'string' || !/^[A-Za-z0-9 .\-/&]*$/.test(name))) throw invalid('name_value_invalid', 'name should not include special characters.');
  const phone = b['phone'];
  if (phone !== undefined && (typeof phone !== 'string' || !/^\d*$/.test(phone))) throw invalid('phone_value_invalid', 'phone should be numeric.');
  if (typeof phone === 'string' && phone.length < 8) throw invalid('phone_length_short', 'phone should include a minimum of 8 characters.');
  if (typeof phone === 'string' && phone.length > 13) throw invalid('phone_length_exceeded', 'phone can include a maximum of 13 characters.');
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

  /** The 200 answer: every field of the documented schema, `null` where the examples show null. */
  const answer = (request: SyncRequest, outcome: AccountOutcome, ref: number): Record<string, unknown> => {
    const base = { reference_id: ref, account_status: outcome.accountStatus, account_status_code: outcome.code };
    if (!outcome.deposits) {
      return {
        ...base, name_at_bank: null, bank_name: null, city: null, branch: null, micr: null, name_match_score: null,
        name_match_result: null, utr: null,
      };
    }
    credited.set(request.bank_account, (credited.get(request.bank_account) ?? 0) + 1);
    const atBank = PENNY_DROP_TEST_NAMES[request.bank_account] ?? 'ACCOUNT HOLDER';
    const match = request.name ? nameMatch(request.name, atBank) : { score: null, result: null };
    return {
      ...base,
      name_at_bank: atBank,
      bank_name: 'SIMULATED BANK',
      city: 'MUMBAI',
      branch: 'SIMULATED BRANCH',
      micr: 400532038,
      name_match_score: match.score,
      name_match_result: match.result,
      utr: rrn(clock.now(), ref),
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
  app.use(cashfreeGate({ clientId, clientSecret, signature: options.signature, now: () => clock.now() }));
  app.use((_req: Request, res: Response, next: NextFunction) => {
    if (down) return void fail(res, ProviderError.of(BAD_GATEWAY));
    next();
  });

  app.post('/verification/bank-account/sync', (req, res) => {
    try {
      const request = parseRequest(req.body);
      if (!counter.admit()) throw ProviderError.of(RATE_LIMITED);
      requests++;
      counter.count(request.bank_account);
      const outcome = outcomeFor(request.bank_account);
      const ref = referenceId++;
      if (outcome.kind === 'error') throw ProviderError.of(outcome, ref);
      res.json(answer(request, outcome, ref));
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
  const body: Record<string, unknown> = { type: error.type, code: error.code, message: error.message };
  if (error.referenceId !== undefined) body['error'] = { reference_id: error.referenceId };
  res.status(error.status).json(body);
}
