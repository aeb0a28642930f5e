import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { keepAliveFetch } from '@satyapan/core';

describe('core: keepAliveFetch', () => {
  let server: Server;
  let base: string;
  const sockets = new Set<unknown>();
  before(async () => {
    server = createServer((req, res) => {
      if (req.url === '/silent') return; // never answers
      if (req.url === '/echo') {
        const chunks: Buffer[] = [];
        req.on('data', (chunk: Buffer) => chunks.push(chunk));
        req.on('end', () => res.end(JSON.stringify({ length: req.headers['content-length'], body: Buffer.concat(chunks).toString() })));
        return;
      }
      if (req.url === '/repeated') {
        res.setHeader('x-twice', ['a', 'b']);
        res.setHeader('set-cookie', ['c=1', 'd=2']);
        return void res.end();
      }
      res.setHeader('content-type', 'application/json');
      res.setHeader('x-seen-authorization', req.headers.authorization ?? '');
      res.statusCode = req.url === '/limited' ? 429 : 200;
      if (req.url === '/limited') res.setHeader('retry-after', '30');
      res.end(JSON.stringify({ path: req.url, method: req.method }));
    });
    server.on('connection', (socket) => sockets.add(socket));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('send answers status, Node headers and the buffered body, over kept-alive connections', async () => {
    const transport = keepAliveFetch();
    try {
      const first = await transport.send(`${base}/a`, { method: 'GET', headers: { authorization: 'Bearer t' } });
      expect(first.status).to.equal(200);
      expect(first.headers['x-seen-authorization']).to.equal('Bearer t');
      expect(JSON.parse(first.body.toString())).to.deep.equal({ path: '/a', method: 'GET' });
      const limited = await transport.send(`${base}/limited`, { method: 'GET', headers: {} });
      expect(limited.status).to.equal(429);
      expect(limited.headers['retry-after']).to.equal('30');
      for (let i = 0; i < 20; i += 1) await transport.send(`${base}/c${i}`, { method: 'GET', headers: {} });
      // 22 calls one after another over kept-alive connections: undici's pool opens a second connection for the
      // call right after the first (the first is not yet marked free), then reuses the two.
      expect(sockets.size).to.be.within(1, 2);
    } finally {
      transport.close();
    }
  });

  it('send fails with a TimeoutError past its timeout; fetch answers a WHATWG Response as before', async () => {
    const transport = keepAliveFetch();
    try {
      const started = Date.now();
      const error = await transport.send(`${base}/silent`, { method: 'GET', headers: {} }, 200).then(() => null, (e: unknown) => e);
      expect((error as Error).name).to.equal('TimeoutError');
      expect(Date.now() - started).to.be.below(2_000);
      const response = await transport(`${base}/b`, { method: 'POST', headers: {}, body: 'x=1' });
      expect(response).to.be.instanceOf(Response);
      expect(response.headers.get('content-type')).to.equal('application/json');
      expect(await response.json()).to.deep.equal({ path: '/b', method: 'POST' });
    } finally {
      transport.close();
    }
  });

  it('send passes a body with its length, and gives repeated headers as node:http does (joined; set-cookie a list)', async () => {
    const transport = keepAliveFetch();
    try {
      const echo = await transport.send(`${base}/echo`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'héllo' });
      expect(JSON.parse(echo.body.toString())).to.deep.equal({ length: '6', body: 'héllo' });
      const repeated = await transport.send(`${base}/repeated`, { method: 'GET', headers: {} });
      expect(repeated.headers['x-twice']).to.equal('a, b');
      expect(repeated.headers['set-cookie']).to.deep.equal(['c=1', 'd=2']);
      expect(repeated.body.length).to.equal(0);
    } finally {
      transport.close();
    }
  });

  it("fetch honours the caller's signal, before the call and during it, and rejects with its reason", async () => {
    const transport = keepAliveFetch();
    try {
      const early = await transport(`${base}/a`, { method: 'GET', headers: {}, signal: AbortSignal.abort() }).then(() => null, (e: unknown) => e);
      expect((early as Error).name).to.equal('AbortError');
      const controller = new AbortController();
      const pending = transport(`${base}/silent`, { method: 'GET', headers: {}, signal: controller.signal }).then(() => null, (e: unknown) => e);
      setTimeout(() => controller.abort(new DOMException('gave up', 'TimeoutError')), 50);
      const late = (await pending) as Error;
      expect(late.name).to.equal('TimeoutError');
      expect(late.message).to.equal('gave up');
      // The transport still works after an aborted call.
      expect((await transport.send(`${base}/a`, { method: 'GET', headers: {} })).status).to.equal(200);
    } finally {
      transport.close();
    }
  });

  it('a refused connection rejects with the socket error code; a closed transport opens new connections on its next call', async () => {
    const transport = keepAliveFetch();
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const deadPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    try {
      const refused = await transport.send(`http://127.0.0.1:${deadPort}/x`, { method: 'GET', headers: {} }, 2_000).then(() => null, (e: unknown) => e);
      expect((refused as { code?: string }).code).to.equal('ECONNREFUSED');
      expect((await transport.send(`${base}/a`, { method: 'GET', headers: {} })).status).to.equal(200);
      transport.close();
      expect((await transport.send(`${base}/a`, { method: 'GET', headers: {} })).status).to.equal(200);
      const other = await transport.send('ftp://127.0.0.1/x', { method: 'GET', headers: {} }).then(() => null, (e: unknown) => e);
      expect(other).to.be.instanceOf(TypeError);
    } finally {
      transport.close();
    }
  });
});
