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
      expect(sockets.size).to.equal(1);
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
});
