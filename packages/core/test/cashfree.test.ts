import { expect } from 'chai';
import { constants, generateKeyPairSync, privateDecrypt } from 'node:crypto';
import { CASHFREE_REFUSAL_CAUSES, CashfreeHeaders, cashfreeBaseUrl, cashfreeRefusal } from '@satyapan/core';

/**
 * What the three Cashfree adapters (penny drop in bank, PAN 360 and offline Aadhaar OTP in kyc) take from core,
 * checked once here: the base URL convention, the headers with Cashfree's request signature, and the reading of
 * a refusal about us. Each adapter's contract test checks that it calls through these.
 */
describe('core: Cashfree upstream conventions', () => {
  it('reaches the same operations whether the base URL carries /verification or not', () => {
    expect(cashfreeBaseUrl('http://127.0.0.1:1234')).to.equal('http://127.0.0.1:1234/verification');
    expect(cashfreeBaseUrl('http://127.0.0.1:1234/')).to.equal('http://127.0.0.1:1234/verification');
    expect(cashfreeBaseUrl('https://sandbox.cashfree.com/verification')).to.equal('https://sandbox.cashfree.com/verification');
    expect(cashfreeBaseUrl('https://sandbox.cashfree.com/verification/')).to.equal('https://sandbox.cashfree.com/verification');
  });

  it('sends the client id and secret, and x-api-version only when set', () => {
    expect(new CashfreeHeaders({ clientId: 'cf-id', clientSecret: 'cf-secret' }).current()).to.deep.equal({ 'x-client-id': 'cf-id', 'x-client-secret': 'cf-secret' });
    expect(new CashfreeHeaders({ clientId: 'cf-id', clientSecret: 'cf-secret', apiVersion: '2023-12-18' }).current()).to.include({ 'x-api-version': '2023-12-18' });
  });

  describe('request signing (x-cf-signature)', () => {
    it('signs every call with RSA-OAEP of clientId.unixSeconds under Cashfree\'s public key, fresh each time', () => {
      // Core's own test: no other package's test support (the sandbox's builds on core).
      const keys = generateKeyPairSync('rsa', { modulusLength: 2048, publicKeyEncoding: { type: 'spki', format: 'pem' }, privateKeyEncoding: { type: 'pkcs8', format: 'pem' } });
      const headers = new CashfreeHeaders({ clientId: 'cf-id', clientSecret: 'cf-secret', publicKeyPem: keys.publicKey });
      expect(headers.signed).to.equal(true);
      const before = Math.floor(Date.now() / 1000);
      const signatures = [headers.current(), headers.current()].map((sent) => String(sent['x-cf-signature']));
      expect(signatures[0]).to.not.equal(signatures[1]); // OAEP is randomised: never a replayable constant
      for (const signature of signatures) {
        const plain = privateDecrypt({ key: keys.privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING }, Buffer.from(signature, 'base64')).toString();
        const [id, seconds] = plain.split('.');
        expect(id).to.equal('cf-id');
        expect(Number(seconds)).to.be.within(before, before + 5);
      }
    });

    it('does not sign without a public key', () => {
      const headers = new CashfreeHeaders({ clientId: 'cf-id', clientSecret: 'cf-secret' });
      expect(headers.signed).to.equal(false);
      expect(headers.current()).to.not.have.property('x-cf-signature');
    });

    it('refuses a malformed public key when the headers are built (the adapter\'s constructor), not on the first call', () => {
      expect(() => new CashfreeHeaders({ clientId: 'a', clientSecret: 'b', publicKeyPem: 'not a key' })).to.throw();
    });
  });

  describe('cashfreeRefusal', () => {
    const causes = CASHFREE_REFUSAL_CAUSES;

    it('reads our setup as a 500 with the cause to fix: credentials, IP or signature, the setup 400s', () => {
      expect(cashfreeRefusal(401, 'authentication_failed', false)).to.deep.equal({ error: 'INTERNAL', cause: causes.credentials });
      expect(cashfreeRefusal(403, 'ip_validation_failed', false)).to.deep.equal({ error: 'INTERNAL', cause: causes.ipNotWhitelisted });
      expect(cashfreeRefusal(403, 'ip_validation_failed', true)).to.deep.equal({ error: 'INTERNAL', cause: causes.signature });
      for (const code of ['x-client-id_missing', 'x-client-secret_missing', 'x-client-secret_value_invalid', 'invalid_request'] as const) {
        expect(cashfreeRefusal(400, code, false)).to.deep.equal({ error: 'INTERNAL', cause: causes[code] });
      }
    });

    it('reads our standing (the empty wallet, a verification already running) as a 503 with its cause', () => {
      expect(cashfreeRefusal(422, 'insufficient_balance', false)).to.deep.equal({ error: 'SOURCE_UNAVAILABLE', cause: causes.insufficient_balance });
      expect(cashfreeRefusal(422, 'verification_already_under_process', false))
        .to.deep.equal({ error: 'SOURCE_UNAVAILABLE', cause: causes.verification_already_under_process });
    });

    it('leaves every other answer to the adapter', () => {
      for (const [status, code] of [[400, 'pan_missing'], [422, 'fraud_account'], [409, 'verification_pending'], [429, 'too_many_requests'], [500, 'internal_error'], [400, 'insufficient_balance']] as const) {
        expect(cashfreeRefusal(status, code, false), `${status} ${code}`).to.equal(null);
      }
    });
  });
});
