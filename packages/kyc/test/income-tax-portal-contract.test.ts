import { expect } from 'chai';
import { IncomeTaxLinkStatusProvider, type PanAadhaarLinkState } from '@satyapan/kyc';
import { PAN_TEST_VALUES, VENDOR_PAN_TEST_VALUES, startPanAadhaarLinkSimulator } from '@satyapan/sandbox';
import {
  SOURCE_UNAVAILABLE, adapterRig, failure, loadFixture, type Expected,
} from '../../sandbox/test/support/contract.js';

/**
 * The e-filing portal's link status against its answers as public callers quote them (fixtures/income-tax-portal;
 * the portal publishes no schema): each quoted answer is served by a loopback server and read by the adapter, and
 * the simulator's answers must be among the quoted ones.
 */
interface Quoted { code: string | null; meaning: string; desc: string | null }
const fixture = loadFixture<{ request: { path: string; body: Record<string, string> }; answers: Quoted[] }>('income-tax-portal/answers.json');

/** Keyed by the quoted answer's meaning: the portal answers each with 200 or 400 alike, so no status keys them. */
const MEANING: Record<string, Expected<PanAadhaarLinkState>> = {
  'the PAN is linked to the Aadhaar number sent': { answer: 'linked' },
  'the PAN is linked, to some other Aadhaar number': { answer: 'pan_linked_elsewhere' },
  'the PAN is not linked': { answer: 'not_linked' },
  'no such PAN': { answer: 'pan_not_found' },
  'not a valid Aadhaar number': { answer: 'invalid_aadhaar' },
  'not an individual taxpayer\'s PAN': { error: { status: 422, message: 'Individuals PAN is required' } },
  'the Aadhaar number is linked to some other PAN': { answer: 'linked_elsewhere' },
  'the PAN is inactive': SOURCE_UNAVAILABLE,
};
const AADHAAR = '234567890123';

describe('kyc: e-filing portal link status against the answers public callers quote', () => {
  const rig = adapterRig((url, logger) => new IncomeTaxLinkStatusProvider({ baseUrl: url, logger: logger }));

  it('has a meaning for every quoted answer, and no other', () => {
    expect(Object.keys(MEANING).sort()).to.deep.equal(fixture.answers.map((answer) => answer.meaning).sort());
  });

  for (const quoted of fixture.answers) {
    for (const status of [200, 400]) {
      it(`reads "${quoted.meaning}" (${quoted.code ?? 'no code'}, HTTP ${status}) as the portal means it`, async () => {
        const message: Record<string, string> = { type: status === 200 ? 'INFO' : 'ERROR', desc: quoted.desc ?? '' };
        if (quoted.code) message['code'] = quoted.code;
        rig.server.answer({ status, body: { messages: [message], errors: [] } });
        const expected = MEANING[quoted.meaning]!;
        const attempt = rig.adapter.linkStatus({ pan: 'CUTPX1234Q', aadhaarNumber: AADHAAR });
        if ('answer' in expected) expect(await attempt).to.include({ state: expected.answer, definitive: true });
        else expect(await failure(attempt)).to.deep.include(expected.error);
      });
    }
  }

  it('takes the linked number\'s last four from the number sent: the portal shows two digits of it', async () => {
    const linked = fixture.answers.find((answer) => answer.code === 'EF40124')!;
    rig.server.answer({ status: 200, body: { messages: [{ code: linked.code, type: 'INFO', desc: linked.desc }] } });
    expect(await rig.adapter.linkStatus({ pan: 'CUTPX1234Q', aadhaarNumber: AADHAAR })).to.include({ aadhaarLastFour: '0123' });
  });

  it('logs an unknown answer with the portal\'s code only (its text can carry the PAN)', async () => {
    rig.server.answer({ status: 200, body: { messages: [{ code: 'EF49999', type: 'INFO', desc: 'Your PAN CUTPX1234Q is something new' }] } });
    expect(await failure(rig.adapter.linkStatus({ pan: 'CUTPX1234Q', aadhaarNumber: AADHAAR }))).to.deep.include({ status: 503 });
    expect(rig.logs.text()).to.contain('EF49999').and.not.contain('CUTPX1234Q');
  });

  it('sends the request public callers send', async () => {
    rig.server.answer({ status: 200, body: { messages: [{ code: 'EF40024', type: 'INFO', desc: '' }] } });
    await rig.adapter.linkStatus({ pan: 'CUTPX1234Q', aadhaarNumber: AADHAAR });
    const [request] = rig.server.requests;
    expect([request!.method, request!.path]).to.deep.equal(['POST', fixture.request.path]);
    expect(Object.keys(request!.json as object).sort()).to.deep.equal(Object.keys(fixture.request.body).sort());
    expect(request!.json).to.deep.include({ preLoginFlag: 'Y', serviceName: 'linkAadhaarPreLoginService', pan: 'CUTPX1234Q', aadhaarNumber: AADHAAR });
  });

  it('the simulator answers only with quoted answers: a quoted code, or the quoted words of the code-less one', async () => {
    const sim = await startPanAadhaarLinkSimulator();
    const codes = fixture.answers.map((answer) => answer.code).filter((code): code is string => code !== null);
    try {
      for (const pan of [...Object.values(PAN_TEST_VALUES), ...Object.values(VENDOR_PAN_TEST_VALUES), 'QWEPT1234Y']) {
        const response = await fetch(`${sim.url}${fixture.request.path}`, {
          method: 'POST', headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ ...fixture.request.body, pan, aadhaarNumber: AADHAAR }),
        });
        if (response.status === 503) continue; // the simulator's down switch
        const { messages } = (await response.json()) as { messages: { code: string; desc: string }[] };
        const first = messages[0]!;
        const known = codes.includes(first.code) || /^Your Aadhaar Number \w+ is linked to some other PAN$/.test(first.desc);
        expect(known, `${pan}: ${first.code}`).to.equal(true);
      }
    } finally {
      await sim.close();
    }
  });
});
