import { expect } from 'chai';
import { bankArea, createBankService } from '@satyapan/bank';
import { CLIENTS, startHarness, type Harness } from '../../router/test/support/harness.js';
import { crashRoute } from '../../router/test/support/routes.js';
import { SatyapanApiError, createSatyapanClient, type SatyapanClientOptions } from '../src/index.js';

const IFSC = 'ABNA0100310'; // a branch of the bundled sample directory

describe('@satyapan/client against a real router', function () {
  let h: Harness;
  const calls: string[] = [];
  /** The global fetch, noting each path so that tests can count authenticate and authorize calls. */
  const countingFetch: typeof fetch = (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    calls.push(url.pathname.replace(/^\/api/, ''));
    return fetch(input, init);
  };
  const client = (overrides: Partial<SatyapanClientOptions> = {}) => createSatyapanClient({
    baseUrl: h.baseUrl, apiKey: CLIENTS.all.apiKey, apiSecret: CLIENTS.all.apiSecret, fetch: countingFetch,
    now: () => h.clock.now(), ...overrides,
  });

  before(async () => {
    h = await startHarness({ areas: [bankArea(await createBankService({}))], routes: [crashRoute] });
  });
  after(() => h.close());
  beforeEach(() => { calls.length = 0; });

  it('authenticates once for concurrent calls and sends the token and key on typed operations', async () => {
    const api = client();
    const answers = await Promise.all([1, 2, 3].map(() => api.GET('/bank/{ifsc}', { params: { path: { ifsc: IFSC } } })));
    for (const answer of answers) {
      expect(answer.response.status).to.equal(200);
      expect(answer.data?.IFSC).to.equal(IFSC);
    }
    expect(calls.filter((path) => path === '/authenticate')).to.have.length(1);
  });

  it('refreshes the token through /authorize shortly before it expires, and the old one stops working', async () => {
    const api = client();
    const first = await api.accessToken();
    h.clock.advance(24 * 3600_000 - 2 * 60_000); // two minutes before expiry: inside the 5-minute window
    const answer = await api.GET('/bank/{ifsc}', { params: { path: { ifsc: IFSC } } });
    expect(answer.response.status).to.equal(200);
    expect(calls).to.include('/authorize');
    const second = await api.accessToken();
    expect(second).to.not.equal(first);
    const old = await fetch(`${h.baseUrl}/bank/${IFSC}`, { headers: { authorization: first, 'x-api-key': CLIENTS.all.apiKey } });
    expect(old.status).to.equal(403);
  });

  it('a token revoked elsewhere is replaced and the call sent again, once', async () => {
    const api = client();
    const token = await api.accessToken();
    // Someone refreshes the same token: the API revokes it.
    await fetch(`${h.baseUrl}/authorize?request_token=${token}`, { method: 'POST', headers: { authorization: token, 'x-api-key': CLIENTS.all.apiKey } });
    calls.length = 0;
    const answer = await api.GET('/bank/{ifsc}', { params: { path: { ifsc: IFSC } } });
    expect(answer.response.status).to.equal(200);
    expect(calls.filter((path) => path === '/authenticate')).to.have.length(1);
  });

  it('a product the key lacks is answered as it is, without a retry', async () => {
    const api = client({ apiKey: CLIENTS.bankOnly.apiKey, apiSecret: CLIENTS.bankOnly.apiSecret });
    await api.accessToken();
    calls.length = 0;
    const response = await api.request('get', '/test/crash' as never);
    expect(response.response.status).to.equal(403);
    expect(calls).to.deep.equal(['/test/crash']);
  });

  it('wrong credentials surface as a SatyapanApiError with the API\'s status and message', async () => {
    const api = client({ apiSecret: 'not-the-secret' });
    const refused = await api.accessToken().catch((error: unknown) => error);
    expect(refused).to.be.instanceOf(SatyapanApiError);
    expect((refused as SatyapanApiError).status).to.be.oneOf([401]);
  });
});
