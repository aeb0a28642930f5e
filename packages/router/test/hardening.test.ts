// Findings of the attack on the router (issue 12): brute force on the token endpoints, token caching, malformed
// input that used to answer 500, the Host header reflected into absolute URLs, and log levels.
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { PassThrough } from 'node:stream';
import { gzipSync } from 'node:zlib';
import request from 'supertest';
import { createLogger, documentedError, serviceError } from '@satyapan/core';
import { clearCredentialLockout, type RouteDefinition } from '@satyapan/router';
import { runAdmin } from '../src/cli/admin-cli.js';
import { CLIENTS, startHarness, type Harness } from './support/harness.js';
import { deprecatedRoute, echoRoute } from './support/routes.js';

/** A sink for the router's JSON log lines. */
function logSink(): { logger: ReturnType<typeof createLogger>; lines(): Array<Record<string, unknown>>; text(): string } {
  const sink = new PassThrough();
  let written = '';
  sink.on('data', (chunk: Buffer) => { written += chunk.toString(); });
  return {
    logger: createLogger({ stream: sink }),
    text: () => written,
    lines: () => written.trim().split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}

/** POST /authenticate from a chosen loopback source address (Linux routes all of 127/8 to lo). */
function authenticateFrom(h: Harness, localAddress: string, key: string, secret: string): Promise<{ status: number; headers: Record<string, unknown>; body: Record<string, unknown> }> {
  const url = new URL(`${h.baseUrl}/authenticate`);
  return new Promise((resolve, reject) => {
    const req = httpRequest({
      host: url.hostname, port: url.port, path: url.pathname, method: 'POST', localAddress,
      headers: { 'x-api-key': key, 'x-api-secret': secret },
    }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown> }));
    });
    req.on('error', reject);
    req.end();
  });
}

const unknownJob: RouteDefinition = {
  method: 'get', path: '/test/unknown/:id', operationId: 'testUnknown', summary: 'Always 521', tag: 'test', product: 'kyc', auth: 'jwt',
  schemas: {},
  errors: [documentedError('DATA_NOT_FOUND', '{id}')],
  handler: async ({ params }) => { throw serviceError('DATA_NOT_FOUND', String(params['id'])); },
};

