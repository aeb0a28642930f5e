// Request examples of the statement-job operations for the OpenAPI document (and so for an API reference's
// Try-it-out): the vendor's own, from its OpenAPI document tds-tcs-reports.openapi.json, in our words (`service`
// in `@entity`, docs/API.md). A submit example creates a job that waits for its workbook; nothing is filed.
import type { RouteExample } from '@satyapan/core';
import type { StatementDomain } from './model.js';

const SOURCE = 'the vendor\'s OpenAPI document (tds-tcs-reports.openapi.json)';
const tds = 'in.co.service.tds.reports';
const tcs = 'in.co.service.tcs.reports';

export const STATEMENT_EXAMPLES: Record<StatementDomain, { submit: readonly RouteExample[]; search: readonly RouteExample[] }> = {
  tds: {
    submit: [
      {
        name: 'vendor-26Q', summary: 'Form 26Q, Q3 of FY 2023-24', source: `${SOURCE}, POST /tds/reports/txt, example "200 - Success"`,
        body: { '@entity': `${tds}.request`, financial_year: 'FY 2023-24', quarter: 'Q3', form: '26Q', previous_receipt_number: '123456789012345', tan: 'AHMA09719B' },
      },
      {
        name: 'vendor-24Q-Q4', summary: 'Form 24Q, Q4 of FY 2023-24', source: `${SOURCE}, POST /tds/reports/txt, example "200 Form 24Q-Q4 Job created"`,
        body: { '@entity': `${tds}.request`, financial_year: 'FY 2023-24', quarter: 'Q4', form: '24Q', previous_receipt_number: '123456789012345', tan: 'AHMA09719B' },
      },
      {
        name: 'vendor-invalid-year', summary: 'A financial year of the wrong shape (422)',
        source: `${SOURCE}, POST /tds/reports/txt, example "422 Invalid Financial Year"`, status: 422,
        body: { '@entity': `${tds}.request`, financial_year: 'FY 2022-2', quarter: 'Q1', previous_receipt_number: '575829600070771', tan: 'AHMA09719B', form: '24Q' },
      },
    ],
    search: [{
      name: 'vendor', summary: 'Form 26Q jobs of one TAN and quarter in May 2024',
      source: `${SOURCE}, POST /tds/reports/txt/search, example "200 - Success", without its placeholder last_evaluated_key (a cursor comes from a previous page)`,
      body: {
        '@entity': `${tds}.jobs.search`, tan: 'AHMS12345C', quarter: 'Q2', form: '26Q', financial_year: 'FY 2023-24',
        from_date: 1714529045000, to_date: 1716170645000, page_size: 10,
      },
    }],
  },
  tcs: {
    submit: [
      {
        name: 'vendor', summary: 'Q3 of FY 2023-24', source: `${SOURCE}, POST /tcs/reports/txt, example "200 - Success"`,
        body: { '@entity': `${tcs}.request`, financial_year: 'FY 2023-24', quarter: 'Q3', previous_receipt_number: '123456789012345', tan: 'AHMA09719B' },
      },
      {
        name: 'vendor-invalid-quarter', summary: 'A quarter that does not exist (422)', source: `${SOURCE}, POST /tcs/reports/txt, example "422 Invalid Quarter"`,
        status: 422, body: { '@entity': `${tcs}.request`, financial_year: 'FY 2023-24', quarter: 'Q5', previous_receipt_number: '123456789012345', tan: 'EABC23456N' },
      },
    ],
    search: [{
      name: 'vendor', summary: 'The newest ten jobs', source: `${SOURCE}, POST /tcs/reports/txt/search, example "200 - Success"`,
      body: { '@entity': `${tcs}.jobs.search`, page_size: 10 },
    }],
  },
};
