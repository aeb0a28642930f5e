import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ServiceError, readAll } from '@satyapan/core';
import { S3Storage } from '../src/index.js';
import { startS3rver, type S3rverHandle } from './support/s3rver.js';

describe('core: S3Storage against s3rver on loopback', function () {
  this.timeout(30_000);
  let server: S3rverHandle;
  let dir: string;
  let storage: S3Storage;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'satyapan-s3-'));
    server = await startS3rver(dir, 'satyapan-test');
    storage = new S3Storage({ bucket: 'satyapan-test', keyPrefix: 'core/', clientConfig: server.clientConfig });
  });
  after(async () => {
    storage?.client.destroy();
    await server?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('puts, heads, gets and deletes', async () => {
    await storage.put('a/b.txt', 'hello s3');
    expect((await storage.head('a/b.txt'))?.size).to.equal(8);
    expect((await readAll(await storage.get('a/b.txt'))).toString()).to.equal('hello s3');
    await storage.delete('a/b.txt');
    expect(await storage.exists('a/b.txt')).to.equal(false);
    try {
      await storage.get('a/b.txt');
      expect.fail('expected not found');
    } catch (error) {
      expect((error as ServiceError).code).to.equal('OBJECT_NOT_FOUND');
    }
  });

  it('lists the objects under a folder, keys without its key prefix, across pages', async () => {
    const keys = Array.from({ length: 1_005 }, (_, n) => `list/${String(n).padStart(4, '0')}.txt`);
    for (let start = 0; start < keys.length; start += 50) await Promise.all(keys.slice(start, start + 50).map((key) => storage.put(key, 'x')));
    await storage.put('listing/other.txt', 'y');
    const listed: string[] = [];
    for await (const object of storage.list('list')) {
      expect(object.size).to.equal(1);
      listed.push(object.key);
    }
    expect(listed).to.deep.equal(keys);
  });

  it('accepts a PUT through its pre-signed URL and serves it through a pre-signed GET', async () => {
    const putUrl = await storage.presignPut('uploads/workbook.json', { expiresInSeconds: 300, maxBytes: 1024 });
    const put = await fetch(putUrl, { method: 'PUT', body: '{"ok":true}' });
    expect(put.status).to.equal(200);
    expect((await storage.head('uploads/workbook.json'))?.size).to.equal(11);
    const getUrl = await storage.presignGet('uploads/workbook.json', { expiresInSeconds: 300, downloadName: 'wb.json' });
    const got = await fetch(getUrl);
    expect(got.status).to.equal(200);
    expect(await got.text()).to.equal('{"ok":true}');
  });

  // s3rver does not compute SigV4 signatures (real S3 does), so tampering is covered by FsStorage's tests;
  // what s3rver does check is expiry and the access key.
  it('refuses an expired pre-signed URL', async () => {
    const url = await storage.presignGet('uploads/workbook.json', { expiresInSeconds: 1 });
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    expect((await fetch(url)).status).to.equal(403);
  });
});
