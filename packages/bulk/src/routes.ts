import {
  CURSOR_FIELD, JOB_STATUSES, cursorSchema, documentedError, pageSizeSchema, pagedListSchema, type Area, type JsonSchema, type RouteDefinition, type RouteRequest,
} from '@satyapan/core';
import { resultHeader } from './runner.js';
import { BULK_JOB_ENTITY, BULK_LIST_ENTITY, BULK_REQUEST_ENTITY, ROW_OUTCOMES } from './model.js';
import { BULK_PAGE_SIZE, type BulkService } from './service.js';

/** The bulk-verification area for `createRouter({ areas })`: submit, poll and list bulk jobs. */
export function bulkArea(bulk: BulkService): Area {
  return { name: 'bulk', routes: () => bulkRoutes(bulk) };
}

const EPOCH_MS = { type: 'integer', minimum: 0, description: 'Unix time in milliseconds.' };
const COUNT = { type: 'integer', minimum: 0 };

function kindsDescription(bulk: BulkService): string {
  return bulk.registry.all().map((check) => `\`${check.kind}\`: ${check.description}; result columns ${resultHeader(check).join(', ')}`).join('. ');
}

function submitSchema(bulk: BulkService): JsonSchema {
  return {
    type: 'object',
    required: ['@entity', 'kind'],
    additionalProperties: false,
    properties: {
      '@entity': { const: BULK_REQUEST_ENTITY },
      kind: { type: 'string', enum: bulk.registry.kinds, 'x-message': 'Invalid kind: {value}', description: kindsDescription(bulk) },
      accept_cache: {
        type: 'boolean', default: false,
        description: 'true: a row may be answered from this API key\'s verification cache, as `x-accept-cache: true` on a single call (no new deposit).',
      },
    },
  };
}

const SUMMARY: JsonSchema = {
  type: 'object',
  required: [...ROW_OUTCOMES],
  properties: Object.fromEntries(ROW_OUTCOMES.map((outcome) => [outcome, COUNT])),
  description: 'Rows by outcome so far: ok (the check answered), invalid (the row broke an input rule), error (the check failed, e.g. Source Unavailable), interrupted (a paid check in flight when its worker died; not repeated).',
};

const JOB: JsonSchema = {
  type: 'object',
  required: ['@entity', 'job_id', 'kind', 'accept_cache', 'status', 'created_at', 'updated_at', 'rows_done', 'summary'],
  properties: {
    '@entity': { const: BULK_JOB_ENTITY },
    job_id: { type: 'string', format: 'uuid' },
    kind: { type: 'string' },
    accept_cache: { type: 'boolean' },
    status: { type: 'string', enum: [...JOB_STATUSES] },
    created_at: EPOCH_MS,
    updated_at: EPOCH_MS,
    csv_url: { type: 'string', format: 'uri', description: 'Pre-signed PUT for the CSV (submit only); send no Authorization or x-api-key.' },
    rows_total: { ...COUNT, description: 'Data rows in the file; present once a worker has read it.' },
    rows_done: { ...COUNT, description: 'Rows checked so far (committed, plus the rows of the chunk in progress that have an outcome or a call in flight).' },
    summary: SUMMARY,
    result_url: { type: 'string', format: 'uri', description: 'Pre-signed GET of the result CSV (succeeded): one line per row, in file order.' },
    summary_url: { type: 'string', format: 'uri', description: 'Pre-signed GET of the summary CSV (succeeded): outcome, code, message, rows; most frequent first.' },
    message: { type: 'string', description: 'Why the job failed: the file could not be read as a whole (no header, a missing column, too large, too many rows or columns, over the client\'s row budget) or processing failed.' },
    code: { type: 'string', description: 'Failed jobs: the code of the reason when it has one, e.g. `BULK_TOO_MANY_ROWS`, `BULK_TOO_MANY_COLUMNS`, `BULK_LINE_TOO_LONG`, `BULK_ROW_BUDGET`.' },
  },
};

const LIST: JsonSchema = pagedListSchema(BULK_LIST_ENTITY, JOB);

interface SubmitBody {
  kind: string;
  accept_cache?: boolean;
}

function bulkRoutes(bulk: BulkService): RouteDefinition[] {
  // The product is checked per kind by the service (penny drop and IFSC need `bank`, PAN `kyc`).
  const common = { tag: 'bulk', product: null, auth: 'jwt' as const };
  return [
    {
      ...common,
      method: 'post',
      path: '/bulk/verifications',
      operationId: 'submitBulkVerification',
      summary: 'Create a bulk verification job; upload the CSV to the returned csv_url.',
      schemas: { body: submitSchema(bulk), response: JOB },
      errors: ['INSUFFICIENT_PRIVILEGE', documentedError('BULK_JOBS_LIMIT', '{jobs}', '{limit}'), documentedError('BULK_ROW_BUDGET', '{usage}', '{limit}')],
      examples: [{
        name: 'ifsc', summary: 'Look up a file of IFSCs (column ifsc)', source: 'ours: the vendor has no bulk verification',
        body: { '@entity': BULK_REQUEST_ENTITY, kind: 'ifsc' },
      }],
      handler: async ({ body, client }: RouteRequest<SubmitBody>) => ({
        data: await bulk.submit(
          { kind: body.kind, ...(body.accept_cache === true ? { acceptCache: true } : {}) },
          { clientId: client.id, apiKey: client.apiKey, products: client.products, webhookUrl: client.webhookUrl, webhookSecret: client.webhookSecret },
        ),
      }),
    },
    {
      ...common,
      method: 'get',
      path: '/bulk/verifications',
      operationId: 'listBulkVerifications',
      summary: 'The caller\'s bulk verification jobs, newest first.',
      schemas: {
        query: {
          type: 'object',
          additionalProperties: false,
          properties: {
            page_size: pageSizeSchema(BULK_PAGE_SIZE),
            [CURSOR_FIELD]: cursorSchema(20),
          },
        },
        response: LIST,
      },
      examples: [{ name: 'first-page', summary: 'The newest ten jobs', source: 'ours: the vendor has no bulk verification', query: { page_size: 10 } }],
      handler: async ({ query, client }: RouteRequest<unknown, { page_size?: number; last_evaluated_key?: string }>) => ({
        data: await bulk.list(client.id, query.page_size, query.last_evaluated_key),
      }),
    },
    {
      ...common,
      method: 'get',
      path: '/bulk/verifications/:job_id',
      operationId: 'getBulkVerification',
      summary: 'Poll a bulk verification job: progress (rows_done of rows_total), the summary, and the result CSV once it succeeded.',
      schemas: { params: { type: 'object', required: ['job_id'], properties: { job_id: { type: 'string', minLength: 1, maxLength: 128 } } }, response: JOB },
      errors: [documentedError('JOB_NOT_FOUND', '{job_id}')],
      handler: async ({ params, client }: RouteRequest<unknown, unknown, { job_id: string }>) => ({
        data: await bulk.get(client.id, params.job_id),
      }),
    },
  ];
}