describe('router hardening: credential guessing on /authenticate and /authorize', () => {
  let h: Harness;
  let log: ReturnType<typeof logSink>;
  before(async () => {
    log = logSink();
    h = await startHarness({ logger: log.logger, credentialLimit: { windowMs: 60_000, perAddress: 5, perApiKey: 8 } });
  });
  after(() => h.close());

  it('locks an address out after repeated wrong secrets: 429 with Retry-After and a message of its own, even for the right secret, and logs the refusal', async () => {
    for (let i = 0; i < 5; i += 1) expect((await authenticateFrom(h, '127.0.0.3', CLIENTS.all.apiKey, `wrong-${i}`)).status).to.equal(401);
    const refused = await authenticateFrom(h, '127.0.0.3', CLIENTS.all.apiKey, CLIENTS.all.apiSecret);
    expect(refused.status).to.equal(429);
    const seconds = Number(refused.headers['retry-after']);
    expect(seconds).to.be.within(1, 60);
    expect(refused.body).to.include({ code: 429, message: `Too many failed credential attempts from this address; retry after ${seconds} s` });
    expect(refused.body).to.have.all.keys('code', 'timestamp', 'message', 'transaction_id');
    const line = log.lines().find((entry) => entry['message'] === 'credential attempts refused');
    expect(line).to.include({ level: 'warn', limit: 'address', code: 'CREDENTIAL_LOCKOUT', address: '127.0.0.3' });
    expect(log.text()).not.to.include(CLIENTS.all.apiSecret);
    expect(log.text()).not.to.include(CLIENTS.all.apiKey);
  });

  it('clearCredentialLockout ends an address\'s lockout at once, for every router on the Redis; other addresses keep theirs', async () => {
    for (const address of ['127.0.0.9', '127.0.0.10']) {
      // Keys nobody has, one per address, so that no real key's own lockout is reached.
      for (let i = 0; i < 5; i += 1) await authenticateFrom(h, address, `key_guess_${address}`, `wrong-${i}`);
      expect((await authenticateFrom(h, address, CLIENTS.bankOnly.apiKey, CLIENTS.bankOnly.apiSecret)).status, address).to.equal(429);
    }
    // As the log line shows the address; an IPv4-mapped IPv6 form names the same counter.
    expect(await clearCredentialLockout({ connection: h.redis, keyPrefix: h.keyPrefix, address: '::ffff:127.0.0.9' })).to.deep.equal({ cleared: 1 });
    expect((await authenticateFrom(h, '127.0.0.9', CLIENTS.bankOnly.apiKey, CLIENTS.bankOnly.apiSecret)).status).to.equal(200);
    expect((await authenticateFrom(h, '127.0.0.10', CLIENTS.bankOnly.apiKey, CLIENTS.bankOnly.apiSecret)).status).to.equal(429);
    expect(await clearCredentialLockout({ connection: h.redis, keyPrefix: h.keyPrefix, address: '127.0.0.11' }), 'an address never counted').to.deep.equal({ cleared: 0 });
    // The operator's command does the same (run as a shell runs it, from source; it finds Redis as the routers do).
    const bin = fileURLToPath(new URL('../src/cli/bin.ts', import.meta.url));
    const { stdout } = await promisify(execFile)(process.execPath, ['--conditions=satyapan-source', '--import', 'tsx', bin, 'clear-lockout', '--address', '127.0.0.10'], {
      env: { ...process.env, SATYAPAN_KEY_PREFIX: h.keyPrefix },
    });
    expect(stdout).to.equal(`address 127.0.0.10: cleared 1 failed-attempt counter(s) under key prefix ${h.keyPrefix}; the lockout is over\n`);
    expect((await authenticateFrom(h, '127.0.0.10', CLIENTS.bankOnly.apiKey, CLIENTS.bankOnly.apiSecret)).status).to.equal(200);
    await runAdmin(['clear-lockout'], () => h.redis).then(() => expect.fail('expected a usage error'), (error: Error) => {
      expect(error.message).to.match(/^clear-lockout needs --address or --api-key\nusage:/);
    });
  });

  it('limits one API key across addresses, and successful exchanges do not count', async () => {
    const key = CLIENTS.other.apiKey;
    for (let i = 0; i < 4; i += 1) expect((await authenticateFrom(h, '127.0.0.4', key, CLIENTS.other.apiSecret)).status).to.equal(200);
    const statuses: number[] = [];
    for (let i = 0; i < 8; i += 1) statuses.push((await authenticateFrom(h, i % 2 === 0 ? '127.0.0.5' : '127.0.0.6', key, `wrong-${i}`)).status);
    expect(statuses).to.deep.equal([401, 401, 401, 401, 401, 401, 401, 401]);
    const locked = await authenticateFrom(h, '127.0.0.7', key, CLIENTS.other.apiSecret);
    expect(locked.status).to.equal(429);
    expect(locked.body['message']).to.equal(`Too many failed credential attempts for this API key; retry after ${Number(locked.headers['retry-after'])} s`);
    expect(log.lines().some((entry) => entry['message'] === 'credential attempts refused' && entry['limit'] === 'api_key' && entry['code'] === 'API_KEY_LOCKOUT')).to.equal(true);
    // Another key from another address is not affected.
    expect((await authenticateFrom(h, '127.0.0.8', CLIENTS.bankOnly.apiKey, CLIENTS.bankOnly.apiSecret)).status).to.equal(200);
    // Cleared by key (the counter is named by a digest of it).
    expect(await clearCredentialLockout({ connection: h.redis, keyPrefix: h.keyPrefix, apiKey: key })).to.deep.equal({ cleared: 1 });
    expect((await authenticateFrom(h, '127.0.0.7', key, CLIENTS.other.apiSecret)).status).to.equal(200);
  });

  it('guards /authorize the same way', async () => {
    const token = await h.token(CLIENTS.bankOnly);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i += 1) {
      statuses.push((await request(h.app).post(`/api/authorize?request_token=${token}x`).set('authorization', `${token}x`).set('x-api-key', CLIENTS.bankOnly.apiKey)).status);
    }
    expect(statuses.slice(0, 5).every((status) => status === 401 || status === 403)).to.equal(true);
    expect(statuses[5]).to.equal(429);
  });
});

