import { constants, createPublicKey, publicEncrypt, type KeyObject } from 'node:crypto';
import { requireHttpUrl, requireText } from '../options.js';

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

/**
 * The base URL of a Cashfree adapter (as {@link cashfreeBaseUrl} makes it), after checking its settings: the
 * URL and both credentials present, each missing one an OptionError naming `owner` and the option.
 */
export function checkedCashfreeBaseUrl(owner: string, options: { baseUrl?: unknown } & Partial<CashfreeCredentials>): string {
  const url = requireHttpUrl(owner, 'baseUrl', options.baseUrl, 'the Verification API URL, https://api.cashfree.com/verification (or https://sandbox.cashfree.com/verification)');
  requireText(owner, 'clientId', options.clientId, 'the x-client-id of your Cashfree account');
  requireText(owner, 'clientSecret', options.clientSecret, 'the x-client-secret of your Cashfree account');
  return cashfreeBaseUrl(url.href);
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
 * Why Cashfree refused a call, for the one log line an operator needs: our setup (the credentials, the egress IP
 * or the signature, its setup 400s `XClientIdMissing`, `UsingTestCredentialsInProd`, "service not enabled") or our
 * standing with it (its 422s about the wallet and a verification already running). One map, so that every
 * adapter's log line and penny drop's status codes say the same thing.
 */
export const CASHFREE_REFUSAL_CAUSES = {
  credentials: 'Cashfree refused our credentials: check the client id and secret of this environment',
  signature: 'Cashfree refused the call: the x-cf-signature did not verify (check the public key and the host clock) and the IP is not whitelisted',
  ipNotWhitelisted: 'Cashfree refused the call: the egress IP is not whitelisted; whitelist it or set the public key to sign calls',
  'x-client-id_missing': 'the x-client-id header is missing',
  'x-client-secret_missing': 'the x-client-secret header is missing',
  'x-client-secret_value_invalid': 'the client secret belongs to the other environment (test keys in production or the reverse)',
  invalid_request: 'the product is not enabled on the Cashfree account',
  insufficient_balance: 'the Cashfree wallet has too little balance: top it up',
  verification_already_under_process: 'the same verification is already running at Cashfree',
} as const;

/** The 400 codes about our setup: the caller can do nothing about them. */
const SETUP_CODES = ['x-client-id_missing', 'x-client-secret_missing', 'x-client-secret_value_invalid', 'invalid_request'] as const;
/** The 422 codes about our standing: nothing wrong with the details sent, and another try may pass. */
const STANDING_CODES = ['insufficient_balance', 'verification_already_under_process'] as const;

export interface CashfreeRefusal {
  /** INTERNAL for our setup (500), SOURCE_UNAVAILABLE for our standing (503, retryable). */
  error: 'INTERNAL' | 'SOURCE_UNAVAILABLE';
  cause: string;
}

/**
 * What a Cashfree refusal means when it is about us rather than the details sent (401, 403, the setup 400s, the
 * wallet and concurrency 422s); null when the answer is the adapter's to read.
 */
export function cashfreeRefusal(status: number, providerCode: string, signed: boolean): CashfreeRefusal | null {
  const causes = CASHFREE_REFUSAL_CAUSES;
  if (status === 401) return { error: 'INTERNAL', cause: causes.credentials };
  if (status === 403) return { error: 'INTERNAL', cause: signed ? causes.signature : causes.ipNotWhitelisted };
  const setup = SETUP_CODES.find((code) => code === providerCode);
  if (status === 400 && setup) return { error: 'INTERNAL', cause: causes[setup] };
  const standing = STANDING_CODES.find((code) => code === providerCode);
  if (status === 422 && standing) return { error: 'SOURCE_UNAVAILABLE', cause: causes[standing] };
  return null;
}
