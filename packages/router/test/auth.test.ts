import { expect } from 'chai';
import request from 'supertest';
import { SignJWT, UnsecuredJWT } from 'jose';
import { StaticClientStore } from '@satyapan/router';
import { CLIENTS, TOKEN_SECRET, startHarness, type Harness } from './support/harness.js';
import { echoRoute } from './support/routes.js';

const body = { '@entity': 'in.co.service.test.request', quarter: 'Q1', doc_types: ['pan'] };

describe('router: authentication', () => {
  let h: Harness;
  before(async () => { h = await startHarness({ routes: [echoRoute] }); });
  after(() => h.close());

  /** `apiKey: null` sends no x-api-key header. */
  const call = (token: string | undefined, apiKey: string | null = CLIENTS.all.apiKey) => {
    const req = request(h.app).post('/api/test/echo/HDFC0000001').send(body);
    if (token !== undefined) req.set('authorization', token);
    if (apiKey !== null) req.set('x-api-key', apiKey);
    return req;
  };

  it('authenticates with key and secret, enveloped, with x-request-id = transaction_id', async () => {
    const res = await request(h.app).post('/api/authenticate').set('x-api-key', CLIENTS.all.apiKey).set('x-api-secret', CLIENTS.all.apiSecret).send({});
    expect(res.status).to.equal(200);
    expect(res.body).to.have.keys('code', 'timestamp', 'data', 'transaction_id');
    expect(res.body.data.access_token).to.match(/^eyJ/);
    expect(res.headers['x-request-id']).to.equal(res.body.transaction_id);
    expect((await call(res.body.data.access_token)).status).to.equal(200);
  });

  it('refuses a bad or missing key or secret with 401 Unauthorized (the vendor\'s errors page)', async () => {
    for (const [key, secret] of [[CLIENTS.all.apiKey, 'wrong'], ['key_unknown', 'x'], [CLIENTS.all.apiKey, undefined]] as const) {
      const req = request(h.app).post('/api/authenticate').set('x-api-key', key);
      if (secret) req.set('x-api-secret', secret);
      const res = await req;
      expect(res.status).to.equal(401);
      expect(res.body).to.include({ code: 401, message: 'Unauthorized' });
    }
  });

  it('tolerates a Bearer prefix', async () => {
    expect((await call(`Bearer ${await h.token()}`)).status).to.equal(200);
  });

  it('answers 403 Invalid access token to a missing, malformed, unsigned or wrongly signed token', async () => {
    const now = Math.floor(Date.now() / 1000);
    const claims = { sub: 'client-all', jti: 'x', fat: now };
    const none = new UnsecuredJWT(claims).setIssuer('satyapan').setAudience('satyapan-api').setIssuedAt(now).setExpirationTime(now + 60).encode();
    const wrongKey = await new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setIssuer('satyapan').setAudience('satyapan-api')
      .setIssuedAt(now).setExpirationTime(now + 60).sign(new TextEncoder().encode('another-secret-another-secret-123456'));
    const noExp = await new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setIssuer('satyapan').setAudience('satyapan-api')
      .setIssuedAt(now).sign(new TextEncoder().encode(TOKEN_SECRET));
    const wrongAudience = await new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setIssuer('satyapan').setAudience('other')
      .setIssuedAt(now).setExpirationTime(now + 60).sign(new TextEncoder().encode(TOKEN_SECRET));
    for (const token of [undefined, '', 'garbage', 'a.b.c', none, wrongKey, noExp, wrongAudience]) {
      const res = await call(token);
      expect(res.status, String(token)).to.equal(403);
      expect(res.body).to.include({ code: 403, message: 'Invalid access token' });
    }
  });

  it('answers 403 Access token has expired after 24 hours', async () => {
    const token = await h.token();
    h.clock.advance(24 * 3600 * 1000 + 1000);
    try {
      const res = await call(token);
      expect(res.status).to.equal(403);
      expect(res.body.message).to.equal('Access token has expired');
    } finally {
      h.clock.set(Date.now());
    }
  });

  it('answers 403 Invalid access token to a token used with another key', async () => {
    const res = await call(await h.token(CLIENTS.all), CLIENTS.other.apiKey);
    expect(res.status).to.equal(403);
    expect(res.body.message).to.equal('Invalid access token');
  });

  it('answers 401 Unauthorized to an unknown or missing API key, whatever the token', async () => {
    const token = await h.token(CLIENTS.all);
    for (const key of ['key_unknown', null]) {
      const res = await call(token, key);
      expect(res.status, String(key)).to.equal(401);
      expect(res.body.message).to.equal('Unauthorized');
    }
  });

  it('answers 403 Insufficient privilege when the key lacks the product', async () => {
    const limited = await startHarness({ routes: [echoRoute], clients: [{ ...CLIENTS.other, products: ['kyc'] }] });
    try {
      const res = await request(limited.app).post('/api/test/echo/HDFC0000001').set('authorization', await limited.token(CLIENTS.other))
        .set('x-api-key', CLIENTS.other.apiKey).send(body);
      expect(res.status).to.equal(403);
      expect(res.body.message).to.equal('Insufficient privilege');
    } finally {
      await limited.close();
    }
  });

  it('refreshes a token once; the old one is then revoked', async () => {
    const old = await h.token();
    const refreshed = await request(h.app).post(`/api/authorize?request_token=${old}`).set('authorization', old).set('x-api-key', CLIENTS.all.apiKey);
    expect(refreshed.status).to.equal(200);
    const fresh = refreshed.body.data.access_token as string;
    expect(fresh).to.not.equal(old);
    expect((await call(fresh)).status).to.equal(200);
    const replay = await call(old);
    expect(replay.status).to.equal(403);
    expect(replay.body.message).to.equal('Access revoked');
    const again = await request(h.app).post(`/api/authorize?request_token=${old}`).set('authorization', old).set('x-api-key', CLIENTS.all.apiKey);
    expect(again.status).to.equal(403);
  });

  it('refuses a refresh whose request_token is not the token in the header, or is missing', async () => {
    const a = await h.token();
    const b = await h.token();
    const mismatch = await request(h.app).post(`/api/authorize?request_token=${b}`).set('authorization', a).set('x-api-key', CLIENTS.all.apiKey);
    expect(mismatch.status).to.equal(403);
    expect(mismatch.body.message).to.equal('Invalid access token');
    const missing = await request(h.app).post('/api/authorize').set('authorization', a).set('x-api-key', CLIENTS.all.apiKey);
    expect(missing.status).to.equal(400);
    expect(missing.body.message).to.equal('Invalid parameter: request_token is required');
  });

  it('allows refreshing only within 365 days of the first authenticate', async () => {
    let token = await h.token();
    try {
      for (let day = 0; day < 366; day += 1) {
        h.clock.advance(86_400_000 - 1000);
        const res = await request(h.app).post(`/api/authorize?request_token=${token}`).set('authorization', token).set('x-api-key', CLIENTS.all.apiKey);
        if (day < 364) {
          expect(res.status, `day ${day}`).to.equal(200);
          token = res.body.data.access_token;
        } else if (res.status !== 200) {
          expect(res.status).to.equal(403);
          return;
        } else token = res.body.data.access_token;
      }
      expect.fail('refresh still worked after 365 days');
    } finally {
      h.clock.set(Date.now());
    }
  });

  it('compares keys exactly: a key differing only in its last character is unknown', async () => {
    const store = new StaticClientStore([CLIENTS.all]);
    expect(await store.findByApiKey(CLIENTS.all.apiKey)).to.not.equal(null);
    expect(await store.findByApiKey(CLIENTS.all.apiKey.slice(0, -1) + 'X')).to.equal(null);
    expect(await store.findByApiKey(CLIENTS.all.apiKey + ' ')).to.equal(null);
  });
});
