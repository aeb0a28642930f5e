import { PreparedJson, decodeCursor, encodeCursor, serviceError } from '@satyapan/core';
import { branchView, canonicalIfsc, isIfscPattern, type BranchView } from './branch.js';
import type { BranchDirectory } from './directory.js';
import type { BranchPage, BranchQuery } from './search.js';
import { SEARCH_LIMIT_DEFAULT, SEARCH_LIMIT_MAX, SEARCH_TEXT_MAX, assertIfsc } from '../validation.js';

export interface SearchParams {
  bank?: string;
  state?: string;
  city?: string;
  district?: string;
  q?: string;
  /** Branches per page (default SEARCH_LIMIT_DEFAULT, at most SEARCH_LIMIT_MAX). */
  pageSize?: number;
  /** The `lastEvaluatedKey` of the previous page. */
  lastEvaluatedKey?: string;
  /** @deprecated `pageSize`, under the name it had before the lists shared their paging. */
  limit?: number;
  /** @deprecated Matches to skip; use `lastEvaluatedKey` (not both). */
  offset?: number;
}

/** A page of the branch search: the page itself and the cursor of the next one (null on the last). */
export interface BranchSearchPage extends BranchPage<BranchView> {
  lastEvaluatedKey: string | null;
}

/** The kind `encodeCursor` writes into branch search cursors; the position is the page's last IFSC. */
const BRANCH_CURSOR = 'branch';

/** Errors of the paging parameters a route lists (the router checks each type and bound itself). */
export const SEARCH_PAGING_ERRORS = {
  limitWithPageSize: ['limit', 'cannot be combined with page_size (limit is its deprecated name)'],
  offsetWithCursor: ['offset', 'cannot be combined with last_evaluated_key (offset is deprecated)'],
} as const;

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

  /** 422 for a limit, offset or text out of bounds; 400 for a cursor not ours or deprecated and new paging mixed. */
  searchBranches(params: SearchParams): BranchSearchPage {
    const query: BranchQuery = searchPaging(params);
    for (const key of ['bank', 'state', 'city', 'district', 'q'] as const) {
      const value = params[key];
      if (value === undefined) continue;
      if (value.length > SEARCH_TEXT_MAX) throw serviceError('INVALID_FIELD', key, `must be at most ${SEARCH_TEXT_MAX} characters`);
      query[key] = value;
    }
    const page = this.directory.search(query);
    const last = page.items.at(-1);
    return {
      ...page,
      items: page.items.map(branchView),
      lastEvaluatedKey: page.hasNext && last ? encodeCursor(BRANCH_CURSOR, last.IFSC) : null,
    };
  }
}

/** Page size and start of a search, from `pageSize`/`lastEvaluatedKey` or their deprecated `limit`/`offset`. */
function searchPaging(params: SearchParams): BranchQuery {
  if (params.pageSize !== undefined && params.limit !== undefined) throw serviceError('INVALID_PARAMETER', ...SEARCH_PAGING_ERRORS.limitWithPageSize);
  if (params.lastEvaluatedKey !== undefined && params.offset !== undefined) throw serviceError('INVALID_PARAMETER', ...SEARCH_PAGING_ERRORS.offsetWithCursor);
  const sizeField = params.pageSize !== undefined ? 'page_size' : 'limit';
  const limit = params.pageSize ?? params.limit ?? SEARCH_LIMIT_DEFAULT;
  const offset = params.offset ?? 0;
  if (!Number.isInteger(limit) || limit < 1 || limit > SEARCH_LIMIT_MAX) {
    throw serviceError('INVALID_FIELD', sizeField, `must be an integer from 1 to ${SEARCH_LIMIT_MAX}`);
  }
  if (!Number.isInteger(offset) || offset < 0) {
    throw serviceError('INVALID_FIELD', 'offset', 'must be a non-negative integer');
  }
  if (params.lastEvaluatedKey === undefined) return { limit, offset };
  return { limit, offset, after: canonicalIfsc(decodeCursor(BRANCH_CURSOR, params.lastEvaluatedKey, isIfscPattern)) };
}

/** The directory a lookup reads right now (a swappable directory's current one). */
function activeDirectory(directory: BranchDirectory): BranchDirectory {
  return 'active' in directory ? (directory as { active: BranchDirectory }).active : directory;
}
