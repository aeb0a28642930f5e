import { expect } from 'chai';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readConfig } from '../examples/worker/src/config.js';

/** examples/worker's environment: what the settings of issues 22 and 27 read, and the errors that name a variable. */
describe('examples/worker: its configuration from the environment', () => {
  let dir: string;
  let base: NodeJS.ProcessEnv;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'satyapan-worker-config-'));
    base = {
      SATYAPAN_DATA_DIR: dir, SATYAPAN_STORAGE_SECRET: 'storage-secret', SATYAPAN_STORAGE_URL: 'http://127.0.0.1:9/storage',
      SATYAPAN_SEALING_KEYS: `k1:${Buffer.alloc(32, 1).toString('base64')}`,
    };
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('reads the conversion limits; none set leaves the worker\'s defaults', () => {
    expect(readConfig(base).conversionLimits).to.deep.equal({});
    const limits = readConfig({ ...base, SATYAPAN_CONVERSION_TIMEOUT_MS: '60000', SATYAPAN_CONVERSION_MEMORY_MB: '512' }).conversionLimits;
    expect(limits).to.deep.equal({ timeoutMs: 60_000, memoryMb: 512 });
    expect(() => readConfig({ ...base, SATYAPAN_CONVERSION_MEMORY_MB: 'lots' })).to.throw('SATYAPAN_CONVERSION_MEMORY_MB must be a positive integer, got lots');
  });

  it('reads the Form 16 generation limits from variables of their own', () => {
    expect(readConfig(base).form16Limits).to.deep.equal({});
    const config = readConfig({ ...base, SATYAPAN_FORM16_TIMEOUT_MS: '120000', SATYAPAN_FORM16_MEMORY_MB: '1024', SATYAPAN_CONVERSION_TIMEOUT_MS: '60000' });
    expect(config.form16Limits).to.deep.equal({ timeoutMs: 120_000, memoryMb: 1024 });
    expect(config.conversionLimits).to.deep.equal({ timeoutMs: 60_000 });
    expect(() => readConfig({ ...base, SATYAPAN_FORM16_TIMEOUT_MS: '-1' })).to.throw('SATYAPAN_FORM16_TIMEOUT_MS must be a positive integer, got -1');
  });

  it('reads the engine\'s input limits as name=value pairs, and refuses a malformed pair naming the variable', () => {
    expect(readConfig(base).inputLimits).to.equal(undefined);
    expect(readConfig({ ...base, SATYAPAN_INPUT_LIMITS: 'sheetRows=100000, cellChars=5000' }).inputLimits).to.deep.equal({ sheetRows: 100_000, cellChars: 5_000 });
    expect(() => readConfig({ ...base, SATYAPAN_INPUT_LIMITS: 'sheetRows=lots' })).to.throw('SATYAPAN_INPUT_LIMITS must be name=value pairs separated by commas (e.g. sheetRows=100000), got sheetRows=lots');
  });

  it('refuses unknown IFSCs in bulk rows unless SATYAPAN_REFUSE_UNKNOWN_IFSC=off, and names the variable of another value', () => {
    expect(readConfig(base).bulk.refuseUnknownIfsc).to.equal(true);
    expect(readConfig({ ...base, SATYAPAN_REFUSE_UNKNOWN_IFSC: 'on' }).bulk.refuseUnknownIfsc).to.equal(true);
    expect(readConfig({ ...base, SATYAPAN_REFUSE_UNKNOWN_IFSC: 'off' }).bulk.refuseUnknownIfsc).to.equal(false);
    expect(() => readConfig({ ...base, SATYAPAN_REFUSE_UNKNOWN_IFSC: 'no' })).to.throw('SATYAPAN_REFUSE_UNKNOWN_IFSC must be on or off, got no');
  });

  it('serves PAN-Aadhaar link status rows when SATYAPAN_PAN_AADHAAR_LINK_URL is set (with the API\'s cache key secret), paced by SATYAPAN_BULK_RATE_PAN_AADHAAR_LINK', () => {
    expect(readConfig(base).bulk).not.to.have.property('panAadhaarLink');
    const link = { SATYAPAN_PAN_AADHAAR_LINK_URL: 'http://127.0.0.1:9', SATYAPAN_PAN_AADHAAR_LINK_CACHE_KEY_SECRET: 'test-cache-key-secret' };
    expect(readConfig({ ...base, ...link }).bulk.panAadhaarLink).to.deep.equal({ url: 'http://127.0.0.1:9', cacheKeySecret: 'test-cache-key-secret' });
    expect(() => readConfig({ ...base, SATYAPAN_PAN_AADHAAR_LINK_URL: 'http://127.0.0.1:9' })).to.throw('SATYAPAN_PAN_AADHAAR_LINK_CACHE_KEY_SECRET');
    expect(readConfig(base).bulk.rateLimits).not.to.have.property('pan_aadhaar_link');
    expect(readConfig({ ...base, SATYAPAN_BULK_RATE_PAN_AADHAAR_LINK: '0.5' }).bulk.rateLimits).to.deep.equal({ pan_aadhaar_link: 0.5 });
    expect(readConfig({ ...base, SATYAPAN_BULK_RATE_PAN_AADHAAR_LINK: 'off' }).bulk.rateLimits).to.deep.equal({ pan_aadhaar_link: Infinity });
  });

  it('signs Cashfree calls with the public key in the file a variable names, and names the variable of a file it cannot read', async () => {
    const { publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const pem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
    const keyFile = join(dir, 'cashfree.pem');
    await writeFile(keyFile, pem);
    const cashfree = {
      SATYAPAN_PENNY_DROP_URL: 'http://127.0.0.1:9/verification', SATYAPAN_PENNY_DROP_CLIENT_ID: 'id', SATYAPAN_PENNY_DROP_CLIENT_SECRET: 'secret', SATYAPAN_PENNY_DROP_CACHE_KEY_SECRET: 'test-cache-key-secret',
      SATYAPAN_PAN_URL: 'http://127.0.0.1:9/verification', SATYAPAN_PAN_CLIENT_ID: 'id', SATYAPAN_PAN_CLIENT_SECRET: 'secret', SATYAPAN_PAN_CACHE_KEY_SECRET: 'test-cache-key-secret',
    };
    const unsigned = readConfig({ ...base, ...cashfree }).bulk;
    expect(unsigned.pennyDrop).not.to.have.property('publicKeyPem');
    const signed = readConfig({ ...base, ...cashfree, SATYAPAN_PENNY_DROP_PUBLIC_KEY_FILE: keyFile, SATYAPAN_PAN_PUBLIC_KEY_FILE: keyFile }).bulk;
    expect(signed.pennyDrop?.publicKeyPem).to.equal(pem);
    expect(signed.pan?.publicKeyPem).to.equal(pem);
    expect(() => readConfig({ ...base, ...cashfree, SATYAPAN_PAN_PUBLIC_KEY_FILE: join(dir, 'missing.pem') }))
      .to.throw('SATYAPAN_PAN_PUBLIC_KEY_FILE names a file that cannot be read: ENOENT');
  });
});
