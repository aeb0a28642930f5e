import { constants, privateDecrypt } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import { hasClientCredentials } from './client-credentials.js';

/**
 * Cashfree's second factor, as its production answers a host that is not whitelisted: a call must carry
 * `x-cf-signature`, the RSA-OAEP encryption of `clientId.unixSeconds` with Cashfree's public key, base64; without
 * a valid one the answer is Cashfree's documented 403 (`ip_validation_failed`). The simulators hold the private
 * half of a test key pair to check it.
 */
export interface SignatureCheck {
  /** The private key matching the public key given to the adapter (PEM). */
  privateKeyPem: string;
  /** How old a signature's timestamp may be (default 300 s; Cashfree does not publish its window). */
  maxAgeSeconds?: number;
}

const IP_NOT_WHITELISTED = {
  type: 'authentication_error',
  code: 'ip_validation_failed',
  message: 'IP not whitelisted your current ip is 127.0.0.1.For IP whitelisting assistance, visit our guide at https://www.cashfree.com/docs/secure-id/get-started/integration/ip-whitelisting-verification',
};

const INVALID_CREDENTIALS = {
  type: 'authentication_error',
  code: 'authentication_failed',
  message: 'Invalid clientId and clientSecret combination',
};

export interface CashfreeGateOptions {
  clientId: string;
  clientSecret: string;
  /** When set, a call must also carry a valid `x-cf-signature`. */
  signature: SignatureCheck | undefined;
  /** Milliseconds since the epoch: the signature's timestamp is checked against it. */
  now: () => number;
}

/**
 * What every Cashfree Verification operation checks first, in Cashfree's order: the client id and secret (else its
 * 401), then the signature when the simulator asks for one (else its 403). A simulator's down switch comes after
 * it, as Cashfree's own outages answer only a caller it has let in.
 */
export function cashfreeGate(options: CashfreeGateOptions): RequestHandler {
  return (req, res, next) => {
    if (!hasClientCredentials(req, options)) return void res.status(401).json(INVALID_CREDENTIALS);
    if (!admitSigned(req, res, options.clientId, options.signature, options.now())) return;
    next();
  };
}

/** True when the call may go on; otherwise the 403 has been sent. */
function admitSigned(req: Request, res: Response, clientId: string, check: SignatureCheck | undefined, nowMs: number): boolean {
  if (!check) return true;
  if (validSignature(req.header('x-cf-signature'), clientId, check, nowMs)) return true;
  res.status(403).json(IP_NOT_WHITELISTED);
  return false;
}

function validSignature(signature: string | undefined, clientId: string, check: SignatureCheck, nowMs: number): boolean {
  if (!signature) return false;
  let plain: string;
  try {
    plain = privateDecrypt({ key: check.privateKeyPem, padding: constants.RSA_PKCS1_OAEP_PADDING }, Buffer.from(signature, 'base64')).toString('utf8');
  } catch {
    return false;
  }
  const dot = plain.lastIndexOf('.');
  if (dot < 0 || plain.slice(0, dot) !== clientId) return false;
  const seconds = Number(plain.slice(dot + 1));
  return Number.isInteger(seconds) && Math.abs(nowMs / 1000 - seconds) <= (check.maxAgeSeconds ?? 300);
}
