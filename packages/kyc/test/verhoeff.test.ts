import { expect } from 'chai';
import fc from 'fast-check';
import { isValidAadhaarNumber, verhoeffCheckDigit, verhoeffValid } from '@satyapan/kyc';
import { AADHAAR_TEST_NUMBERS } from '@satyapan/sandbox';

describe('kyc: Verhoeff and the Aadhaar number rules', () => {
  it('agrees with published valid and invalid examples', () => {
    for (const valid of ['878523641781', '234123412346', '999999990019', '2363']) expect(verhoeffValid(valid), valid).to.equal(true);
    for (const invalid of ['123456789012', '655675523712', '655675523711', '2364']) expect(verhoeffValid(invalid), invalid).to.equal(false);
  });

  it('generates the check digit that makes any payload valid, and catches every single-digit error', () => {
    fc.assert(fc.property(fc.stringMatching(/^[0-9]{11}$/), fc.nat(10), fc.integer({ min: 1, max: 9 }), (payload, position, delta) => {
      const number = payload + verhoeffCheckDigit(payload);
      expect(verhoeffValid(number)).to.equal(true);
      const at = position % 12;
      const changed = number.slice(0, at) + String((Number(number[at]) + delta) % 10) + number.slice(at + 1);
      expect(verhoeffValid(changed)).to.equal(false);
    }), { numRuns: 300 });
  });

  it('refuses numbers starting with 0 or 1 and anything that is not 12 digits', () => {
    const startsWithOne = '1' + '2345678901';
    expect(isValidAadhaarNumber(startsWithOne + verhoeffCheckDigit(startsWithOne))).to.equal(false);
    expect(isValidAadhaarNumber('23412341234')).to.equal(false);
    expect(isValidAadhaarNumber('2341 2341 2346')).to.equal(false);
    expect(isValidAadhaarNumber('234123412346')).to.equal(true);
  });

  it('accepts every test number of the OTP provider simulator', () => {
    for (const [outcome, number] of Object.entries(AADHAAR_TEST_NUMBERS)) expect(isValidAadhaarNumber(number), outcome).to.equal(true);
  });
});
