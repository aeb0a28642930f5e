import { CORRECTION_TYPES, JOB_STATUSES, QUARTERS, SHOWN_PROBLEMS, STATEMENT_KINDS, TDS_FORMS, type StatementDomain, type StatementKind } from './model.js';
import { MAX_PAGE_SIZE, DEFAULT_PAGE_SIZE, type SearchQuery } from './search.js';
import type { StatementService, SubmitRequest } from './service.js';
import { STATEMENT_EXAMPLES } from './examples.js';
import {
  CURSOR_FIELD, ERROR_REGISTRY, cursorSchema, documentedError, pageSizeSchema, pagedListSchema, type Area, type ClientRecord, type JsonSchema, type RouteDefinition, type RouteRequest,
} from '@satyapan/core';

// Statement jobs (docs/API.md "Statement jobs"): operations 13-19 of the spec, TDS and TCS twins.

/** The statement-jobs area for `createRouter({ areas })`: TDS and TCS submit, poll and search. */
export function statementsArea(statements: StatementService): Area {
  return { name: 'statements', routes: () => statementsRoutes(statements) };
}

/** The vendor spells the TAN message differently per domain (`Invalid TAN pattern`, TCS `Invalid Tan pattern`). */
function tanSchema(domain: StatementDomain): JsonSchema {
  const message = ERROR_REGISTRY[domain === 'tds' ? 'INVALID_TDS_TAN' : 'INVALID_TCS_TAN'].message();
  return { type: 'string', pattern: '^[A-Z]{4}[0-9]{5}[A-Z]$', 'x-message': message, example: 'AHMA09719D' };
}
const FORM = { type: 'string', enum: [...TDS_FORMS], 'x-message': 'Invalid form type: {value}' };
const QUARTER = { type: 'string', enum: [...QUARTERS], 'x-message': 'Invalid quarter: {value}' };
const FINANCIAL_YEAR = {
  type: 'string',
  pattern: '^(FY|TY) [0-9]{4}-[0-9]{2}$',
  'x-message': 'Invalid financial year: {value}',
  description: '`FY 2025-26`, or the tax year `TY 2026-27` (from which the new form numbers apply).',
};
const RECEIPT = {
  type: 'string', pattern: '^[0-9]{15}$', 'x-message': 'Invalid previous receipt number: expected the 15-digit token number',
  description: 'Token (receipt) number of the previous regular statement of this form (15 digits), written in BH 9 with BH 52 = Y; omit when no regular statement was filed for an earlier period.',
};
const TOKEN = { type: 'string', pattern: '^[0-9]{15}$', 'x-message': 'Invalid receipt number: expected the 15-digit token number' };
const KIND = {
  type: 'string', enum: [...STATEMENT_KINDS], 'x-message': 'Invalid kind: {value}',
  description: '`regular` (default) or `correction`: a correction statement (upload type C) built from the TRACES consolidated (conso) file, uploaded to the returned conso_url, and the corrected workbook (json_url). previous_receipt_number never makes a correction.',
};
const CORRECTION_FIELDS = {
  original_receipt_number: { ...TOKEN, description: 'Correction jobs: token of the regular statement (BH 8); default the conso file\'s.' },
  last_correction_receipt_number: { ...TOKEN, description: 'Correction jobs: token of the last accepted correction (BH 9); omit for the first correction.' },
  correction_types: {
    type: 'array', minItems: 1, maxItems: CORRECTION_TYPES.length, uniqueItems: true,
    items: { type: 'string', enum: [...CORRECTION_TYPES], 'x-message': 'Invalid correction type: {value} (Y, cancellation, is no longer accepted at TIN; C4 is not supported)' },
    description: 'Correction jobs: the correction types allowed (default all of C1, C2, C3, C5, C9); a change needing another type fails the job.',
  },
};
const STATUS = { type: 'string', enum: [...JOB_STATUSES], 'x-message': 'Invalid status: {value}' };
// A safe integer at most: past 2^53 a number is no longer exact (a 400 naming the field, never a 500).
const EPOCH_MS = { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description: 'Unix time in milliseconds.' };

function entity(domain: StatementDomain, suffix: string): string {
  return `in.co.service.${domain}.reports.${suffix}`;
}

function submitSchema(domain: StatementDomain): JsonSchema {
  const required = ['@entity', 'tan', 'quarter', 'financial_year', ...(domain === 'tds' ? ['form'] : [])];
  return {
    type: 'object',
    required,
    properties: {
      '@entity': { const: entity(domain, 'request') },
      tan: tanSchema(domain),
      ...(domain === 'tds' ? { form: FORM } : {}),
      quarter: QUARTER,
      financial_year: FINANCIAL_YEAR,
      previous_receipt_number: RECEIPT,
      csi: {
        type: 'boolean',
        description: 'true: a Challan Status Inquiry (.csi) file will be uploaded to the returned csi_url; the job waits for it and checks every challan against it.',
      },
      kind: KIND,
      ...CORRECTION_FIELDS,
    },
  };
}

