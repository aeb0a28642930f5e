import { PreparedJson, serviceError } from '@satyapan/core';
import { branchView, canonicalIfsc, type BranchView } from './branch.js';
import type { BranchDirectory } from './directory.js';
import type { BranchPage, BranchQuery } from './search.js';
import { SEARCH_LIMIT_DEFAULT, SEARCH_LIMIT_MAX, SEARCH_TEXT_MAX, assertIfsc } from '../validation.js';

export interface SearchParams {
  bank?: string;
  state?: string;
  city?: string;
  district?: string;
  q?: string;
  limit?: number;
  offset?: number;
}

/** How many IFSCs' serialized answers `lookupIfscJson` keeps (about 0.6 KB each). */
export const IFSC_ANSWER_CACHE_SIZE = 4096;

/** Operation 11 (`GET /bank/{ifsc}`) and the branch search, over whichever directory is in place. */
export class IfscService {
  /** Serialized answers by the IFSC as the caller wrote it (only valid, found IFSCs), oldest first. */
  private readonly answers = new Map<string, PreparedJson>();
  /** The directory the cached answers came from: a swap (new snapshot) empties the cache. */
  private answersFrom: BranchDirectory | undefined;

  constructor(private readonly directory: BranchDirectory, private readonly answerCacheSize = IFSC_ANSWER_CACHE_SIZE) {}

  /** 422 `Invalid IFSC pattern`, 404 `IFSC not found: <IFSC>`. */
  lookupIfsc(ifsc: string): BranchView {
    assertIfsc(ifsc);
    const code = canonicalIfsc(ifsc);
    const branch = this.directory.lookup(code);
    if (!branch) throw serviceError('IFSC_NOT_FOUND', code);
    return branchView(branch);
  }

  /**
   * `lookupIfsc` serialized, for the route: a branch's answer is decoded, mapped and stringified once, then sent
   * as is while it stays among the `answerCacheSize` most recently added (first in, first out). Same errors.
   */
  lookupIfscJson(ifsc: string): PreparedJson {
    const active = activeDirectory(this.directory);
    if (active !== this.answersFrom) {
      this.answers.clear();
      this.answersFrom = active;
    }
    const cached = this.answers.get(ifsc);
    if (cached) return cached;
    const answer = new PreparedJson(JSON.stringify(this.lookupIfsc(ifsc)));
    if (this.answers.size >= this.answerCacheSize) this.answers.delete(this.answers.keys().next().value as string);
    this.answers.set(ifsc, answer);
    return answer;
  }

  searchBranches(params: SearchParams): BranchPage<BranchView> {
    const limit = params.limit ?? SEARCH_LIMIT_DEFAULT;
    const offset = params.offset ?? 0;
    if (!Number.isInteger(limit) || limit < 1 || limit > SEARCH_LIMIT_MAX) {
      throw serviceError('INVALID_FIELD', 'limit', `must be an integer from 1 to ${SEARCH_LIMIT_MAX}`);
    }
    if (!Number.isInteger(offset) || offset < 0) {
      throw serviceError('INVALID_FIELD', 'offset', 'must be a non-negative integer');
    }
    const query: BranchQuery = { limit, offset };
    for (const key of ['bank', 'state', 'city', 'district', 'q'] as const) {
      const value = params[key];
      if (value === undefined) continue;
      if (value.length > SEARCH_TEXT_MAX) throw serviceError('INVALID_FIELD', key, `must be at most ${SEARCH_TEXT_MAX} characters`);
      query[key] = value;
    }
    const page = this.directory.search(query);
    return { ...page, items: page.items.map(branchView) };
  }
}

/** The directory a lookup reads right now (a swappable directory's current one). */
function activeDirectory(directory: BranchDirectory): BranchDirectory {
  return 'active' in directory ? (directory as { active: BranchDirectory }).active : directory;
}
