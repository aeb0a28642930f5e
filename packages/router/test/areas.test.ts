import { expect } from 'chai';
import { PassThrough } from 'node:stream';
import request from 'supertest';
import { createLogger, type Area } from '@satyapan/core';
import { bankArea, createBankService, loadSampleDirectory } from '@satyapan/bank';
import { CLIENTS, startHarness } from './support/harness.js';

function capture(): { logger: ReturnType<typeof createLogger>; lines: () => Array<Record<string, unknown>> } {
  const sink = new PassThrough();
  let written = '';
  sink.on('data', (chunk: Buffer) => { written += chunk.toString(); });
  return {
    logger: createLogger({ stream: sink }),
    lines: () => written.trim().split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}

describe('router: areas are what the host passes', () => {
  it('a router with no area serves auth, health and OpenAPI only, and warns in the log', async () => {
    const log = capture();
    const h = await startHarness({ logger: log.logger });
    try {
      const token = await h.token();
      const lookup = await request(h.app).get('/api/bank/HDFC0000001').set('authorization', token).set('x-api-key', CLIENTS.all.apiKey);
      expect(lookup.status).to.equal(404);
      const openapi = await request(h.app).get('/api/openapi.json');
      expect(Object.keys(openapi.body.paths as object).some((path) => path.startsWith('/bank'))).to.equal(false);
      await new Promise((resolve) => setTimeout(resolve, 20));
      const warning = log.lines().find((line) => line['level'] === 'warn');
      expect(String(warning?.['message'])).to.match(/no area/);
    } finally {
      await h.close();
    }
  });

  it('a bank-only router serves the bank operations and lists them in OpenAPI, without a warning', async () => {
    const log = capture();
    const directory = await loadSampleDirectory();
    const h = await startHarness({ logger: log.logger, areas: [bankArea(await createBankService({ directory }))] });
    try {
      const token = await h.token();
      const ifsc = 'ABNA0100310'; // a branch of the bundled sample directory
      const lookup = await request(h.app).get(`/api/bank/${ifsc}`).set('authorization', token).set('x-api-key', CLIENTS.all.apiKey);
      expect(lookup.status).to.equal(200);
      expect(lookup.body.IFSC).to.equal(ifsc);
      const openapi = await request(h.app).get('/api/openapi.json');
      const paths = Object.keys(openapi.body.paths as object);
      expect(paths).to.include('/bank/{ifsc}');
      expect(paths.some((path) => path.startsWith('/kyc') || path.startsWith('/tds'))).to.equal(false);
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(log.lines().some((line) => line['level'] === 'warn')).to.equal(false);
    } finally {
      await h.close();
    }
  });

  it('refuses the same area twice, naming it', async () => {
    const area: Area = { name: 'twice', routes: () => [] };
    let refused: unknown;
    try {
      await startHarness({ areas: [area, area] });
    } catch (error) {
      refused = error;
    }
    expect(String(refused)).to.match(/area "twice" is given twice/);
  });
});