function searchSchema(domain: StatementDomain): JsonSchema {
  return {
    type: 'object',
    required: ['@entity'],
    properties: {
      '@entity': { const: entity(domain, 'jobs.search') },
      tan: tanSchema(domain),
      ...(domain === 'tds' ? { form: FORM } : {}),
      quarter: QUARTER,
      financial_year: FINANCIAL_YEAR,
      status: STATUS,
      from_date: EPOCH_MS,
      to_date: EPOCH_MS,
      page_size: pageSizeSchema({ default: DEFAULT_PAGE_SIZE, max: MAX_PAGE_SIZE }),
      [CURSOR_FIELD]: cursorSchema(1024),
    },
  };
}

const POLL_QUERY: JsonSchema = {
  type: 'object',
  required: ['job_id'],
  properties: { job_id: { type: 'string', minLength: 1, maxLength: 128 } },
};

/** One error of a failed job, as its poll shows it (JobProblem). */
const PROBLEM: JsonSchema = {
  type: 'object',
  required: ['code', 'message', 'sheet', 'row', 'column'],
  properties: {
    code: { type: 'string', description: 'The engine\'s problem code, e.g. `TAN_MISMATCH` or `INVALID_PAN`.' },
    message: { type: 'string' },
    sheet: { type: ['string', 'null'], description: 'Sheet name as in the workbook; null for a problem of the whole file or the job.' },
    row: { type: ['integer', 'null'], description: 'Row as a person counts it (the Excel row for an .xlsx workbook).' },
    column: { type: ['string', 'null'], description: 'Column header, or `<list block>.<key>` for list items.' },
    cell: { type: 'string', description: 'For an .xlsx workbook: the Excel cell, e.g. `payment_sheet!F12`.' },
  },
};

function jobSchema(domain: StatementDomain): JsonSchema {
  const url = { type: 'string', format: 'uri' };
  return {
    type: 'object',
    required: ['@entity', 'job_id', 'tan', 'quarter', 'financial_year', 'status', 'created_at', 'updated_at', ...(domain === 'tds' ? ['form'] : [])],
    properties: {
      '@entity': { const: entity(domain, 'job') },
      job_id: { type: 'string', format: 'uuid' },
      tan: { type: 'string' },
      ...(domain === 'tds' ? { form: { type: 'string' } } : {}),
      quarter: { type: 'string' },
      financial_year: { type: 'string' },
      previous_receipt_number: { type: 'string' },
      csi: { type: 'boolean', description: 'Present (true) when the job takes a CSI file.' },
      kind: { type: 'string', enum: ['correction'], description: 'Present (`correction`) for a correction statement job.' },
      original_receipt_number: { type: 'string' },
      last_correction_receipt_number: { type: 'string' },
      correction_types: { type: 'array', items: { type: 'string' } },
      status: { type: 'string', enum: [...JOB_STATUSES] },
      created_at: EPOCH_MS,
      updated_at: EPOCH_MS,
      json_url: { ...url, description: 'Pre-signed PUT for the Sheet JSON workbook (submit only); send no Authorization or x-api-key.' },
      csi_url: { ...url, description: 'Pre-signed PUT for the CSI file (submit of a job with csi: true); same rules as json_url.' },
      conso_url: { ...url, description: 'Pre-signed PUT for the TRACES conso file (.tds; submit of a correction job); same rules as json_url. The job waits for it.' },
      txt_url: { ...url, description: 'Pre-signed GET of the TXT (succeeded).' },
      validation_report_url: {
        ...url, description: 'Pre-signed GET of the .xlsx validation report: failed jobs, and succeeded jobs with warnings.',
      },
      validation_report_json_url: {
        ...url, description: 'Pre-signed GET of the same report as JSON (problems with sheet, row, column, code, message, severity): succeeded and failed jobs.',
      },
      warnings_count: { type: 'integer', minimum: 0, description: 'Succeeded jobs: the warnings in the validation report (the TXT was written regardless).' },
      message: { type: 'string', description: 'Why the job failed, e.g. `Validation error` or `Invalid Workbook`.' },
      problems: {
        type: 'array', maxItems: SHOWN_PROBLEMS, items: PROBLEM,
        description: `Failed jobs: the first ${SHOWN_PROBLEMS} errors of the validation report, in its order (the reports hold them all).`,
      },
      problems_not_shown: {
        type: 'integer', minimum: 0,
        description: 'Failed jobs: how many more errors the validation report holds than `problems` shows (0 when it shows them all).',
      },
    },
  };
}

