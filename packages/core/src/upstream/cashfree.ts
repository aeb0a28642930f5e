import { constants, createPublicKey, publicEncrypt, type KeyObject } from 'node:crypto';

/**
 * What the three Cashfree Secure ID adapters (penny drop, PAN 360, offline Aadhaar OTP) share: one base URL
 * convention and the optional request signature.
 *
 * Base URL: the server URL of Cashfree's Verification OpenAPI, `https://api.cashfree.com/verification`
 * (production) or `https://sandbox.cashfree.com/verification`; operations hang off it (`/bank-account/sync`,
 * `/pan/advance`, `/offline-aadhaar/otp`). A base URL given without the `/verification` segment (the host alone)
 * gets it appended, so that either spelling reaches the same operations.
 */
export function cashfreeBaseUrl(baseUrl: string): string {
  const trimmed = baseUrl.replace(/\/+$/, '');
  return /\/verification$/.test(trimmed) ? trimmed : `${trimmed}/verification`;
}

/** The Cashfree credentials and, for hosts without a whitelisted static IP, the public key to sign with. */
export interface CashfreeCredentials {
  clientId: string;
  clientSecret: string;
  /**
   * Cashfree's public key (PEM) from the dashboard's "2FA" settings. When set, every call carries
   * `x-cf-signature`: the RSA-OAEP encryption of `clientId.unixSeconds` with this key, base64. Production
   * refuses a call that has neither a whitelisted source IP nor a valid signature (403).
   */
  publicKeyPem?: string;
  /** Sent as `x-api-version` when set. */
  apiVersion?: string;
}

/** The headers every Cashfree Secure ID call carries; the signature is fresh per call (it holds a timestamp). */
export class CashfreeHeaders {
  private readonly key: KeyObject | null;

  constructor(private readonly credentials: CashfreeCredentials, private readonly now: () => number = Date.now) {
    // Parsed once, so that a malformed key fails at startup rather than on the first call.
    this.key = credentials.publicKeyPem ? createPublicKey(credentials.publicKeyPem) : null;
  }

  get signed(): boolean {
    return this.key !== null;
  }

  current(): Record<string, string> {
    const headers: Record<string, string> = {
      'x-client-id': this.credentials.clientId,
      'x-client-secret': this.credentials.clientSecret,
    };
    if (this.credentials.apiVersion) headers['x-api-version'] = this.credentials.apiVersion;
    if (this.key) headers['x-cf-signature'] = cashfreeSignature(this.credentials.clientId, this.key, this.now());
    return headers;
  }
}

/** `base64(RSA-OAEP(publicKey, clientId + "." + unixSeconds))`, as Cashfree's "2FA API Signature Generation" page says. */
export function cashfreeSignature(clientId: string, key: KeyObject | string, nowMs: number): string {
  const data = Buffer.from(`${clientId}.${Math.floor(nowMs / 1000)}`, 'utf8');
  return publicEncrypt({ key, padding: constants.RSA_PKCS1_OAEP_PADDING }, data).toString('base64');
}

/**
 * 400 codes Cashfree answers about our setup rather than the details sent (its examples `XClientIdMissing`,
 * `UsingTestCredentialsInProd` and "service not enabled"): the caller can do nothing about them.
 */
const SETUP_CODES: Readonly<Record<string, string>> = {
  'x-client-id_missing': 'the x-client-id header is missing',
  'x-client-secret_missing': 'the x-client-secret header is missing',
  'x-client-secret_value_invalid': 'the client secret belongs to the other environment (test keys in production or the reverse)',
  invalid_request: 'the product is not enabled on the Cashfree account',
};

/**
 * What is wrong with our setup when Cashfree refuses a call for it (401, 403, the setup 400s), for the one log
 * line an operator needs; null when the refusal is about the details sent.
 */
export function cashfreeSetupProblem(status: number, providerCode: string, signed: boolean): string | null {
  if (status === 401) return 'Cashfree refused our credentials: check the client id and secret of this environment';
  if (status === 403) {
    return signed
      ? 'Cashfree refused the call: the x-cf-signature did not verify (check the public key and the host clock) and the IP is not whitelisted'
      : 'Cashfree refused the call: the egress IP is not whitelisted; whitelist it or set the public key to sign calls';
  }
  if (status === 400) return SETUP_CODES[providerCode] ?? null;
  return null;
}
