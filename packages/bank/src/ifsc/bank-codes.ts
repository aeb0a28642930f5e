import type { Branch } from './branch.js';
import type { UnresolvedBranch } from './normalise.js';

/**
 * Razorpay's optional metadata files, in their published shapes. With them the importer resolves sublets
 * exactly as Razorpay's API does; without them it infers what it can from the branch data itself.
 */
export interface BankMetadata {
  /** `sublet.json`: IFSC -> the NPCI bank code of the bank that sublets it (e.g. "TSDX"). */
  sublets?: Readonly<Record<string, string>>;
  /** `custom-sublets.json`: IFSC prefix -> a 4-letter bank code or a bank name. */
  customSublets?: Readonly<Record<string, string>>;
  /** `banknames.json`: bank code -> bank name. */
  bankNames?: Readonly<Record<string, string>>;
}

const BANK_CODE = /^[A-Z]{4}$/;

function nameKey(name: string): string {
  return name.replace(/\s+/g, ' ').trim().toUpperCase();
}

/**
 * Resolves the sublet-aware BANKCODE (and a missing BANK) of every branch of one import.
 *
 * A sublet is an IFSC of a large bank (its first four letters) leased to a small bank, whose own code is the
 * one callers want. Order, mirroring Razorpay's resolution: the exact `sublet.json` entry; the longest
 * matching `custom-sublets.json` prefix; then, from the data alone, a branch whose BANK differs from its
 * prefix bank's own name and equals the name of another bank in the data gets that bank's code. Everything
 * else keeps its first four letters.
 */
export class BankCodeResolver {
  /** Own name of each 4-letter prefix: banknames.json, else the most common BANK among its branches. */
  private readonly ownNames = new Map<string, string>();
  /** Normalised bank name -> the one prefix whose own name it is (ambiguous names are left out). */
  private readonly codeByName = new Map<string, string>();
  private readonly customPrefixes: readonly [string, string][];

  constructor(branches: Iterable<UnresolvedBranch>, private readonly metadata: BankMetadata = {}) {
    this.learnOwnNames(branches);
    this.customPrefixes = Object.entries(metadata.customSublets ?? {})
      .map(([prefix, target]): [string, string] => [prefix.toUpperCase(), target])
      .sort((a, b) => b[0].length - a[0].length);
  }

  resolve(branch: UnresolvedBranch): Branch {
    const prefix = branch.IFSC.slice(0, 4);
    const { code, name } = this.subletOf(branch, prefix);
    const bank = branch.BANK || name || this.nameOf(code) || this.nameOf(prefix);
    return { ...branch, BANK: bank, BANKCODE: code };
  }

  private subletOf(branch: UnresolvedBranch, prefix: string): { code: string; name: string } {
    const listed = this.metadata.sublets?.[branch.IFSC];
    if (listed && BANK_CODE.test(listed)) return { code: listed, name: '' };
    const custom = this.customPrefixes.find(([p]) => branch.IFSC.startsWith(p))?.[1];
    if (custom !== undefined) {
      if (BANK_CODE.test(custom)) return { code: custom, name: '' };
      return { code: this.codeByName.get(nameKey(custom)) ?? prefix, name: custom };
    }
    const own = this.ownNames.get(prefix);
    if (branch.BANK && own !== undefined && nameKey(branch.BANK) !== nameKey(own)) {
      return { code: this.codeByName.get(nameKey(branch.BANK)) ?? prefix, name: '' };
    }
    return { code: prefix, name: '' };
  }

  private nameOf(code: string): string {
    return this.metadata.bankNames?.[code] ?? this.ownNames.get(code) ?? '';
  }

  private learnOwnNames(branches: Iterable<UnresolvedBranch>): void {
    const counts = new Map<string, Map<string, number>>();
    for (const branch of branches) {
      if (!branch.BANK) continue;
      const prefix = branch.IFSC.slice(0, 4);
      const perName = counts.get(prefix) ?? new Map<string, number>();
      perName.set(branch.BANK, (perName.get(branch.BANK) ?? 0) + 1);
      counts.set(prefix, perName);
    }
    for (const [prefix, perName] of counts) {
      const majority = [...perName].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]?.[0];
      if (majority !== undefined) this.ownNames.set(prefix, majority);
    }
    for (const [code, name] of Object.entries(this.metadata.bankNames ?? {})) this.ownNames.set(code, name);
    const owners = new Map<string, string[]>();
    for (const [code, name] of this.ownNames) owners.set(nameKey(name), [...(owners.get(nameKey(name)) ?? []), code]);
    for (const [key, codes] of owners) if (codes.length === 1 && codes[0]) this.codeByName.set(key, codes[0]);
  }
}
