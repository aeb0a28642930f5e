/** A simulated provider's rate limit: at most `requests` verifications in any window of `perMs`. */
export interface RateLimitSetting {
  requests: number;
  perMs: number;
}

/**
 * What a simulator counts of the verifications it answers: calls per account (so a test can prove no account was
 * asked twice) and, with a rate limit, the requests refused over it (a sliding window of admitted start times).
 */
export class CallCounter {
  readonly byAccount = new Map<string, number>();
  refused = 0;
  private readonly admitted: number[] = [];

  constructor(private readonly limit?: RateLimitSetting) {}

  /** False (and counted) when the request is over the rate limit. */
  admit(now = Date.now()): boolean {
    if (!this.limit) return true;
    while (this.admitted.length > 0 && (this.admitted[0] as number) <= now - this.limit.perMs) this.admitted.shift();
    if (this.admitted.length >= this.limit.requests) {
      this.refused++;
      return false;
    }
    this.admitted.push(now);
    return true;
  }

  count(account: string): void {
    this.byAccount.set(account, (this.byAccount.get(account) ?? 0) + 1);
  }
}
