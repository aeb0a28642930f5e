import { expect } from 'chai';
import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { FsStorage, ManualClock, ServiceError, StorageKeyError, readAll } from '@satyapan/core';

function queryOf(url: string): Record<string, string> {
  return Object.fromEntries(new URL(url).searchParams.entries());
}

describe('core: FsStorage', () => {
  let root: string;
  let clock: ManualClock;
  let storage: FsStorage;

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'satyapan-fs-'));
    clock = new ManualClock(1_800_000_000_000);
    storage = new FsStorage({ root, signingSecret: 'test-secret', publicBaseUrl: 'http://127.0.0.1:1/storage', clock });
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  it('refuses to start without a signing secret, in one line naming the option', () => {
    for (const signingSecret of [undefined, '', Buffer.alloc(0)]) {
      expect(() => new FsStorage({ root, signingSecret: signingSecret as unknown as string }))
        .to.throw(Error, /^FsStorage: signingSecret is missing or empty/);
    }
  });

  it('puts, heads, gets and deletes objects', async () => {
    await storage.put('jobs/j1/out.txt', 'hello');
    expect(await storage.head('jobs/j1/out.txt')).to.deep.equal({ size: 5, contentType: 'text/plain; charset=us-ascii' });
    expect((await readAll(await storage.get('jobs/j1/out.txt'))).toString()).to.equal('hello');
    await storage.delete('jobs/j1/out.txt');
    expect(await storage.exists('jobs/j1/out.txt')).to.equal(false);
    await storage.delete('jobs/j1/out.txt');
    try {
      await storage.get('jobs/j1/out.txt');
      expect.fail('expected OBJECT_NOT_FOUND');
    } catch (error) {
      expect((error as ServiceError).code).to.equal('OBJECT_NOT_FOUND');
    }
  });

  it('copies an object without copying its bytes, and a later write or delete of either key leaves the other as it was', async () => {
    await storage.put('jobs/j1/upload.json', '{"a":1}');
    expect(await storage.copy('jobs/j1/upload.json', 'jobs/j1/input.json')).to.deep.include({ size: 7 });
    expect((await stat(join(root, 'jobs/j1/input.json'))).ino).to.equal((await stat(join(root, 'jobs/j1/upload.json'))).ino);
    await storage.put('jobs/j1/upload.json', '{"b":2}');
    expect((await readAll(await storage.get('jobs/j1/input.json'))).toString()).to.equal('{"a":1}');
    await storage.delete('jobs/j1/upload.json');
    expect((await readAll(await storage.get('jobs/j1/input.json'))).toString()).to.equal('{"a":1}');
    try {
      await storage.copy('jobs/j1/missing.json', 'jobs/j1/other.json');
      expect.fail('expected OBJECT_NOT_FOUND');
    } catch (error) {
      expect((error as ServiceError).code).to.equal('OBJECT_NOT_FOUND');
    }
    expect(await readdir(join(root, '.tmp'))).to.deep.equal([]);
  });

  it('stores a local file as an object (linked when it can be), names the file of an object, and null for none', async () => {
    const local = join(root, '..', `${root.split('/').pop()}-local.txt`);
    await writeFile(local, 'line 1\r\n');
    try {
      expect(await storage.putFile('jobs/j2/statement.txt', local)).to.deep.equal({ size: 8, contentType: 'text/plain; charset=us-ascii' });
      await rm(local);
      expect((await readAll(await storage.get('jobs/j2/statement.txt'))).toString()).to.equal('line 1\r\n');
      expect(await storage.localPath('jobs/j2/statement.txt')).to.equal(join(root, 'jobs/j2/statement.txt'));
      expect(await storage.localPath('jobs/j2/none.txt')).to.equal(null);
    } finally {
      await rm(local, { force: true });
    }
  });

  it('refuses path traversal and odd keys', async () => {
    for (const key of ['../etc/passwd', 'a/../../b', '/abs', 'a//b', '.hidden', 'a/./b', 'a\\b', '']) {
      try {
        await storage.put(key, 'x');
        expect.fail(`accepted ${key}`);
      } catch (error) {
        expect(error, key).to.be.instanceOf(StorageKeyError);
      }
    }
  });

  it('signs URLs that verify, and refuses tampering and expiry', async () => {
    const url = await storage.presignPut('jobs/j1/workbook.json', { expiresInSeconds: 60, maxBytes: 100 });
    expect(url.startsWith('http://127.0.0.1:1/storage/jobs/j1/workbook.json?')).to.equal(true);
    const query = queryOf(url);
    expect(storage.verifySignedUrl('PUT', 'jobs/j1/workbook.json', query)).to.include({ maxBytes: 100 });
    const refused = (method: 'GET' | 'PUT', key: string, q: Record<string, string>): void => {
      expect(() => storage.verifySignedUrl(method, key, q)).to.throw(ServiceError, 'Invalid or expired signature');
    };
    refused('GET', 'jobs/j1/workbook.json', query);
    refused('PUT', 'jobs/j2/workbook.json', query);
    refused('PUT', 'jobs/j1/workbook.json', { ...query, 'X-Max-Bytes': '100000' });
    refused('PUT', 'jobs/j1/workbook.json', { ...query, 'X-Expires': String(Number(query['X-Expires']) + 1000) });
    const signature = query['X-Signature'] ?? '';
    // Another first character, whatever the signature's was (one signature in 64 starts with 'A').
    refused('PUT', 'jobs/j1/workbook.json', { ...query, 'X-Signature': (signature.startsWith('A') ? 'B' : 'A') + signature.slice(1) });
    clock.advance(61_000);
    refused('PUT', 'jobs/j1/workbook.json', query);
  });

  it('stores uploads atomically, refuses oversize bodies without leaving a file, and announces new objects', async () => {
    const created: string[] = [];
    storage.onObjectCreated(({ key, size }) => void created.push(`${key}:${size}`));
    const grant = storage.verifySignedUrl('PUT', 'up/a.json', queryOf(await storage.presignPut('up/a.json', { expiresInSeconds: 60, maxBytes: 10 })));
    await storage.receiveUpload(grant, Readable.from([Buffer.from('12345'), Buffer.from('678')]));
    expect(created).to.deep.equal(['up/a.json:8']);
    try {
      await storage.receiveUpload({ ...grant, key: 'up/b.json' }, Readable.from([Buffer.alloc(6), Buffer.alloc(6)]));
      expect.fail('expected 413');
    } catch (error) {
      expect((error as ServiceError).status).to.equal(413);
    }
    expect(await storage.exists('up/b.json')).to.equal(false);
    expect(await readdir(join(root, '.tmp'))).to.deep.equal([]);
    expect(created).to.have.length(1);
  });

  it('lists the objects under a folder in key order, with size and time, and nothing for a missing folder', async () => {
    for (const key of ['a/2/y.txt', 'a/1/x.txt', 'a/1/b/z.txt', 'ab/no.txt']) await storage.put(key, key);
    const listed: Array<{ key: string; size: number }> = [];
    for await (const object of storage.list('a')) {
      expect(object.lastModified).to.be.closeTo(Date.now(), 60_000);
      listed.push({ key: object.key, size: object.size });
    }
    expect(listed).to.deep.equal([{ key: 'a/1/b/z.txt', size: 11 }, { key: 'a/1/x.txt', size: 9 }, { key: 'a/2/y.txt', size: 9 }]);
    for await (const object of storage.list('missing')) expect.fail(`unexpected ${object.key}`);
  });

  it('commits a create-only upload only when the object does not exist: of two racing uploads one wins, the other is 409', async () => {
    const created: string[] = [];
    storage.onObjectCreated(({ key }) => void created.push(key));
    storage.addUploadGuard(async () => ({ createOnly: true }));
    const grant = storage.verifySignedUrl('PUT', 'up/once.json', queryOf(await storage.presignPut('up/once.json', { expiresInSeconds: 60, maxBytes: 100 })));
    const bodies = [new PassThrough(), new PassThrough()];
    const uploads = bodies.map((body) => storage.receiveUpload(grant, body));
    // Both bodies are being written before either is complete.
    while ((await readdir(join(root, '.tmp')).catch(() => [])).length < 2) await new Promise((resolve) => setTimeout(resolve, 5));
    bodies.forEach((body, n) => body.end(`{"n":${n}}`));
    const outcomes = await Promise.allSettled(uploads);
    const rejected = outcomes.filter((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
    expect(rejected).to.have.length(1);
    expect((rejected[0]?.reason as ServiceError).status).to.equal(409);
    const winner = outcomes.findIndex((outcome) => outcome.status === 'fulfilled');
    expect((await readAll(await storage.get('up/once.json'))).toString()).to.equal(`{"n":${winner}}`);
    expect(created).to.deep.equal(['up/once.json']);
    expect(await readdir(join(root, '.tmp'))).to.deep.equal([]);
  });
});
