import { expect } from 'chai';
import { FsStorage, serviceError } from '@satyapan/core';
import { startHarness, type Harness } from './support/harness.js';

describe('router: FsStorage signed URL endpoints', () => {
  let h: Harness;
  let storage: FsStorage;
  before(async () => {
    h = await startHarness();
    storage = h.storage as FsStorage;
  });
  after(() => h.close());

  async function expectError(response: Response, status: number, message: string): Promise<void> {
    expect(response.status).to.equal(status);
    const body = (await response.json()) as Record<string, unknown>;
    expect(body).to.include({ code: status, message });
  }

  it('uploads through a signed PUT with no auth headers and downloads through a signed GET', async () => {
    const put = await storage.presignPut('jobs/j1/workbook.json', { expiresInSeconds: 60, maxBytes: 1000 });
    const uploaded = await fetch(put, { method: 'PUT', body: '{"hello":"world"}', headers: { 'content-type': 'application/json' } });
    expect(uploaded.status).to.equal(200);
    const get = await storage.presignGet('jobs/j1/workbook.json', { expiresInSeconds: 60, downloadName: 'wb.json' });
    const downloaded = await fetch(get);
    expect(downloaded.status).to.equal(200);
    expect(downloaded.headers.get('content-disposition')).to.equal('attachment; filename="wb.json"');
    expect(await downloaded.text()).to.equal('{"hello":"world"}');
  });

  it('refuses a tampered signature, another key or method, and an expired URL with 403', async () => {
    const put = new URL(await storage.presignPut('jobs/j2/workbook.json', { expiresInSeconds: 60, maxBytes: 1000 }));
    const tampered = new URL(put);
    const signature = put.searchParams.get('X-Signature') ?? '';
    // Another first character, whatever the signature's was (one signature in 64 starts with 'A').
    tampered.searchParams.set('X-Signature', (signature.startsWith('A') ? 'B' : 'A') + signature.slice(1));
    await expectError(await fetch(tampered, { method: 'PUT', body: 'x' }), 403, 'Invalid or expired signature');
    const otherKey = new URL(put.href.replace('/jobs/j2/', '/jobs/j3/'));
    await expectError(await fetch(otherKey, { method: 'PUT', body: 'x' }), 403, 'Invalid or expired signature');
    await expectError(await fetch(put), 403, 'Invalid or expired signature');
    const raised = new URL(put);
    raised.searchParams.set('X-Max-Bytes', '999999999');
    await expectError(await fetch(raised, { method: 'PUT', body: 'x' }), 403, 'Invalid or expired signature');
    h.clock.advance(61_000);
    try {
      await expectError(await fetch(put, { method: 'PUT', body: 'x' }), 403, 'Invalid or expired signature');
    } finally {
      h.clock.set(Date.now());
    }
  });

  it('refuses an oversize body with 413, declared or streamed, and keeps nothing', async () => {
    const put = await storage.presignPut('jobs/j4/workbook.json', { expiresInSeconds: 60, maxBytes: 10 });
    await expectError(await fetch(put, { method: 'PUT', body: 'x'.repeat(11) }), 413, 'Payload too large: the limit is 10 bytes');
    const chunks = new ReadableStream({
      start(controller) {
        for (let i = 0; i < 4; i += 1) controller.enqueue(new TextEncoder().encode('xxxx'));
        controller.close();
      },
    });
    const streamed = await fetch(put, { method: 'PUT', body: chunks, duplex: 'half' } as RequestInit);
    await expectError(streamed, 413, 'Payload too large: the limit is 10 bytes');
    expect(await storage.exists('jobs/j4/workbook.json')).to.equal(false);
  });

  it('refuses path traversal', async () => {
    const base = h.baseUrl;
    for (const path of ['/storage/..%2F..%2Fetc%2Fpasswd', '/storage/jobs/..%2F..%2Fsecret', '/storage/%2E%2E/x']) {
      const response = await fetch(`${base}${path}?X-Expires=9999999999&X-Signature=abc`);
      expect(response.status, path).to.be.oneOf([403, 404]);
      expect(await response.text()).not.to.include('root:');
    }
  });

  it('lets an upload guard refuse a second upload with 409', async () => {
    const remove = storage.addUploadGuard(async (key) => {
      if (await storage.exists(key)) throw serviceError('CONFLICT', 'Workbook already uploaded');
    });
    try {
      const put = await storage.presignPut('jobs/j5/workbook.json', { expiresInSeconds: 60, maxBytes: 100 });
      expect((await fetch(put, { method: 'PUT', body: '{}' })).status).to.equal(200);
      await expectError(await fetch(put, { method: 'PUT', body: '{"b":1}' }), 409, 'Workbook already uploaded');
    } finally {
      remove();
    }
  });
});
