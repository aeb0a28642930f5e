import { expect } from 'chai';
import { PassThrough } from 'node:stream';
import request from 'supertest';
import { createLogger } from '@satyapan/core';
import { CLIENTS, startHarness } from './support/harness.js';
import { crashRoute, echoRoute } from './support/routes.js';

describe('router: request logging', () => {
  it('writes the request id on every line and no tokens, keys or identity data', async () => {
    const sink = new PassThrough();
    let written = '';
    sink.on('data', (chunk: Buffer) => { written += chunk.toString(); });
    const h = await startHarness({ routes: [echoRoute, crashRoute], logger: createLogger({ stream: sink }) });
    try {
      const token = await h.token();
      const ok = await request(h.app).post('/api/test/echo/HDFC0000001?account=123456789012').set('authorization', token).set('x-api-key', CLIENTS.all.apiKey)
        .send({ '@entity': 'in.co.service.test.request', quarter: 'Q1', doc_types: ['pan'] });
      const crash = await request(h.app).get('/api/test/crash').set('authorization', token).set('x-api-key', CLIENTS.all.apiKey);
      await new Promise((resolve) => setTimeout(resolve, 20));
      const lines = written.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
      const ids = new Set(lines.map((line) => line['request_id']));
      expect(ids).to.include(ok.headers['x-request-id']);
      expect(ids).to.include(crash.headers['x-request-id']);
      expect(lines.every((line) => typeof line['request_id'] === 'string')).to.equal(true);
      const failure = lines.find((line) => line['message'] === 'request failed');
      expect(failure).to.include({ request_id: crash.headers['x-request-id'], code: 'INTERNAL', status: 500 });
      expect(lines.some((line) => line['route'] === '/api/test/echo/:ifsc')).to.equal(true);
      for (const secret of ['HDFC0000001', token, CLIENTS.all.apiSecret, '123456789012']) expect(written).not.to.include(secret);
    } finally {
      await h.close();
    }
  });
});
