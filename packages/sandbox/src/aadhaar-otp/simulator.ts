import { createHash } from 'node:crypto';
import express, { type NextFunction, type Request, type Response } from 'express';
import { systemClock, type Clock } from '@satyapan/core';
import { listenOnLoopback } from '../listen.js';
import { cashfreeGate, type SignatureCheck } from '../cashfree-signature.js';
import {
  AADHAAR_TEST_NUMBERS, AADHAAR_TEST_OTP, VENDOR_AADHAAR_NUMBERS as V, VENDOR_AADHAAR_REFERENCE_IDS, VENDOR_SOURCE_UNAVAILABLE_OTP,
} from './test-numbers.js';

/**
 * An offline-Aadhaar (OKYC) OTP provider on loopback that answers as Cashfree Secure ID's offline Aadhaar API
 * documents (its Verification OpenAPI 2023-12-18; fixtures/cashfree in the tests):
 *   POST /verification/offline-aadhaar/otp     {aadhaar_number}  -> {status, message, ref_id (a number)}
 *                                                                  409 verification_pending (sent moments ago)
 *   POST /verification/offline-aadhaar/verify  {otp, ref_id}     -> the e-KYC record (ref_id a string), or
 *     400 {type, code: verification_failed, message} told apart by message, 400 otp_invalid / otp_empty,
 *     409 verification_pending (still processing)
 * Clients authenticate with `x-client-id` and `x-client-secret` (and `x-cf-signature` when `signature` is set).
 */

export interface AadhaarOtpSimulatorOptions {
  port?: number;
  host?: string;
  clientId?: string;
  clientSecret?: string;
  /** How long an OTP can be verified; the identity authority allows about 10 minutes. */
  otpTtlSeconds?: number;
  clock?: Clock;
  /** Require Cashfree's request signature (a host that is not whitelisted): without a valid one, 403. */
  signature?: SignatureCheck;
}

export interface AadhaarOtpSimulator {
  url: string;
  clientId: string;
  clientSecret: string;
  /** Every request answers Cashfree's documented 500 (`api_error`) while on. */
  setDown(on: boolean): void;
  /** Number of OTPs sent so far (requests that reached the "send" step). */
  otpRequests(): number;
  close(): Promise<void>;
}

interface PendingOtp {
  number: string;
  expiresAt: number;
  verified: boolean;
}

interface Person {
  name: string;
  dob: string;
  gender: 'M' | 'F' | 'T';
  careOf: string;
  address: Record<'country' | 'dist' | 'house' | 'landmark' | 'pincode' | 'po' | 'state' | 'street' | 'subdist' | 'vtc', string>;
  mobile: string;
  email: string;
}

const PEOPLE: Record<string, Person> = {
  [AADHAAR_TEST_NUMBERS.otpSent]: {
    name: 'Anil Kumar Sharma', dob: '21-04-1985', gender: 'M', careOf: 'S/O: Ramesh Sharma', mobile: '9812345670',
    email: 'anil.sharma@example.in',
    address: { country: 'India', dist: 'Bengaluru Urban', house: 'Mangal Nivas, 12', landmark: 'Near Water Tank', pincode: '560011',
      po: 'Jayanagar', state: 'Karnataka', street: '9th Cross Road', subdist: 'Bengaluru South', vtc: 'Bengaluru' },
  },
  [AADHAAR_TEST_NUMBERS.otpSentSecond]: {
    name: 'Fatima Begum', dob: '03-12-1991', gender: 'F', careOf: 'D/O: Abdul Rahman', mobile: '9700012345',
    email: 'fatima.begum@example.in',
    address: { country: 'India', dist: 'Hyderabad', house: '8-2-293', landmark: 'Opp. Post Office', pincode: '500034',
      po: 'Banjara Hills', state: 'Telangana', street: 'Road No. 12', subdist: 'Shaikpet', vtc: 'Hyderabad' },
  },
  // The person of the vendor's verify example.
  [V.otpSent]: {
    name: 'John Doe', dob: '21-04-1985', gender: 'M', careOf: 'S/O: Johnny Doe', mobile: '9876500012', email: 'john.doe@example.in',
    address: { country: 'India', dist: 'Bengaluru', house: 'Mangal Kanaka Niwas', landmark: '', pincode: '581615',
      po: 'Bengaluru', state: 'Karnataka', street: 'Main Cross 3rd', subdist: '', vtc: 'Bengaluru' },
  },
};

const SENT_OK = new Set<string>([
  AADHAAR_TEST_NUMBERS.otpSent, AADHAAR_TEST_NUMBERS.otpSentSecond, AADHAAR_TEST_NUMBERS.otpExpires,
  AADHAAR_TEST_NUMBERS.verificationPending, V.otpSent, V.invalidOtp, V.otpExpired, V.underProcess,
]);
const EXPIRING = new Set<string>([AADHAAR_TEST_NUMBERS.otpExpires, V.otpExpired]);
const PENDING = new Set<string>([AADHAAR_TEST_NUMBERS.verificationPending, V.underProcess]);
const VENDOR_NUMBERS = new Set<string>(Object.values(V));

/** A 1x1 PNG as the photo (the real record carries a JPEG). */
const PHOTO = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

