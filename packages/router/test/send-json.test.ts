import { expect } from 'chai';
import express from 'express';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { PreparedJson } from '@satyapan/core';
import { sendJson } from '../src/send-json.js';

interface Answer {
  status: number;
  /** Raw header lines in order, names as sent, without Date. */
  headers: string[];
  body: string;
}

/** One request over plain HTTP, so the header lines are compared as they were sent (order and case). */
function fetchRaw(url: string, method: string, headers: Record<string, string>): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => { body += chunk; });
      res.on('end', () => {
        const lines: string[] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) {
          if (res.rawHeaders[i]!.toLowerCase() !== 'date') lines.push(`${res.rawHeaders[i]}: ${res.rawHeaders[i + 1]}`);
        }
        resolve({ status: res.statusCode!, headers: lines, body });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

const VALUE = { code: 200, timestamp: 1_764_000_000_000, data: { name: 'Śrī Rāma', note: '<b>&</b>', list: [1, null, 'x'] }, transaction_id: 'abc' };

describe('router: sendJson answers exactly as res.json does', () => {
  const cases: { name: string; settings?: Record<string, unknown>; method?: string; headers?: Record<string, string>; status?: number }[] = [
    { name: 'defaults (weak ETag)' },
    { name: 'a status of the handler', status: 201 },
    { name: 'strong ETags', settings: { etag: 'strong' } },
    { name: 'ETags off', settings: { etag: false } },
    { name: "an etag function of the host's", settings: { etag: () => '"mine"' } },
    { name: 'json spaces', settings: { 'json spaces': 2 } },
    { name: 'json escape', settings: { 'json escape': true } },
    { name: 'a HEAD request', method: 'HEAD' },
    { name: 'a matching If-None-Match (304)', headers: { 'if-none-match': '*' } },
  ];
  let server: Server;
  let base: string;
  before(async () => {
    const apps = cases.map((c) => {
      const app = express();
      for (const [name, value] of Object.entries(c.settings ?? {})) app.set(name, value);
      app.all('/json', (_req, res) => void res.status(c.status ?? 200).json(VALUE));
      app.all('/send-json', (req, res) => {
        res.status(c.status ?? 200);
        sendJson(req, res, VALUE);
      });
      // One prepared body for every request of the case, so its remembered entity tag is reused.
      const prepared = new PreparedJson(JSON.stringify(VALUE));
      app.all('/prepared', (req, res) => {
        res.status(c.status ?? 200);
        sendJson(req, res, prepared);
      });
      return app;
    });
    const root = express();
    apps.forEach((app, i) => root.use(`/${i}`, app));
    server = await new Promise<Server>((resolve) => { const s = root.listen(0, '127.0.0.1', () => resolve(s)); });
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  for (const [i, c] of cases.entries()) {
    it(`with ${c.name}`, async () => {
      const method = c.method ?? 'GET';
      const expected = await fetchRaw(`${base}/${i}/json`, method, c.headers ?? {});
      const actual = await fetchRaw(`${base}/${i}/send-json`, method, c.headers ?? {});
      expect(actual).to.deep.equal(expected);
      expect(expected.headers.length).to.be.greaterThan(2);
      // A prepared (serialized once) body: the same answer, the first time and once its entity tag is kept.
      expect(await fetchRaw(`${base}/${i}/prepared`, method, c.headers ?? {})).to.deep.equal(expected);
      expect(await fetchRaw(`${base}/${i}/prepared`, method, c.headers ?? {})).to.deep.equal(expected);
    });
  }

  it('checks what it compares: the default answer carries a weak ETag, a length and the JSON type', async () => {
    const answer = await fetchRaw(`${base}/0/send-json`, 'GET', {});
    const headers: IncomingHttpHeaders = Object.fromEntries(answer.headers.map((line) => line.split(': ')).map(([k, v]) => [k!.toLowerCase(), v]));
    expect(headers['content-type']).to.equal('application/json; charset=utf-8');
    expect(headers['etag']).to.match(/^W\/"[0-9a-f]+-[A-Za-z0-9+/]{27}"$/);
    expect(Number(headers['content-length'])).to.equal(Buffer.byteLength(answer.body));
    expect(JSON.parse(answer.body)).to.deep.equal(VALUE);
  });
});
