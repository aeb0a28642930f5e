import { expect } from 'chai';
import { OpenIdLockerClient, type IssuedFileInfo } from '@satyapan/kyc';
import { loadFixture, startContractServer, type ContractServer } from '../../sandbox/test/support/contract.js';

/**
 * The locker client against DigiLocker's partner API specification (fixtures/digilocker: API Setu's authpartner
 * OpenAPI) and the answers lockers give in practice: its documented user answer is read (no mobile, no email),
 * downloads sent as text/plain or application/octet-stream get their real type, and the entity locker's
 * DD-MM-YYYY `doi` and upper-case `verified_by` are read. (The simulator's user answer is held to the
 * specification's schema in packages/sandbox/test/locker.test.ts.)
 */
interface Fixture { examples: Record<string, Record<string, unknown>> }
const fixture = loadFixture<Fixture>('digilocker/authpartner.json');

const file = (over: Partial<IssuedFileInfo> = {}): IssuedFileInfo => ({
  uri: 'in.gov.pan-PANCR-ABCDE1234F', doctype: 'PANCR', name: 'PAN', description: 'PAN', issuer: 'Income Tax', issuerId: 'in.gov.pan',
  date: '01-01-2020', mime: ['application/pdf'], ...over,
});

describe('kyc: locker client against DigiLocker\'s partner API and the lockers\' practice', () => {
  let server: ContractServer;
  let docvault: OpenIdLockerClient;
  let entityvault: OpenIdLockerClient;

  beforeEach(async () => {
    server = await startContractServer();
    docvault = new OpenIdLockerClient({ kind: 'docvault', baseUrl: server.url, clientId: 'c', clientSecret: 's' });
    entityvault = new OpenIdLockerClient({ kind: 'entityvault', baseUrl: server.url, clientId: 'c', clientSecret: 's' });
  });
  afterEach(async () => {
    docvault.close();
    entityvault.close();
    await server.close();
  });

  it('reads the specification\'s user answer, which has no mobile and no email', async () => {
    server.answer({ status: 200, body: fixture.examples['user'] });
    expect(await docvault.person('at')).to.deep.equal({
      id: '123e4567-e89b-12d3-a456-426655440000', name: 'Sunil Kumar', dob: '31121970', gender: 'M', eaadhaar: true, mobile: '', email: null,
    });
    expect(server.requests[0]).to.deep.include({ method: 'GET', path: '/oauth2/1/user' });
    // The specification's other spelling of the e-Aadhaar flag (its property is `eaadhar`).
    const { eaadhaar, ...rest } = fixture.examples['user']!;
    server.answer({ status: 200, body: { ...rest, eaadhar: eaadhaar } });
    expect(await docvault.person('at')).to.include({ eaadhaar: true });
    expect(server.requests[0]!.headers['authorization']).to.equal('Bearer at');
  });

  it('gives a download its real type when the locker sends text/plain or application/octet-stream', async () => {
    const cases: [string, Buffer, IssuedFileInfo, string][] = [
      ['text/plain; charset=utf-8', Buffer.from('<?xml version="1.0"?><Certificate/>'), file({ mime: ['application/xml'] }), 'application/xml'],
      ['application/octet-stream', Buffer.from('%PDF-1.4\n...'), file(), 'application/pdf'],
      ['application/octet-stream', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a]), file(), 'image/png'],
      ['application/octet-stream', Buffer.from('not a known kind'), file({ mime: ['application/PDF'] }), 'application/pdf'],
      ['application/pdf', Buffer.from('%PDF-1.4'), file(), 'application/pdf'],
    ];
    for (const [sent, body, listing, expected] of cases) {
      server.answer({ status: 200, body, contentType: sent });
      expect((await docvault.download('at', listing)).contentType, sent).to.equal(expected);
    }
  });

  it('reads the entity locker\'s doi as DD-MM-YYYY or DDMMYYYY and its verified_by in either case', async () => {
    const entity = { entitylockerid: 'e-1', name: 'SATYAPAN DEMO', email: 'a@b.in', mobile: '9988776655', verified_by: 'CIN' };
    for (const doi of ['16-01-2021', '16012021']) {
      server.answer({ status: 200, body: { ...entity, doi } });
      expect(await entityvault.business('at')).to.include({ incorporatedOn: '16012021', verifiedBy: 'cin' });
    }
    server.answer({ status: 200, body: { ...entity, doi: '2021-01-16' } });
    const refused = await entityvault.business('at').catch((error: unknown) => error);
    expect(refused).to.have.property('message').that.contains('entity.doi');
  });
});
