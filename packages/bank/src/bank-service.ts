import type { Logger } from '@satyapan/core';
import type { BranchView } from './ifsc/branch.js';
import type { BranchDirectory } from './ifsc/directory.js';
import { loadDirectory } from './ifsc/importer.js';
import { loadSampleDirectory } from './ifsc/sample.js';
import type { BranchPage } from './ifsc/search.js';
import { IfscService, type SearchParams } from './ifsc/service.js';
import { SwappableDirectory } from './ifsc/swappable.js';
import {
  BankVerificationService, type BankVerificationOptions, type PennyDropResult, type VerifyAccountInput,
} from './penny-drop/service.js';

/**
 * The bank area as the router uses it: branch lookup and search over a hot-swappable directory, and
 * penny-drop verification when a provider is configured.
 */
export class BankService {
  private readonly ifsc: IfscService;

  constructor(readonly directory: SwappableDirectory, private readonly verification?: BankVerificationService) {
    this.ifsc = new IfscService(directory);
  }

  /** Whether account verification is configured (the router mounts the verify route only then). */
  get canVerify(): boolean {
    return this.verification !== undefined;
  }

  lookupIfsc(ifsc: string): BranchView {
    return this.ifsc.lookupIfsc(ifsc);
  }

  searchBranches(params: SearchParams): BranchPage<BranchView> {
    return this.ifsc.searchBranches(params);
  }

  verifyAccount(input: VerifyAccountInput, logger?: Logger): Promise<PennyDropResult> {
    if (!this.verification) throw new Error('Bank account verification is not configured');
    return this.verification.verifyAccount(input, logger);
  }
}

export interface BankServiceOptions {
  /** A loaded directory, or the path of a snapshot (or of a Razorpay source); default: the shipped sample. */
  directory?: BranchDirectory | string;
  /** Penny-drop settings; without them only the IFSC operations are available. */
  verification?: BankVerificationOptions;
}

export async function createBankService(options: BankServiceOptions = {}): Promise<BankService> {
  const source = options.directory;
  const directory = typeof source === 'string' ? await loadDirectory(source) : source ?? await loadSampleDirectory();
  const holder = directory instanceof SwappableDirectory ? directory : new SwappableDirectory(directory);
  const verification = options.verification ? new BankVerificationService(options.verification) : undefined;
  return new BankService(holder, verification);
}
