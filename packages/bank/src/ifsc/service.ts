import { serviceError } from '@satyapan/core';
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

/** Operation 11 (`GET /bank/{ifsc}`) and the branch search, over whichever directory is in place. */
export class IfscService {
  constructor(private readonly directory: BranchDirectory) {}

  /** 422 `Invalid IFSC pattern`, 404 `IFSC not found: <IFSC>`. */
  lookupIfsc(ifsc: string): BranchView {
    assertIfsc(ifsc);
    const code = canonicalIfsc(ifsc);
    const branch = this.directory.lookup(code);
    if (!branch) throw serviceError('IFSC_NOT_FOUND', code);
    return branchView(branch);
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
