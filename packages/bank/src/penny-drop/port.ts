/**
 * The port every penny-drop provider adapter implements. A provider credits a small amount to the account
 * and reports what the bank said; adapters map the provider's vocabulary into this shape and throw
 * ServiceErrors (503 `Source Unavailable`, 500, ...) for anything that is not an answer about the account.
 */
export interface PennyDropRequest {
  /** Upper-case IFSC. */
  ifsc: string;
  accountNumber: string;
  /** Name the caller expects on the account (the provider may score it). */
  name?: string;
  mobile?: string;
}

export interface PennyDropOutcome {
  /** The provider's own status code, for logs and metrics (e.g. `ACCOUNT_IS_VALID`). Never identity data. */
  providerCode: string;
  /** Our message, in the vendor's vocabulary ("Account is blocked", ...). */
  message: string;
  /** Whether the account exists; absent when the bank's answer does not tell (e.g. the bank is offline). */
  accountExists?: boolean;
  nameAtBank?: string;
  utr?: string;
  /** True when money was credited by this call. */
  deposited: boolean;
  /** True when the answer is about the account itself and stays true for a while (worth caching). */
  definitive: boolean;
}

export interface PennyDropProvider {
  /** Short name for logs, e.g. "cashfree". */
  readonly name: string;
  verify(request: PennyDropRequest): Promise<PennyDropOutcome>;
}
