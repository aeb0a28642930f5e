import { CACHE_KEY_SECRET_HINT, requireSecret, type Logger, type PreparedJson } from '@satyapan/core';
import type { BranchView } from './ifsc/branch.js';
import type { BranchDirectory } from './ifsc/directory.js';
import { loadDirectory } from './ifsc/importer.js';
import { loadSampleDirectory } from './ifsc/sample.js';
import { IfscService, type BranchSearchPage, type SearchParams } from './ifsc/service.js';
import { SwappableDirectory } from './ifsc/swappable.js';
import {
  BankVerificationService, type BankVerificationOptions, type PennyDropResult, type VerifyAccountInput,
} from './penny-drop/service.js';
import {
  PennyLessVerificationService, type PennyLessOptions, type PennyLessResult, type PennyLessVerifyInput,
} from './penny-less/service.js';

/**
 * The bank area as the router uses it: branch lookup and search over a hot-swappable directory, and
 * penny-drop and penny-less verification when their providers are configured.
 */
export class BankService {
  private readonly ifsc: IfscService;

  constructor(
    readonly directory: SwappableDirectory,
    private readonly verification?: BankVerificationService,
    private readonly pennyLess?: PennyLessVerificationService,
  ) {
    this.ifsc = new IfscService(directory);
  }

  /** Whether penny-drop verification is configured (the router mounts the verify route only then). */
  get canVerify(): boolean {
    return this.verification !== undefined;
  }

  /** Whether penny-less verification is configured (the router mounts the penniless-verify route only then). */
  get canVerifyPennyLess(): boolean {
    return this.pennyLess !== undefined;
  }

  lookupIfsc(ifsc: string): BranchView {
    return this.ifsc.lookupIfsc(ifsc);
  }

  /** `lookupIfsc`'s answer serialized once per IFSC (bounded cache, emptied when the directory is swapped). */
  lookupIfscJson(ifsc: string): PreparedJson {
    return this.ifsc.lookupIfscJson(ifsc);
  }

  searchBranches(params: SearchParams): BranchSearchPage {
    return this.ifsc.searchBranches(params);
  }

  verifyAccount(input: VerifyAccountInput, logger?: Logger): Promise<PennyDropResult> {
    if (!this.verification) throw new Error('Bank account verification is not configured');
    return this.verification.verifyAccount(input, logger);
  }

  verifyAccountPennyLess(input: PennyLessVerifyInput, logger?: Logger): Promise<PennyLessResult> {
    if (!this.pennyLess) throw new Error('Penny-less verification is not configured');
    return this.pennyLess.verifyAccount(input, logger);
  }

  /** Releases the providers' kept-alive connections. */
  close(): void {
    this.pennyLess?.close();
  }
}

export interface BankServiceOptions {
  /** A loaded directory, or the path of a snapshot (or of a Razorpay source); default: the shipped sample. */
  directory?: BranchDirectory | string;
  /** Penny-drop settings; without them the penny-drop route is not mounted. */
  verification?: BankVerificationOptions;
  /** Penny-less settings; without them the penniless-verify route is not mounted. */
  pennyLess?: PennyLessOptions;
  /**
   * Refuse a penny drop or penny-less verification (API and bulk rows) for an IFSC the directory does not know,
   * with the vendor's 422 `Invalid IFSC provided` and no provider call (default true: the call is paid and the
   * bank would refuse it). Set false for a host whose directory lags RBI's list, so that new branches still verify.
   */
  refuseUnknownIfsc?: boolean;
}

export async function createBankService(options: BankServiceOptions = {}): Promise<BankService> {
  const source = options.directory;
  const directory = typeof source === 'string' ? await loadDirectory(source) : source ?? await loadSampleDirectory();
  const holder = directory instanceof SwappableDirectory ? directory : new SwappableDirectory(directory);
  // Asked of the holder at each call, so a reloaded or swapped directory decides from then on.
  const gate = options.refuseUnknownIfsc === false ? {} : { knownIfsc: (ifsc: string) => holder.lookup(ifsc) !== undefined };
  const verification = options.verification ? new BankVerificationService({ ...keyed('verification', options.verification), ...gate }) : undefined;
  const pennyLess = options.pennyLess ? new PennyLessVerificationService({ ...keyed('pennyLess', options.pennyLess), ...gate }) : undefined;
  return new BankService(holder, verification, pennyLess);
}

/** The settings, once their cache key secret is there: an error naming `<option>.keySecret` otherwise. */
function keyed<T extends { keySecret: string }>(option: string, settings: T): T {
  requireSecret('createBankService', `${option}.keySecret`, settings.keySecret, 16, CACHE_KEY_SECRET_HINT);
  return settings;
}
