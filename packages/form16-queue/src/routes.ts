import {
  CURSOR_FIELD, JOB_STATUSES, cursorSchema, documentedError, pageSizeSchema, pagedListSchema, type Area, type JsonSchema, type RouteDefinition, type RouteRequest,
} from '@satyapan/core';
import { FORM16_PAGE_SIZE } from './defaults.js';
import { FORM16_JOB_ENTITY, FORM16_LIST_ENTITY, FORM16_REQUEST_ENTITY } from './model.js';
import type { Form16Service } from './service.js';

/** The Form 16 area for `createRouter({ areas })`: submit, poll and list Form 16 jobs (product `tds`). */
export function form16Area(service: Form16Service): Area {
  return { name: 'form16', routes: () => form16Routes(service) };
}

const EPOCH_MS = { type: 'integer', minimum: 0, description: 'Unix time in milliseconds.' };
const COUNT = { type: 'integer', minimum: 0 };
const URL = (description: string): JsonSchema => ({ type: 'string', format: 'uri', description });

const SUBMIT: JsonSchema = {
  type: 'object',
  required: ['@entity', 'tan', 'financial_year'],
  additionalProperties: false,
  properties: {
    '@entity': { const: FORM16_REQUEST_ENTITY },
    tan: { type: 'string', pattern: '^[A-Z]{4}[0-9]{5}[A-Z]$', 'x-message': 'Invalid TAN pattern', example: 'AHMA09719D' },
    financial_year: {
      type: 'string', pattern: '^FY [0-9]{4}-[0-9]{2}$', 'x-message': 'Invalid financial year: {value}', example: 'FY 2025-26',
      description: 'The financial year of the 24Q Q4 statement whose salary records (annexure II) Part B is made from.',
    },
    part_a: { type: 'boolean', default: false, description: 'true: the job gets a `part_a_url` for a zip of the TRACES Part A PDFs, merged by PAN and assessment year.' },
    certificate_password: {
      type: 'string', minLength: 1, maxLength: 256,
      description: 'The password of the PKCS#12 signing certificate the job gets a `certificate_url` for; without it the PDFs are unsigned and say so. Sealed at rest, never returned, deleted with the job.',
    },
    place: { type: 'string', minLength: 1, maxLength: 60, description: 'The verification place on each Part B; default the employer\'s town.' },
  },
};

const PROBLEM: JsonSchema = {
  type: 'object',
  properties: { code: { type: 'string' }, message: { type: 'string' }, sheet: { type: ['string', 'null'] }, row: { type: ['integer', 'null'] }, column: { type: ['string', 'null'] }, cell: { type: 'string' } },
};

const JOB: JsonSchema = {
  type: 'object',
  required: ['@entity', 'job_id', 'tan', 'financial_year', 'status', 'created_at', 'updated_at', 'part_a', 'signed'],
  properties: {
    '@entity': { const: FORM16_JOB_ENTITY },
    job_id: { type: 'string', format: 'uuid' },
    tan: { type: 'string' },
    financial_year: { type: 'string' },
    status: { type: 'string', enum: [...JOB_STATUSES] },
    created_at: EPOCH_MS,
    updated_at: EPOCH_MS,
    part_a: { type: 'boolean' },
    signed: { type: 'boolean', description: 'A certificate was given: every PDF is signed with it.' },
    workbook_url: URL('Submit only: pre-signed PUT for the 24Q Q4 workbook (Sheet JSON or .xlsx); send no credentials.'),
    part_a_url: URL('Submit only, with part_a: pre-signed PUT for the zip of TRACES Part A PDFs.'),
    certificate_url: URL('Submit only, with certificate_password: pre-signed PUT for the PKCS#12 file.'),
    pdfs: { ...COUNT, description: 'Succeeded: Form 16 PDFs made (one per employee with a salary record).' },
    part_a_merged: COUNT,
    without_part_a: COUNT,
    part_a_mismatches: COUNT,
    zip_url: URL('Succeeded: pre-signed GET of the zip of PDFs (with index.csv), fresh on each poll.'),
    index_url: URL('Succeeded: pre-signed GET of index.csv: pan, name, file, part_a, signed, net_tax_payable.'),
    part_a_mismatches_url: URL('Succeeded with part_a: pre-signed GET of the Part A files not merged and why.'),
    message: { type: 'string', description: 'Failed: why (`Validation error` with the statement\'s problems, or the reason with its code).' },
    code: { type: 'string', description: 'Failed: e.g. `CERTIFICATE_UNREADABLE`, `CERTIFICATE_NOT_VALID_NOW`, `PART_A_UNREADABLE`, `WORKBOOK_UNREADABLE`, `UPLOAD_TOO_LARGE`.' },
    problems: { type: 'array', items: PROBLEM, description: 'Failed with Validation error: the first 20 errors of the statement.' },
    problems_not_shown: COUNT,
  },
};

interface SubmitBody {
  tan: string;
  financial_year: string;
  part_a?: boolean;
  certificate_password?: string;
  place?: string;
}

function form16Routes(service: Form16Service): RouteDefinition[] {
  const common = { tag: 'form16', product: 'tds' as const, auth: 'jwt' as const };
  return [
    {
      ...common,
      method: 'post',
      path: '/tds/form16',
      operationId: 'submitForm16Job',
      summary: 'Create a Form 16 job: upload the 24Q Q4 workbook (and Part A zip, certificate) to the returned URLs.',
      schemas: { body: SUBMIT, response: JOB },
      examples: [{
        name: 'signed', summary: 'Signed Form 16 with TRACES Part A merged', source: 'ours: the vendor has no Form 16 operation',
        body: { '@entity': FORM16_REQUEST_ENTITY, tan: 'AHMA09719D', financial_year: 'FY 2025-26', part_a: true, certificate_password: 'p12-password' },
      }],
      handler: async ({ body, client }: RouteRequest<SubmitBody>) => ({
        data: await service.submit(
          {
            tan: body.tan, financialYear: body.financial_year, partA: body.part_a === true,
            ...(body.certificate_password !== undefined ? { certificatePassword: body.certificate_password } : {}),
            ...(body.place !== undefined ? { place: body.place } : {}),
          },
          { clientId: client.id, webhookUrl: client.webhookUrl, webhookSecret: client.webhookSecret },
        ),
      }),
    },
    {
      ...common,
      method: 'get',
      path: '/tds/form16',
      operationId: 'listForm16Jobs',
      summary: 'The caller\'s Form 16 jobs, newest first.',
      schemas: {
        query: { type: 'object', additionalProperties: false, properties: { page_size: pageSizeSchema(FORM16_PAGE_SIZE), [CURSOR_FIELD]: cursorSchema(20) } },
        response: pagedListSchema(FORM16_LIST_ENTITY, JOB),
      },
      handler: async ({ query, client }: RouteRequest<unknown, { page_size?: number; last_evaluated_key?: string }>) => ({
        data: await service.list(client.id, query.page_size, query.last_evaluated_key),
      }),
    },
    {
      ...common,
      method: 'get',
      path: '/tds/form16/:job_id',
      operationId: 'getForm16Job',
      summary: 'Poll a Form 16 job: the zip of PDFs and the index once made, or why it failed.',
      schemas: { params: { type: 'object', required: ['job_id'], properties: { job_id: { type: 'string', minLength: 1, maxLength: 128 } } }, response: JOB },
      errors: [documentedError('JOB_NOT_FOUND', '{job_id}')],
      handler: async ({ params, client }: RouteRequest<unknown, unknown, { job_id: string }>) => ({
        data: await service.get(client.id, params.job_id),
      }),
    },
  ];
}