describe('router hardening: answers and URLs', () => {
  let h: Harness;
  let token: string;
  let log: ReturnType<typeof logSink>;
  before(async () => {
    log = logSink();
    h = await startHarness({ routes: [echoRoute, deprecatedRoute, unknownJob], logger: log.logger });
    token = await h.token();
  });
  after(() => h.close());

  it('sends Cache-Control: no-store with every token', async () => {
    const issued = await request(h.app).post('/api/authenticate').set('x-api-key', CLIENTS.all.apiKey).set('x-api-secret', CLIENTS.all.apiSecret);
    expect(issued.status).to.equal(200);
    expect(issued.headers['cache-control']).to.equal('no-store');
    const fresh = issued.body.data.access_token as string;
    const refreshed = await request(h.app).post(`/api/authorize?request_token=${fresh}`).set('authorization', fresh).set('x-api-key', CLIENTS.all.apiKey);
    expect(refreshed.status).to.equal(200);
    expect(refreshed.headers['cache-control']).to.equal('no-store');
  });

  it('answers 400 in the envelope to malformed percent-encoding in a path parameter, logged below error', async () => {
    for (const path of ['/api/test/echo/%C0%AE', '/api/test/echo/%ff', '/api/test/unknown/%E0%A4%A']) {
      const res = await request(h.app).post(path).set('authorization', token).set('x-api-key', CLIENTS.all.apiKey).send({});
      expect(res.status, path).to.equal(400);
      expect(res.body).to.include({ code: 400, message: 'Invalid parameter: path is not valid percent-encoding' });
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(log.lines().filter((line) => line['level'] === 'error')).to.deep.equal([]);
  });

  it('answers 400 to a gzip or br body that does not decompress, and accepts a real gzip body', async () => {
    const body = JSON.stringify({ '@entity': 'in.co.service.test.request', quarter: 'Q1', doc_types: ['pan'] });
    // fetch, not supertest: supertest re-encodes a Buffer body sent with a JSON content type.
    const post = (encoding: string, payload: Buffer) => fetch(`${h.baseUrl}/test/echo/HDFC0000001`, {
      method: 'POST', body: payload,
      headers: { authorization: token, 'x-api-key': CLIENTS.all.apiKey, 'content-type': 'application/json', 'content-encoding': encoding },
    });
    for (const encoding of ['gzip', 'br', 'deflate']) {
      const res = await post(encoding, Buffer.from('this is not compressed at all'));
      expect(res.status, encoding).to.equal(400);
      expect(await res.json(), encoding).to.include({ code: 400, message: `Invalid request body: body is not valid ${encoding} data` });
    }
    expect((await post('gzip', gzipSync(body))).status).to.equal(200);
    expect(log.lines().filter((line) => line['level'] === 'error')).to.deep.equal([]);
  });

  it('logs a 521 for an unknown id below error level', async () => {
    const res = await request(h.app).get('/api/test/unknown/7a7f9576-1234-4567-8901-007bc5ea0725').set('authorization', token).set('x-api-key', CLIENTS.all.apiKey);
    expect(res.status).to.equal(521);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(log.lines().filter((line) => line['level'] === 'error')).to.deep.equal([]);
  });

  it('never builds absolute URLs from the Host header', async () => {
    const res = await request(h.app).post('/api/test/old').set('host', 'evil.example').set('authorization', token).set('x-api-key', CLIENTS.all.apiKey).send({ n: 1 });
    expect(res.headers['link']).to.equal(`<${h.baseUrl}/test/echo/HDFC0000001>; rel="successor-version"`);
  });

  it('without a configured public base URL, links are relative to the request, never to its Host', async () => {
    const bare = await startHarness({ routes: [echoRoute, deprecatedRoute], publicBaseUrl: null });
    try {
      const res = await request(bare.app).post('/api/test/old').set('host', 'evil.example').send({ n: 1 });
      expect(res.headers['link']).to.equal('</api/test/echo/HDFC0000001>; rel="successor-version"');
    } finally {
      await bare.close();
    }
  });
});
