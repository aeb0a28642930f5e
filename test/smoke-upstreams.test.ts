// The smoke-test script (`npm run smoke:upstreams`, scripts/smoke-upstreams.ts) run as its own process against
// the sandbox simulators, so that the script an operator runs against a provider's sandbox is known to work.
import { expect } from 'chai';
import { fileURLToPath } from 'node:url';
import {
  PAN_TEST_VALUES, PENNY_DROP_TEST_ACCOUNTS, PENNY_DROP_TEST_IFSC, startAadhaarOtpSimulator, startPanAadhaarLinkSimulator, startPanSimulator,
  startPennyDropSimulator, startPennyLessSimulator, AADHAAR_TEST_NUMBERS,
} from '@satyapan/sandbox';
import { spawnProgram } from './support/spawn-program.js';

const SCRIPT = fileURLToPath(new URL('../scripts/smoke-upstreams.ts', import.meta.url));
const CASHFREE = { clientId: 'smoke-id', clientSecret: 'smoke-secret' };

describe('scripts/smoke-upstreams.ts against the sandbox simulators', function () {
  this.timeout(60_000);

  it('calls each configured upstream once and prints what it understood; skips the unconfigured', async () => {
    const [pennyDrop, pan, otp, pennyLess, link] = await Promise.all([
      startPennyDropSimulator(CASHFREE), startPanSimulator(CASHFREE), startAadhaarOtpSimulator(CASHFREE), startPennyLessSimulator(), startPanAadhaarLinkSimulator(),
    ]);
    try {
      const program = spawnProgram(SCRIPT, {
        CASHFREE_VERIFICATION_URL: `${pennyDrop.url}/verification`, CASHFREE_PAN_URL: pan.url, CASHFREE_AADHAAR_URL: `${otp.url}/verification`,
        CASHFREE_CLIENT_ID: CASHFREE.clientId, CASHFREE_CLIENT_SECRET: CASHFREE.clientSecret,
        SMOKE_BANK_ACCOUNT: PENNY_DROP_TEST_ACCOUNTS.valid, SMOKE_IFSC: PENNY_DROP_TEST_IFSC, SMOKE_PAN: PAN_TEST_VALUES.individual,
        SMOKE_AADHAAR: AADHAAR_TEST_NUMBERS.otpSent,
        SETU_URL: pennyLess.url, SETU_CLIENT_ID: pennyLess.clientId, SETU_CLIENT_SECRET: pennyLess.clientSecret, SETU_PRODUCT_INSTANCE_ID: pennyLess.productInstanceId,
        INCOME_TAX_PORTAL_URL: '', LOG_LEVEL: 'warn',
      });
      expect(await program.exited(), program.output()).to.equal(0);
      const output = program.output();
      expect(output).to.contain('penny drop (Cashfree bank-account/sync): understood: ACCOUNT_IS_VALID: "Bank Account details verified successfully.", account exists, cached');
      expect(output).to.contain('PAN 360 (Cashfree pan/advance): understood: VALID: valid PAN, date of birth read, registered name read');
      expect(output).to.contain('offline Aadhaar OTP (Cashfree offline-aadhaar/otp): understood: sent, a reference id came back');
      // Setu's own sandbox account, which the simulator knows as Setu documents it.
      expect(output).to.contain('penny-less (Setu api/verify/ban/pennyless): understood: SUCCESS/MERCHANT, account exists');
      expect(output).to.contain('PAN-Aadhaar link status (e-filing portal getEntity): skipped (set INCOME_TAX_PORTAL_URL, SMOKE_LINK_PAN, SMOKE_LINK_AADHAAR)');
      expect(output).to.not.contain('ANJALI').and.not.contain(PAN_TEST_VALUES.individual);
      expect(pennyDrop.requests() + pan.requests() + otp.otpRequests() + pennyLess.requests()).to.equal(4);
      expect(link.requests()).to.equal(0);
    } finally {
      await Promise.all([pennyDrop.close(), pan.close(), otp.close(), pennyLess.close(), link.close()]);
    }
  });

  it('exits 1 and says FAILED when an upstream refuses our setup, the cause on stderr', async () => {
    const pennyDrop = await startPennyDropSimulator(CASHFREE);
    try {
      const program = spawnProgram(SCRIPT, {
        CASHFREE_VERIFICATION_URL: pennyDrop.url, CASHFREE_PAN_URL: pennyDrop.url, CASHFREE_AADHAAR_URL: pennyDrop.url,
        CASHFREE_CLIENT_ID: CASHFREE.clientId, CASHFREE_CLIENT_SECRET: 'not-the-secret', SETU_URL: '', LOG_LEVEL: 'warn',
      });
      expect(await program.exited()).to.equal(1);
      expect(program.output()).to.contain('penny drop (Cashfree bank-account/sync): FAILED: we would answer 500 Internal Server Error')
        .and.contain('Cashfree refused our credentials').and.not.contain('not-the-secret');
    } finally {
      await pennyDrop.close();
    }
  });
});
