import {
  ACCOUNT_NUMBER_MAX, DIGITS_PATTERN, MOBILE_PATTERN, NAME_MAX, SEARCH_LIMIT_DEFAULT, SEARCH_LIMIT_MAX, SEARCH_TEXT_MAX, VALIDATION_MESSAGES,
} from './validation.js';
import { IFSC_PATTERN, STRING_FIELDS, FLAG_FIELDS, NULLABLE_FIELDS } from './ifsc/branch.js';
import { PENNY_DROP_ENTITY } from './penny-drop/service.js';
import { PENNY_LESS_ENTITY } from './penny-less/service.js';
import { CASHFREE_PENNY_DROP_ERRORS } from './penny-drop/cashfree.js';
import { SETU_PENNY_LESS_ERRORS } from './penny-less/setu.js';
import { BANK_EXAMPLES } from './examples.js';
import type { BankService } from './bank-service.js';
import { SEARCH_PAGING_ERRORS, type BranchSearchPage, type SearchParams } from './ifsc/service.js';
import { NAME_MATCH_SCHEMA } from '@satyapan/name-match';
import {
  CURSOR_FIELD, CURSOR_REFUSAL, cursorSchema, documentedError, pageSizeSchema, pagedListSchema, parseAcceptCache, type Area, type JsonSchema, type RouteContext, type RouteDefinition, type RouteRequest,
} from '@satyapan/core';

/** The bank area for `createRouter({ areas })`: IFSC lookup and search, and penny drop when configured. */
export function bankArea(bank: BankService): Area {
  return { name: 'bank', routes: (ctx) => bankRoutes(ctx, bank) };
}

const IFSC_SCHEMA: JsonSchema = { type: 'string', pattern: IFSC_PATTERN.source, 'x-message': VALIDATION_MESSAGES.ifsc };

const BRANCH: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: [...STRING_FIELDS, 'IFSC', ...FLAG_FIELDS],
  properties: Object.fromEntries([
    ...STRING_FIELDS.map((field) => [field, { type: (NULLABLE_FIELDS as readonly string[]).includes(field) ? ['string', 'null'] : 'string' }]),
    ['IFSC', { type: 'string' }],
    ...FLAG_FIELDS.map((field) => [field, { type: 'boolean' }]),
  ]),
  description: 'Razorpay-shaped branch record; values the dataset lacks are "", except SWIFT, which is null (as the vendor shows it).',
};

const searchText = (description: string): JsonSchema => ({ type: 'string', minLength: 1, maxLength: SEARCH_TEXT_MAX, description });

const SEARCH_QUERY: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    bank: searchText('Bank code (sublet-aware BANKCODE) or bank name'),
    state: searchText('State name or ISO 3166-2 code such as IN-KA'),
    city: searchText('City (CITY or CENTRE)'),
    district: searchText('District'),
    q: searchText('Text contained in the branch name or address'),
    // No schema default: a page_size the caller did not send must not clash with the deprecated limit.
    page_size: pageSizeSchema({ default: SEARCH_LIMIT_DEFAULT, max: SEARCH_LIMIT_MAX }, false),
    [CURSOR_FIELD]: cursorSchema(64),
    limit: {
      type: 'integer', minimum: 1, maximum: SEARCH_LIMIT_MAX, deprecated: true,
      description: 'Deprecated: `page_size` under its former name (not both).',
    },
    offset: {
      type: 'integer', minimum: 0, deprecated: true,
      description: 'Deprecated: matches to skip; page with `last_evaluated_key` instead (not both).',
    },
  },
};

const BRANCH_LIST_ENTITY = 'in.co.service.bank.branch.paginated_list';

/** Fields a search that pages with the deprecated `limit`/`offset` (or with nothing) also answers. */
const LEGACY_PAGE_FIELDS: Record<string, JsonSchema> = {
  limit: { type: 'integer', deprecated: true, description: 'Deprecated: the page size. Absent when the request used page_size or last_evaluated_key.' },
  offset: { type: 'integer', deprecated: true, description: 'Deprecated: matches skipped. Absent when the request used page_size or last_evaluated_key.' },
  has_next: { type: 'boolean', deprecated: true, description: 'Deprecated: whether another page exists (last_evaluated_key is not null). Absent when the request used page_size or last_evaluated_key.' },
};

