import type { Logger, Product } from '@satyapan/core';

/** What a row check is told besides the row: whose caches to use, whether to read them, where to log. */
export interface RowCheckContext {
  /** The API key of the client that submitted the job: caches are per API key, as for a single call. */
  apiKey: string;
  /** The job's `accept_cache`, as `x-accept-cache: true` on a single call. */
  acceptCache: boolean;
  logger: Logger;
  /**
   * To be called right before the upstream is asked (and not when the answer comes from a cache or another
   * caller's flight): it waits for the upstream's rate limit and journals a paid call before it is made. A
   * rejection means the call must not be made (the bank's checks pass it as `beforeProviderCall`).
   */
  beforeCall: () => Promise<void>;
}

/** The answer of one row's check: the kind's result columns (absent values are written as empty cells). */
export type RowResult = Record<string, string | number | boolean | undefined>;

/**
 * One kind of row check (`penny_drop`, `penny_less`, `ifsc`, ...). A bulk job runs one kind over every row of
 * its CSV. Adding a kind (PAN verification, say) is one more entry in the registry the service and the worker
 * are given: the job machinery knows nothing about what a kind checks.
 */
export interface RowCheck<Input = unknown> {
  /** The `kind` of the submit request. */
  readonly kind: string;
  /** Product the client must be enabled for to submit jobs of this kind. */
  readonly product: Product;
  /** One line for the API reference. */
  readonly description: string;
  /** CSV columns the header must have; every other column but `optional` and `reference` is ignored. */
  readonly required: readonly string[];
  readonly optional: readonly string[];
  /**
   * Input columns the result file echoes masked, all but their last four characters as `X` (the Aadhaar number:
   * UIDAI's rules keep it out of any file we make); the other input columns are echoed as sent.
   */
  readonly masked?: readonly string[];
  /** Columns of the result file after `outcome`, `code` and `message`. */
  readonly resultColumns: readonly string[];
  /**
   * The upstream whose rate limit paces this kind's calls (the names of `rateLimits`), or null for a check
   * answered locally (no calls to pace).
   */
  readonly upstream: string | null;
  /**
   * True when a call costs money or has an effect (a penny drop credits the account): such a call is never
   * repeated for a row, even after a worker dies with it in flight.
   */
  readonly paid: boolean;
  /** Checks a row's cells (throws a ServiceError naming the field for a bad row) and builds the check's input. */
  parse(cells: Readonly<Record<string, string>>): Input;
  /**
   * Runs the check. Returns the result columns; throws a ServiceError when the check itself failed (the
   * upstream is unavailable, refused, ...), which becomes the row's error. `message` is the result's message.
   */
  check(input: Input, context: RowCheckContext): Promise<{ message?: string; result: RowResult }>;
}

/** The kinds a service or worker serves, by name. The same registry must be given to the API and the workers. */
export class RowCheckRegistry {
  private readonly byKind = new Map<string, RowCheck>();

  constructor(checks: Iterable<RowCheck<any>>) {
    for (const check of checks) {
      if (this.byKind.has(check.kind)) throw new Error(`Row check kind ${check.kind} is registered twice`);
      this.byKind.set(check.kind, check);
    }
  }

  get(kind: string): RowCheck | undefined {
    return this.byKind.get(kind);
  }

  get kinds(): string[] {
    return [...this.byKind.keys()];
  }

  all(): RowCheck[] {
    return [...this.byKind.values()];
  }
}
