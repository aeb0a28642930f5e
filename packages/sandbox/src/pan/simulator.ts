import { randomUUID } from 'node:crypto';
import express, { type NextFunction, type Request, type Response } from 'express';
import { systemClock, type Clock } from '@satyapan/core';
import { listenOnLoopback } from '../listen.js';
import { cashfreeGate, type SignatureCheck } from '../cashfree-signature.js';
import { linkScenario, panScenario } from './test-pans.js';

export interface SimulatorControls {
  url: string;
  /** Every call answers 503 while on. */
  setDown(on: boolean): void;
  setLatency(ms: number): void;
  /** Calls that reached the outcome (passed authentication and input checks). */
  requests(): number;
  close(): Promise<void>;
}

export interface PanSimulatorOptions {
  port?: number;
  host?: string;
  clientId?: string;
  clientSecret?: string;
  latencyMs?: number;
  /** Require Cashfree's request signature (a host that is not whitelisted): without a valid one, 403. */
  signature?: SignatureCheck;
  /** The signature's timestamp is checked against it (default the system clock). */
  clock?: Clock;
}

export interface PanSimulator extends SimulatorControls {
  clientId: string;
  clientSecret: string;
}

const PAN = /^[A-Z]{5}[0-9]{4}[A-Z]$/;

/** The parts both simulators share: JSON, latency, the down switch, the request count. */
function simulatorApp(state: { latencyMs: number; down: boolean }): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.use(express.json({ limit: '8kb' }));
  app.use((_req: Request, _res: Response, next: NextFunction) => {
    if (state.latencyMs > 0) setTimeout(next, state.latencyMs);
    else next();
  });
  return app;
}

/**
 * A PAN verification provider on loopback that answers as Cashfree Secure ID's PAN 360 documents (its
 * Verification OpenAPI 2023-12-18; fixtures/cashfree in the tests):
 *   POST /verification/pan/advance  {verification_id, pan, name?}  (x-client-id, x-client-secret)
 *     -> 200 {verification_id, reference_id, status: "VALID", message, pan, name_provided, registered_name,
 *             name_pan_card, first_name, last_name, type, gender, date_of_birth (DD-MM-YYYY), aadhaar_linked}
 *     -> 200 {verification_id, reference_id, status: "INVALID", message: "Invalid PAN", pan, name_provided}
 *     -> 400/401/403/502 {type, code, message}
 * Outcomes are chosen by the PAN (test-pans.ts). With `signature`, a call without a valid `x-cf-signature` is
 * Cashfree's 403.
 */
export async function startPanSimulator(options: PanSimulatorOptions = {}): Promise<PanSimulator> {
  const clientId = options.clientId ?? 'satyapan-pan-client';
  const clientSecret = options.clientSecret ?? 'satyapan-pan-secret';
  const state = { latencyMs: options.latencyMs ?? 0, down: false };
  let requests = 0;
  let reference = 1000;
  const app = simulatorApp(state);

  const clock = options.clock ?? systemClock;
  // On the operation only: an unknown path is Cashfree's 404 whoever asks.
  app.post('/verification/pan/advance', cashfreeGate({ clientId, clientSecret, signature: options.signature, now: () => clock.now() }), (req, res) => {
    if (state.down) return void cashfreeError(res, 502, 'internal_error', 'verification_failed', 'verification attempt failed');
    const body = (typeof req.body === 'object' && req.body !== null ? req.body : {}) as Record<string, unknown>;
    const { verification_id: verificationId, pan, name } = body;
    if (typeof verificationId !== 'string' || !/^[A-Za-z0-9._-]{1,50}$/.test(verificationId)) {
      return void cashfreeError(res, 400, 'validation_error', 'verification_id_value_invalid', 'verification_id can include only alphanum, dot, hyphen and underscores');
    }
    if (pan === undefined || pan === '') return void cashfreeError(res, 400, 'validation_error', 'pan_missing', 'pan is missing in the request.');
    if (typeof pan !== 'string' || !PAN.test(pan)) return void cashfreeError(res, 400, 'validation_error', 'pan_length_short', 'Enter valid PAN.');
    const scenario = panScenario(pan);
    if (scenario.kind === 'down') return void cashfreeError(res, 502, 'internal_error', 'verification_failed', 'verification attempt failed');
    requests++;
    const common = { verification_id: verificationId, reference_id: ++reference, pan, name_provided: typeof name === 'string' ? name : '' };
    if (scenario.kind === 'invalid') return void res.json({ ...common, status: 'INVALID', message: 'Invalid PAN' });
    const parts = scenario.name.split(' ');
    const business = pan.charAt(3) !== 'P';
    res.json({
      ...common,
      status: 'VALID',
      message: 'PAN verified successfully',
      registered_name: scenario.name,
      name_pan_card: scenario.name,
      first_name: business ? '' : parts[0],
      last_name: business ? '' : parts.slice(1).join(' '),
      type: business ? 'Company' : 'Individual or Person',
      gender: business ? '' : 'NA',
      // As PAN 360 writes it: day first (its example `27-10-2004`).
      date_of_birth: scenario.dateOfBirth.split('-').reverse().join('-'),
      aadhaar_linked: scenario.aadhaarLinked,
    });
  });
  app.use((_req: Request, res: Response) => void cashfreeError(res, 404, 'not_found_error', 'not_found', 'No such endpoint'));

  const { url, close } = await listenOnLoopback(app, options);
  return {
    url, clientId, clientSecret,
    setDown: (on) => void (state.down = on),
    setLatency: (ms) => void (state.latencyMs = ms),
    requests: () => requests,
    close,
  };
}