const BRANCH_PAGE: JsonSchema = pagedListSchema(BRANCH_LIST_ENTITY, BRANCH, {
  total: { type: 'integer', description: 'How many branches match, over every page.' },
  ...LEGACY_PAGE_FIELDS,
}, ['total']);

interface SearchQuery extends Omit<SearchParams, 'pageSize' | 'lastEvaluatedKey'> {
  page_size?: number;
  last_evaluated_key?: string;
}

/** The service's parameters from the query (the router has checked each type and bound). */
function searchParams({ page_size: pageSize, last_evaluated_key: lastEvaluatedKey, ...rest }: SearchQuery): SearchParams {
  return { ...rest, ...(pageSize !== undefined ? { pageSize } : {}), ...(lastEvaluatedKey !== undefined ? { lastEvaluatedKey } : {}) };
}

/** The answer of `GET /bank/search`: the shared list shape, and the deprecated fields for callers that page the old way. */
function branchPage(query: SearchQuery, page: BranchSearchPage): Record<string, unknown> {
  const legacy = query.page_size === undefined && query.last_evaluated_key === undefined;
  return {
    '@entity': BRANCH_LIST_ENTITY, items: page.items, total: page.total, last_evaluated_key: page.lastEvaluatedKey,
    ...(legacy ? { limit: page.limit, offset: page.offset, has_next: page.hasNext } : {}),
  };
}

const VERIFY_PARAMS: JsonSchema = {
  type: 'object',
  required: ['ifsc', 'account_number'],
  properties: {
    ifsc: IFSC_SCHEMA,
    account_number: {
      type: 'string',
      allOf: [
        { minLength: 1, maxLength: ACCOUNT_NUMBER_MAX, 'x-message': VALIDATION_MESSAGES.accountNumberLength },
        { pattern: '^[A-Za-z0-9]+$', 'x-message': VALIDATION_MESSAGES.accountNumberCharacters },
      ],
    },
  },
};

const VERIFY_QUERY: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    name: {
      type: 'string', maxLength: NAME_MAX, 'x-message': VALIDATION_MESSAGES.name,
      description: 'The account holder\'s expected name, compared with `name_at_bank` in `name_match` (penny drop also sends it to its provider)',
    },
    mobile: {
      type: 'string',
      allOf: [
        { pattern: DIGITS_PATTERN.source, 'x-message': VALIDATION_MESSAGES.mobileDigits },
        { pattern: MOBILE_PATTERN.source, 'x-message': VALIDATION_MESSAGES.mobile },
      ],
    },
  },
};

const PENNY_DROP_RESULT: JsonSchema = {
  type: 'object',
  required: ['@entity', 'message'],
  properties: {
    '@entity': { const: PENNY_DROP_ENTITY },
    message: { type: 'string' },
    account_exists: { type: 'boolean', description: 'Absent when the bank\'s answer does not tell (e.g. bank offline)' },
    name_at_bank: { type: 'string' },
    name_match: NAME_MATCH_SCHEMA,
    utr: { type: 'string' },
    amount_deposited: { type: 'string', description: '"1" when this call credited the account; "0" for a cached answer' },
  },
};

const PENNY_LESS_RESULT: JsonSchema = {
  type: 'object',
  required: ['@entity'],
  properties: {
    '@entity': { const: PENNY_LESS_ENTITY },
    message: { type: 'string', description: 'Present when the account was not found or cannot be verified ("Account is blocked", ...)' },
    account_exists: { type: 'boolean', description: 'Absent when the answer does not tell (e.g. bank offline)' },
    name_at_bank: { type: 'string', description: 'The account holder\'s name as the bank has it' },
    name_match: NAME_MATCH_SCHEMA,
  },
};

const ACCEPT_CACHE_HEADER: JsonSchema = {
  type: 'object',
  properties: {
    'x-accept-cache': { type: 'string', description: '`true`: answer from the cache when present; `false` or absent: ask the provider' },
  },
};

interface AccountCheck {
  apiKey: string;
  ifsc: string;
  accountNumber: string;
  name?: string;
  mobile?: string;
  acceptCache: boolean;
}

