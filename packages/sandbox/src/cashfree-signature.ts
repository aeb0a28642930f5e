import { constants, privateDecrypt } from 'node:crypto';
import type { Request, Response } from 'express';

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

/** True when the call may go on; otherwise the 403 has been sent. */
export function admitSigned(req: Request, res: Response, clientId: string, check: SignatureCheck | undefined, nowMs: number): boolean {
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
