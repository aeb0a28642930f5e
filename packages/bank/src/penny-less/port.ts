/**
 * The port every penny-less provider adapter implements. A penny-less provider tells who holds an account
 * without moving money (it asks the bank's or the payment network's records); adapters map the provider's
 * vocabulary into this shape and throw ServiceErrors (503 `Source Unavailable`, 500, ...) for anything that
 * is not an answer about the account.
 */
export interface PennyLessRequest {
  /** Upper-case IFSC. */
  ifsc: string;
  accountNumber: string;
  /** Name and mobile the caller sent, for providers that take them (the vendor's API accepts both). */
  name?: string;
  mobile?: string;
}

export interface PennyLessOutcome {
  /** The provider's own status or reason code, for logs and metrics. Never identity data. */
  providerCode: string;
  /** Our message in the vendor's vocabulary; absent when the account was found (the vendor sends none then). */
  message?: string;
  /** Whether the account exists; absent when the answer does not tell (e.g. the bank is offline). */
  accountExists?: boolean;
  /** The account holder's name as the bank has it, for an account that was found. */
  nameAtBank?: string;
  /** True when the answer is about the account itself and stays true for a while (worth caching). */
  definitive: boolean;
}

export interface PennyLessProvider {
  /** Short name for logs, e.g. "setu". */
  readonly name: string;
  verify(request: PennyLessRequest): Promise<PennyLessOutcome>;
  /** Releases kept-alive connections, if the adapter keeps any. */
  close?(): void;
}