/** What both account verifications take from the request. */
function accountCheck({ params, query, headers, client }: RouteRequest): AccountCheck {
  const { name, mobile } = query as { name?: string; mobile?: string };
  return {
    apiKey: client.apiKey,
    ifsc: params['ifsc'] ?? '',
    accountNumber: params['account_number'] ?? '',
    ...(name !== undefined ? { name } : {}),
    ...(mobile !== undefined ? { mobile } : {}),
    acceptCache: parseAcceptCache(headers['x-accept-cache']),
  };
}


/**
 * Operations 11 and 12 of the spec plus the branch search. The search is registered before `/bank/:ifsc`;
 * "search" cannot be an IFSC (11 characters), so no IFSC is shadowed.
 */
function bankRoutes(ctx: RouteContext, bank: BankService): RouteDefinition[] {
  const routes: RouteDefinition[] = [
    {
      method: 'get', path: '/bank/search', operationId: 'searchBranches', tag: 'bank', product: 'bank', auth: 'jwt',
      summary: 'Search bank branches by bank, state, city, district and text; paged with page_size and last_evaluated_key, in IFSC order.',
      schemas: { query: SEARCH_QUERY, response: BRANCH_PAGE },
      examples: BANK_EXAMPLES.searchBranches,
      errors: [
        documentedError('INVALID_PARAMETER', CURSOR_FIELD, CURSOR_REFUSAL),
        ...Object.values(SEARCH_PAGING_ERRORS).map(([field, reason]) => documentedError('INVALID_PARAMETER', field, reason)),
      ],
      handler: async ({ query }: RouteRequest<unknown, SearchQuery>) => ({ data: branchPage(query, bank.searchBranches(searchParams(query))) }),
    },
    {
      method: 'get', path: '/bank/:ifsc', operationId: 'lookupIfsc', tag: 'bank', product: 'bank', auth: 'jwt', raw: true,
      summary: 'Branch details of an IFSC (case-insensitive); the branch object itself, not enveloped.',
      schemas: { params: { type: 'object', required: ['ifsc'], properties: { ifsc: IFSC_SCHEMA } }, response: BRANCH },
      errors: [documentedError('IFSC_NOT_FOUND', '{ifsc}')],
      examples: BANK_EXAMPLES.lookupIfsc,
      handler: async ({ params }) => ({ kind: 'raw', body: bank.lookupIfscJson(params.ifsc) }),
    },
  ];
  if (bank.canVerify) {
    routes.push({
      method: 'get', path: '/bank/:ifsc/accounts/:account_number/verify', operationId: 'verifyBankAccount', tag: 'bank',
      product: 'bank', auth: 'jwt',
      summary: 'Penny-drop verification of a bank account. Header x-accept-cache: true answers from the cache when it can.',
      schemas: {
        params: VERIFY_PARAMS,
        query: VERIFY_QUERY,
        headers: {
          type: 'object',
          properties: {
            'x-accept-cache': { type: 'string', description: '`true`: answer from the cache when present (no new deposit); `false` or absent: ask the bank' },
          },
        },
        response: PENNY_DROP_RESULT,
      },
      // UNKNOWN_IFSC: the directory is asked before the paid call (refuseUnknownIfsc, on by default).
      errors: [...CASHFREE_PENNY_DROP_ERRORS, 'UNKNOWN_IFSC'],
      examples: BANK_EXAMPLES.verifyBankAccount,
      handler: async (req) => ({ data: await bank.verifyAccount(accountCheck(req), req.logger) }),
    });
  }
  if (bank.canVerifyPennyLess) {
    routes.push({
      method: 'get', path: '/bank/:ifsc/accounts/:account_number/penniless-verify', operationId: 'verifyBankAccountPennyLess',
      tag: 'bank', product: 'bank', auth: 'jwt',
      summary: 'Penny-less verification: the account holder\'s name without depositing money. Header x-accept-cache: true answers from the cache when it can.',
      schemas: { params: VERIFY_PARAMS, query: VERIFY_QUERY, headers: ACCEPT_CACHE_HEADER, response: PENNY_LESS_RESULT },
      errors: [...SETU_PENNY_LESS_ERRORS, 'UNKNOWN_IFSC'],
      examples: BANK_EXAMPLES.verifyBankAccountPennyLess,
      handler: async (req) => ({ data: await bank.verifyAccountPennyLess(accountCheck(req), req.logger) }),
    });
  }
  return routes;
}