function listSchema(domain: StatementDomain): JsonSchema {
  return pagedListSchema(entity(domain, 'paginated_list'), jobSchema(domain));
}

interface SubmitBody {
  tan: string;
  form?: string;
  quarter: SubmitRequest['quarter'];
  financial_year: string;
  previous_receipt_number?: string;
  csi?: boolean;
  kind?: StatementKind;
  original_receipt_number?: string;
  last_correction_receipt_number?: string;
  correction_types?: string[];
}

interface SearchBody {
  tan?: string;
  form?: string;
  quarter?: SearchQuery['quarter'];
  financial_year?: string;
  status?: SearchQuery['status'];
  from_date?: number;
  to_date?: number;
  page_size?: number;
  last_evaluated_key?: string;
}

function ownerOf(client: ClientRecord) {
  return { clientId: client.id, webhookUrl: client.webhookUrl, webhookSecret: client.webhookSecret };
}

function toSubmitRequest(domain: StatementDomain, body: SubmitBody): SubmitRequest {
  return {
    domain,
    tan: body.tan,
    ...(body.form !== undefined ? { form: body.form } : {}),
    quarter: body.quarter,
    financialYear: body.financial_year,
    ...(body.previous_receipt_number !== undefined ? { previousReceiptNumber: body.previous_receipt_number } : {}),
    ...(body.csi === true ? { csi: true } : {}),
    ...(body.kind !== undefined ? { kind: body.kind } : {}),
    ...(body.original_receipt_number !== undefined ? { originalReceiptNumber: body.original_receipt_number } : {}),
    ...(body.last_correction_receipt_number !== undefined ? { lastCorrectionReceiptNumber: body.last_correction_receipt_number } : {}),
    ...(body.correction_types !== undefined ? { correctionTypes: body.correction_types } : {}),
  };
}

function toSearchQuery(body: SearchBody): SearchQuery {
  const query: SearchQuery = {};
  if (body.tan !== undefined) query.tan = body.tan;
  if (body.form !== undefined) query.form = body.form;
  if (body.quarter !== undefined) query.quarter = body.quarter;
  if (body.financial_year !== undefined) query.financialYear = body.financial_year;
  if (body.status !== undefined) query.status = body.status;
  if (body.from_date !== undefined) query.fromDate = body.from_date;
  if (body.to_date !== undefined) query.toDate = body.to_date;
  if (body.page_size !== undefined) query.pageSize = body.page_size;
  if (body.last_evaluated_key !== undefined) query.lastEvaluatedKey = body.last_evaluated_key;
  return query;
}

function domainRoutes(statements: StatementService, domain: StatementDomain): RouteDefinition[] {
  const path = `/${domain}/reports/txt`;
  const label = domain.toUpperCase();
  const common = { tag: `${domain}-reports`, product: domain, auth: 'jwt' as const };
  return [
    {
      ...common,
      method: 'post',
      path: `${path}/search`,
      operationId: `search${label}ReportJobs`,
      summary: `Search the caller's ${label} TXT jobs, newest first.`,
      schemas: { body: searchSchema(domain), response: listSchema(domain) },
      examples: STATEMENT_EXAMPLES[domain].search,
      handler: async ({ body, client }: RouteRequest<SearchBody>) => ({
        data: await statements.searchJobs(domain, client.id, toSearchQuery(body)),
      }),
    },
    {
      ...common,
      method: 'post',
      path,
      operationId: `submit${label}ReportJob`,
      summary: `Create a ${label} TXT job; upload the Sheet JSON workbook to the returned json_url.`,
      schemas: { body: submitSchema(domain), response: jobSchema(domain) },
      errors: [documentedError('STATEMENT_JOBS_LIMIT', '{jobs}', '{limit}')],
      examples: STATEMENT_EXAMPLES[domain].submit,
      handler: async ({ body, client }: RouteRequest<SubmitBody>) => ({
        data: await statements.submitJob(toSubmitRequest(domain, body), ownerOf(client)),
      }),
    },
    {
      ...common,
      method: 'get',
      path,
      operationId: `get${label}ReportJob`,
      summary: `Poll a ${label} TXT job.`,
      schemas: { query: POLL_QUERY, response: jobSchema(domain) },
      errors: [documentedError('JOB_NOT_FOUND', '{job_id}')],
      handler: async ({ query, client }: RouteRequest<unknown, { job_id: string }>) => ({
        data: await statements.getJob(domain, client.id, query.job_id),
      }),
    },
  ];
}

/** `POST /tds/reports/txt`, `GET /tds/reports/txt?job_id=`, `POST /tds/reports/txt/search` and the TCS twins. */
function statementsRoutes(statements: StatementService): RouteDefinition[] {
  return [...domainRoutes(statements, 'tds'), ...domainRoutes(statements, 'tcs')];
}
