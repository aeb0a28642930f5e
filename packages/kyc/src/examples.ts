// Request examples of the kyc operations for the OpenAPI document (and so for an API reference's Try-it-out).
// The vendor's own where it publishes them (its OpenAPI document kyc.openapi.json and its Postman collection), in
// our words (`docvault` for its DigiLocker, `service` in `@entity`, docs/API.md); our sandbox answers each of
// them (packages/sandbox README), a production deployment its real provider.
import type { RouteExample } from '@satyapan/core';

const OPENAPI = 'the vendor\'s OpenAPI document (kyc.openapi.json)';
const POSTMAN = 'the vendor\'s Postman collection (in-co-sandbox-kyc)';
const PREFIX = 'in.co.service.kyc';

export const KYC_EXAMPLES = {
  initDocvaultSession: [{
    name: 'vendor', summary: 'Aadhaar and PAN, for an existing locker user', source: `${OPENAPI}, POST /kyc/digilocker/sessions/init, example "200 Example"`,
    body: { '@entity': `${PREFIX}.docvault.session.request`, flow: 'signin', doc_types: ['aadhaar', 'pan'], redirect_url: 'https://sandbox.co.in' },
  }],
  initEntityvaultSession: [{
    name: 'vendor', summary: 'An entity locker session', source: `${OPENAPI}, POST /kyc/entitylocker/sessions/init, example "200 Example"`,
    body: { '@entity': `${PREFIX}.entityvault.session.request`, flow: 'signin', redirect_url: 'https://sandbox.co.in' },
  }],
  createDocvaultSdkSession: [{
    name: 'vendor', summary: 'Aadhaar, driving licence and PAN', source: `${POSTMAN}, DigiLocker > DigiLocker SDK > Create Session`,
    body: { '@entity': `${PREFIX}.docvault.sdk.session.request`, flow: 'signin', doc_types: ['aadhaar', 'driving_license', 'pan'] },
  }],
  createEntityvaultSdkSession: [{
    name: 'company', summary: 'The company master details',
    source: 'ours: the vendor publishes no entity locker SDK example; this follows its docvault one',
    body: { '@entity': `${PREFIX}.entityvault.sdk.session.request`, flow: 'signin', doc_types: ['company_master_details'] },
  }],
  verifyDocvaultUser: [{
    name: 'vendor', summary: 'By Aadhaar number and mobile number',
    source: `${OPENAPI}, POST /kyc/digilocker/user/verify, its request example with the placeholders filled with the locker simulator's first user`,
    body: { '@entity': `${PREFIX}.docvault.user.verification.request`, aadhaar_number: '734500052346', mobile: '9876543210' },
  }],
  matchNames: [{
    name: 'person', summary: 'A name with an honorific and an initial, in another order',
    source: 'ours: the vendor has no name match',
    body: { '@entity': `${PREFIX}.name_match.request`, name_1: 'Mr. Rajesh Kumar Sharma', name_2: 'SHARMA RAJESH K' },
  }],
  sendAadhaarOtp: [{
    name: 'vendor', summary: 'Send an OTP', source: `${OPENAPI}, POST /kyc/aadhaar/okyc/otp, example "Generate OTP"`,
    body: { '@entity': `${PREFIX}.aadhaar.okyc.otp.request`, aadhaar_number: '123456789012', consent: 'y', reason: 'For KYC' },
  }],
  verifyAadhaarOtp: [{
    name: 'vendor', summary: 'Verify the OTP of the send example', source: `${OPENAPI}, POST /kyc/aadhaar/okyc/otp/verify, example "Verify OTP"`,
    body: { '@entity': `${PREFIX}.aadhaar.okyc.request`, otp: '121212', reference_id: '1234567' },
  }],
  verifyPan: [{
    name: 'vendor', summary: 'An individual\'s PAN', source: `${OPENAPI}, POST /kyc/pan/verify, example "Verify PAN"`,
    body: {
      '@entity': `${PREFIX}.pan_verification.request`, pan: 'XXXPX1234A', name_as_per_pan: 'John Ronald Doe', date_of_birth: '11/11/2001',
      consent: 'Y', reason: 'For onboarding customers',
    },
  }],
  getPanAadhaarLinkStatus: [{
    name: 'vendor', summary: 'A PAN linked to the Aadhaar number', source: `${POSTMAN}, PAN > PAN Aadhaar Link Status, example "200 - Success"`,
    body: { '@entity': `${PREFIX}.pan_aadhaar.status`, pan: 'XXXPX1234A', aadhaar_number: '123456789012', consent: 'y', reason: 'For Testing' },
  }],
} satisfies Record<string, readonly RouteExample[]>;