function cashfreeError(res: Response, status: number, type: string, code: string, message: string): void {
  res.status(status).json({ type, code, message });
}

export interface PanAadhaarLinkSimulatorOptions {
  port?: number;
  host?: string;
  latencyMs?: number;
}

/**
 * The Income Tax e-filing portal's pre-login "Link Aadhaar Status" service on loopback, answering with the codes
 * and words public callers of the service quote (fixtures/income-tax-portal in the tests):
 *   POST /iec/servicesapi/getEntity  {pan, aadhaarNumber, preLoginFlag: "Y", serviceName: "linkAadhaarPreLoginService"}
 *     -> 200 {messages: [{code, type: "INFO", desc}], errors: []}   EF40124 linked, EF40024 not linked
 *     -> 400 {messages: [{code, type: "ERROR", desc}], errors: []}  EF40026, EF40089, EF40077, Aadhaar linked to another PAN
 *     -> 503 {messages: [], errors: [...]}                          (down)
 * The linked answer masks both numbers as the portal does: two characters each side. No credentials, as the
 * portal's pre-login services have none. Outcomes are chosen by the PAN (test-pans.ts).
 */
export async function startPanAadhaarLinkSimulator(options: PanAadhaarLinkSimulatorOptions = {}): Promise<SimulatorControls> {
  const state = { latencyMs: options.latencyMs ?? 0, down: false };
  let requests = 0;
  const app = simulatorApp(state);

  app.post('/iec/servicesapi/getEntity', (req, res) => {
    const body = (typeof req.body === 'object' && req.body !== null ? req.body : {}) as Record<string, unknown>;
    if (body['serviceName'] !== 'linkAadhaarPreLoginService') return void portal(res, 400, 'EF00000', 'ERROR', 'Invalid service');
    if (state.down) return void res.status(503).json({ messages: [], errors: [{ code: 'EF503', desc: 'Service unavailable' }] });
    const { pan, aadhaarNumber } = body;
    if (typeof pan !== 'string' || !PAN.test(pan)) return void portal(res, 400, 'EF40089', 'ERROR', 'PAN does not exist.');
    if (typeof aadhaarNumber !== 'string' || !/^\d{12}$/.test(aadhaarNumber)) return void portal(res, 400, 'EF40077', 'ERROR', 'Please enter a valid Aadhaar Number.');
    const scenario = linkScenario(pan);
    if (scenario.kind === 'down') return void res.status(503).json({ messages: [], errors: [{ code: 'EF503', desc: 'Service unavailable' }] });
    requests++;
    switch (scenario.kind) {
      case 'linked':
        return void portal(res, 200, 'EF40124', 'INFO', `Your PAN ${masked(pan)} is already linked to given Aadhaar ${masked(aadhaarNumber)}`);
      case 'not_linked':
        return void portal(res, 200, 'EF40024', 'INFO', 'PAN not linked with Aadhaar. Please click on Link Aadhaar to link your Aadhaar with PAN.');
      case 'pan_linked_elsewhere':
        return void portal(res, 400, 'EF40026', 'ERROR', `Your PAN ${masked(pan)} is linked to some other Aadhaar ${masked(aadhaarNumber)}`);
      case 'linked_elsewhere':
        // No public caller names this answer's code; the adapter reads it by its words.
        return void portal(res, 400, 'EF40125', 'ERROR', `Your Aadhaar Number ${masked(aadhaarNumber)} is linked to some other PAN`);
      case 'pan_not_found':
        return void portal(res, 400, 'EF40089', 'ERROR', 'PAN does not exist.');
      case 'invalid_aadhaar':
        return void portal(res, 400, 'EF40077', 'ERROR', 'Please enter a valid Aadhaar Number.');
    }
  });
  app.use((_req: Request, res: Response) => void portal(res, 404, 'EF404', 'ERROR', 'Not found'));

  const { url, close } = await listenOnLoopback(app, options);
  return {
    url,
    setDown: (on) => void (state.down = on),
    setLatency: (ms) => void (state.latencyMs = ms),
    requests: () => requests,
    close,
  };
}

/** As the portal masks a number in its answers: `CUXXXXXX3Q`, `75XXXXXXXX32`. */
function masked(value: string): string {
  return `${value.slice(0, 2)}${'X'.repeat(value.length - 4)}${value.slice(-2)}`;
}

function portal(res: Response, status: number, code: string, type: 'INFO' | 'ERROR', desc: string): void {
  res.status(status).json({ messages: [{ code, type, desc }], errors: [], transactionId: randomUUID() });
}