export async function startAadhaarOtpSimulator(options: AadhaarOtpSimulatorOptions = {}): Promise<AadhaarOtpSimulator> {
  const clock = options.clock ?? systemClock;
  const clientId = options.clientId ?? 'satyapan-okyc-client';
  const clientSecret = options.clientSecret ?? 'satyapan-okyc-secret';
  const ttlMs = (options.otpTtlSeconds ?? 600) * 1000;
  const pending = new Map<number, PendingOtp>();
  let nextRefId = 21637861;
  let down = false;
  let sent = 0;

  const app = express();
  app.disable('x-powered-by');
  app.use(express.json({ limit: '8kb' }));
  app.use(cashfreeGate({ clientId, clientSecret, signature: options.signature, now: () => clock.now() }));
  app.use((_req: Request, res: Response, next: NextFunction) => {
    if (down) return void failure(res, 500, UNKNOWN_ERROR, 'api_error', 'internal_error');
    next();
  });

  app.post('/verification/offline-aadhaar/otp', (req, res) => {
    const number = (req.body as { aadhaar_number?: unknown } | undefined)?.aadhaar_number;
    if (typeof number !== 'string' || !/^[0-9]{12}$/.test(number)) {
      return void failure(res, 400, 'Please enter aadhaar number in numeric format', 'aadhaar_invalid', 'validation_error');
    }
    if (number === AADHAAR_TEST_NUMBERS.providerError) {
      return void failure(res, 500, 'Unable to validate, please retry later', 'verification_failed', 'internal_error', { error: { refId: nextRefId } });
    }
    if (number === V.sourceUnavailable) return void failure(res, 500, UNKNOWN_ERROR, 'api_error', 'internal_error');
    if (number === V.alreadyGenerated) {
      return void failure(res, 409, 'Otp generated for this aadhaar, please try after some time', 'verification_pending', 'validation_error');
    }
    sent += 1;
    const refId = VENDOR_AADHAAR_REFERENCE_IDS[number] ?? nextRefId++;
    if (SENT_OK.has(number)) {
      pending.set(refId, { number, expiresAt: clock.now() + ttlMs, verified: false });
      return void res.json({ status: 'SUCCESS', message: 'OTP sent successfully', ref_id: refId });
    }
    // Sent, but the reference it answers with is one the verify step does not know.
    if (number === V.invalidReference) return void res.json({ status: 'SUCCESS', message: 'OTP sent successfully', ref_id: refId });
    if (number === AADHAAR_TEST_NUMBERS.notLinkedToMobile) {
      return void res.json({ status: 'SUCCESS', message: 'Aadhaar not linked to mobile number', ref_id: refId });
    }
    res.json({ status: 'INVALID', message: 'Invalid Aadhaar Card', ref_id: refId });
  });

  app.post('/verification/offline-aadhaar/verify', (req, res) => {
    const body = (req.body ?? {}) as { otp?: unknown; ref_id?: unknown };
    if (body.otp === undefined || body.otp === '') return void failure(res, 400, 'Please enter the otp in the request', 'otp_empty', 'validation_error');
    if (typeof body.otp !== 'string' || !/^[0-9]{6}$/.test(body.otp)) {
      return void failure(res, 400, 'Please enter a valid otp.', 'otp_invalid', 'validation_error');
    }
    const refId = Number(body.ref_id);
    const entry = Number.isSafeInteger(refId) ? pending.get(refId) : undefined;
    // Cashfree documents no answer for a reference it does not know; its answer for a session that is over is this one.
    if (!entry || entry.verified) return void verificationFailed(res, 'Session expired, please generate a new OTP');
    if (VENDOR_NUMBERS.has(entry.number) && body.otp === VENDOR_SOURCE_UNAVAILABLE_OTP) {
      return void failure(res, 500, 'Unable to validate, please retry later', 'verification_failed', 'internal_error', { error: { refId } });
    }
    if (PENDING.has(entry.number)) {
      return void failure(res, 409, 'Processing request, please try after 30 sec', 'verification_pending', 'validation_error');
    }
    if (EXPIRING.has(entry.number) || entry.expiresAt <= clock.now()) return void verificationFailed(res, 'Otp expired');
    if (body.otp !== AADHAAR_TEST_OTP || entry.number === V.invalidOtp) {
      return void failure(res, 400, 'OTP entered is invalid', 'verification_failed', 'validation_error', { error: null, refId });
    }
    entry.verified = true;
    res.json(ekycRecord(refId, PEOPLE[entry.number] as Person));
  });

  app.use((_req, res) => void failure(res, 404, 'Not found', 'not_found', 'not_found_error'));

  const { url, close } = await listenOnLoopback(app, options);
  return {
    url,
    clientId,
    clientSecret,
    setDown: (on) => void (down = on),
    otpRequests: () => sent,
    close,
  };
}

function ekycRecord(refId: number, person: Person): Record<string, unknown> {
  const a = person.address;
  const shareCode = '1234';
  return {
    // As Cashfree's verify example writes them: ref_id a string, year_of_birth a number.
    ref_id: String(refId), status: 'VALID', message: 'Aadhaar Card Exists', care_of: person.careOf,
    address: [a.house, a.street, a.landmark, a.vtc, a.dist, a.state, a.country, a.pincode].filter(Boolean).join(', '),
    dob: person.dob, year_of_birth: Number(person.dob.slice(6)), gender: person.gender, name: person.name,
    email: sha256(`${person.email}${shareCode}`), mobile_hash: sha256(`${person.mobile}${shareCode}`),
    split_address: { ...a }, photo_link: PHOTO, share_code: shareCode,
  };
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

const UNKNOWN_ERROR = 'something went wrong, please try after some time';

function failure(res: Response, status: number, message: string, code: string, type: string, extra: Record<string, unknown> = {}): void {
  res.status(status).json({ type, code, message, ...extra });
}

/** Cashfree's 400 `verification_failed`, whose `message` says what failed. */
function verificationFailed(res: Response, message: string): void {
  failure(res, 400, message, 'verification_failed', 'validation_error', { error: { refId: 1 } });
}
