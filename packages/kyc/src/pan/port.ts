/**
 * The ports of PAN verification and of the PAN-Aadhaar link status: one interface each, so a deployment can
 * put another provider behind either without touching the service. Adapters map their provider's vocabulary
 * into these shapes and throw ServiceErrors (503 `Source Unavailable`, 429, 500) for anything that is not an
 * answer about the PAN.
 */

/** A cacheable answer carries the provider's own code (for logs and metrics, never identity data). */
interface ProviderAnswer {
  providerCode: string;
  /** True when the answer is about the PAN itself and stays true for a while (worth caching). */
  definitive: boolean;
}

export interface PanLookupRequest {
  /** Upper-case, checked against the PAN pattern. */
  pan: string;
  /** The name the caller expects; sent because providers require one, never trusted for the comparison. */
  name: string;
}

/** What the Income Tax Department's records say about a PAN, as the provider reports them. */
export interface PanRecord extends ProviderAnswer {
  /** Whether the PAN exists and is active. */
  valid: boolean;
  /** The holder's name as registered (what `name_as_per_pan_match` is computed against). */
  registeredName?: string;
  /** Date of birth or incorporation as registered, YYYY-MM-DD. */
  dateOfBirth?: string;
  /** Whether Aadhaar is seeded in (linked to) the PAN, when the provider says. */
  aadhaarSeeded?: boolean;
  /** A status remark the provider gives (deceased holder, merger, deleted, ...); null when it gives none. */
  remarks: string | null;
}

export interface PanVerificationProvider {
  /** Short name for logs, e.g. "cashfree". */
  readonly name: string;
  lookup(request: PanLookupRequest): Promise<PanRecord>;
  /** Releases kept-alive connections. */
  close?(): void;
}

export interface PanAadhaarLinkRequest {
  pan: string;
  aadhaarNumber: string;
}

/**
 * `linked_elsewhere`: the Aadhaar number is linked to some other PAN; `pan_linked_elsewhere`: the PAN is linked,
 * to some other Aadhaar number.
 */
export type PanAadhaarLinkState = 'linked' | 'not_linked' | 'linked_elsewhere' | 'pan_linked_elsewhere' | 'pan_not_found' | 'invalid_aadhaar';

export interface PanAadhaarLinkOutcome extends ProviderAnswer {
  state: PanAadhaarLinkState;
  /** The last four digits of the linked Aadhaar number, as the source shows them masked (`linked` only). */
  aadhaarLastFour?: string;
}

export interface PanAadhaarLinkProvider {
  readonly name: string;
  linkStatus(request: PanAadhaarLinkRequest): Promise<PanAadhaarLinkOutcome>;
  close?(): void;
}
