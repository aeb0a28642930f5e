// The `pan_aadhaar_link` bulk kind (issue 25): each row's PAN-Aadhaar link status through the kyc service and the
// e-filing portal's simulator, with the single call's input rules and answers per row, the Aadhaar number masked
// in the result file and never in the journal, the kyc product required.
import { expect } from 'chai';
import { PAN_TEST_VALUES as PAN } from '@satyapan/sandbox';
import { CLIENT, startBulkEnv, type BulkEnv } from './support/env.js';

const AADHAAR = '234567890123';

describe('bulk: PAN-Aadhaar link status rows (pan_aadhaar_link)', function () {
  this.timeout(30_000);
  let env: BulkEnv;
  beforeEach(async () => {
    env = await startBulkEnv({ linkStatus: true });
  });
  afterEach(async () => {
    await env.close();
  });

  it('answers each row as POST /kyc/pan-aadhaar/status does: linked, not linked, the portal\'s refusals, bad rows, an outage', async () => {
    await env.startWorker();
    const csv = [
      'reference,pan,aadhaar_number,consent,reason',
      `l1,${PAN.individual},${AADHAAR},Y,Onboarding`,
      `l2,${PAN.individualNotSeeded},${AADHAAR},y,Onboarding`,
      `l3,${PAN.panLinkedElsewhere},${AADHAAR},Y,Onboarding`,
      `l4,${PAN.invalid},${AADHAAR},Y,Onboarding`,
      `l5,${PAN.company},${AADHAAR},Y,Onboarding`,
      `l6,${PAN.individual},12345,Y,Onboarding`,
      `l7,${PAN.individual},${AADHAAR},N,Onboarding`,
      `l8,${PAN.sourceUnavailable},${AADHAAR},Y,Onboarding`,
      `l9,ABCDE1234,${AADHAAR},Y,Onboarding`,
    ].join('\n');
    const done = await env.finished((await env.submitAndUpload('pan_aadhaar_link', csv)).job_id);
    const [header, ...rows] = await env.resultLines(done);
    expect(header).to.equal('line,reference,pan,aadhaar_number,consent,reason,outcome,code,message,aadhaar_seeding_status');
    const byRef = new Map(rows.map((row) => [row.split(',')[1], row.split(',')]));
    expect(byRef.get('l1')!.slice(3)).to.deep.equal(['XXXXXXXX0123', 'Y', 'Onboarding', 'ok', 'OK', 'Your PAN is linked to Aadhaar Number  XXXX XXXX 0123.', 'y']);
    expect(byRef.get('l2')!.slice(6)).to.deep.equal(['ok', 'OK', 'PAN not linked with Aadhaar', 'n']);
    expect(byRef.get('l3')!.slice(6)).to.deep.equal(['ok', 'OK', 'Your PAN is linked to some other Aadhaar Number', 'n']);
    expect(byRef.get('l4')!.slice(6)).to.deep.equal(['ok', 'OK', 'PAN does not exist', 'n']);
    expect(byRef.get('l5')![6]).to.equal('invalid');
    expect(byRef.get('l6')![6]).to.equal('invalid');
    expect(byRef.get('l7')!.slice(6, 8)).to.deep.equal(['invalid', 'LINK_CONSENT_REQUIRED']);
    expect(byRef.get('l8')!.slice(6, 9)).to.deep.equal(['error', 'SOURCE_UNAVAILABLE', 'Source Unavailable']);
    // A malformed PAN: the single call's 422, word for word.
    expect(byRef.get('l9')!.slice(6, 9)).to.deep.equal(['invalid', 'INVALID_LINK_PAN_PATTERN', 'Invalid PAN pattern']);
    expect(done.summary).to.deep.equal({ ok: 4, invalid: 4, error: 1, interrupted: 0 });
    // No full Aadhaar number in the result file, the summary or Redis.
    expect(rows.join('\n')).not.to.include(AADHAAR);
    expect((await env.summaryLines(done)).join('\n')).not.to.include(AADHAAR);
    const keys = await env.redis.keys(`${env.keyPrefix}*`);
    for (const key of keys) {
      const type = await env.redis.type(key);
      const values = type === 'hash' ? Object.values(await env.redis.hgetall(key)) : type === 'string' ? [await env.redis.get(key)] : [];
      expect(values.join('|'), key).not.to.include(AADHAAR);
    }
  });

  it('needs the kyc product', async () => {
    const refusal = await env.service.submit({ kind: 'pan_aadhaar_link' }, { ...CLIENT, products: ['bank'] }).then(() => null, (error: unknown) => error);
    expect(refusal).to.include({ status: 403, message: 'Insufficient privilege' });
  });
});
