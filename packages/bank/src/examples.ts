// Request examples of the bank operations for the OpenAPI document (and so for an API reference's Try-it-out).
// The vendor's own where it publishes them, copied from its Postman collection (`Bank` folder); our sandbox
// answers every one of them (packages/sandbox README), a production deployment its real provider.
import type { RouteExample } from '@satyapan/core';

const POSTMAN = 'the vendor\'s Postman collection (in-co-sandbox-kyc), Bank';

export const BANK_EXAMPLES = {
  searchBranches: [{
    name: 'city', summary: 'Kotak Mahindra Bank branches in Kanpur',
    source: 'the sample directory shipped with @satyapan/bank (the vendor has no branch search)',
    query: { bank: 'KKBK', city: 'KANPUR', page_size: 5 },
  }],
  lookupIfsc: [
    { name: 'vendor', summary: 'A branch with a SWIFT code', source: `${POSTMAN} > IFSC Verification, example "200 - Success"`, params: { ifsc: 'HDFC0001234' } },
    { name: 'sample', summary: 'A branch of the shipped sample directory', source: 'the sample directory shipped with @satyapan/bank', params: { ifsc: 'KKBK0000131' } },
  ],
  verifyBankAccount: [
    {
      name: 'vendor', summary: 'Verified account (John Doe)',
      source: `${POSTMAN} > Bank Account Verification [Penny-Drop], example "200 - Success"`,
      params: { ifsc: 'SBIN0021745', account_number: '40100123456781' },
    },
    {
      name: 'bad-ifsc', summary: 'An IFSC of the wrong pattern (422 Invalid IFSC pattern)',
      source: `${POSTMAN} > Bank Account Verification [Penny-Drop], example "422 - Invalid IFSC pattern"`,
      params: { ifsc: 'SX01745', account_number: '40100123456796' }, status: 422,
    },
  ],
  verifyBankAccountPennyLess: [{
    name: 'vendor', summary: 'An individual\'s account, with the holder\'s name',
    source: `${POSTMAN} > Bank Account Verification [Penny-Less], example "200 - Success"`,
    params: { ifsc: 'SBIN0021745', account_number: '60100123456781' },
  }],
} satisfies Record<string, readonly RouteExample[]>;
