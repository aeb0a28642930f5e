import { expect } from 'chai';
import { OptionError, Sealer, SealError, constantTimeEqual, hmacSign, hmacVerify } from '@satyapan/core';

describe('core: crypto', () => {
  const k1 = { id: 'k1', key: Sealer.generateKey() };
  const k2 = { id: 'k2', key: Sealer.generateKey() };

  it('seals and unseals round trip, bound to a context', () => {
    const sealer = new Sealer([k1]);
    const sealed = sealer.seal('upstream-access-token', 'session-1');
    expect(sealed).not.to.include('upstream-access-token');
    expect(sealer.unsealText(sealed, 'session-1')).to.equal('upstream-access-token');
    expect(() => sealer.unseal(sealed, 'session-2')).to.throw(SealError);
  });

  it('detects tampering with any part', () => {
    const sealer = new Sealer([k1]);
    const sealed = sealer.seal('secret');
    const parts = sealed.split('.');
    for (const index of [2, 3, 4]) {
      const tampered = [...parts];
      const value = tampered[index] as string;
      tampered[index] = (value[0] === 'A' ? 'B' : 'A') + value.slice(1);
      expect(() => sealer.unseal(tampered.join('.')), `part ${index}`).to.throw(SealError);
    }
    expect(() => sealer.unseal('garbage')).to.throw(SealError);
  });

  it('rotates keys: new values use the active key, old ones still open', () => {
    const old = new Sealer([k1]).seal('before rotation');
    const rotated = new Sealer([k1, k2], 'k2');
    expect(rotated.unsealText(old)).to.equal('before rotation');
    expect(rotated.seal('after').startsWith('v1.k2.')).to.equal(true);
    expect(() => new Sealer([k2]).unseal(old)).to.throw(SealError, /Unknown sealing key/);
  });

  it('refuses keys of the wrong size', () => {
    expect(() => new Sealer([{ id: 'short', key: Buffer.alloc(16) }])).to.throw(OptionError, /^Sealing key short must be 32 bytes, got 16/);
  });

  it('names a missing key, a missing key list and a bad id (never a TypeError, never the key)', () => {
    const missing = (): Sealer => new Sealer([{ id: 'k1', key: undefined as never }]);
    expect(missing).to.throw(OptionError, /^Sealer: the key of sealing key k1 is missing: give 32 random bytes, base64/);
    expect(() => new Sealer(undefined as never)).to.throw(OptionError, /^Sealer: keys is missing/);
    expect(() => new Sealer([])).to.throw(OptionError, /^Sealer: keys is missing/);
    expect(() => new Sealer([{ id: 'a b', key: Sealer.generateKey() }])).to.throw(OptionError, /^Sealer: keys\[0\]\.id must be/);
    const key = Buffer.alloc(20, 7).toString('base64');
    expect(() => new Sealer([{ id: 'k1', key }])).to.throw(OptionError).with.property('message').that.does.not.include(key);
  });

  it('signs and verifies HMACs in constant time', () => {
    const signature = hmacSign('secret', 'body', 'base64');
    expect(hmacVerify('secret', 'body', signature, 'base64')).to.equal(true);
    expect(hmacVerify('secret', 'body!', signature, 'base64')).to.equal(false);
    expect(hmacVerify('other', 'body', signature, 'base64')).to.equal(false);
    expect(constantTimeEqual('abc', 'abc')).to.equal(true);
    expect(constantTimeEqual('abc', 'abcd')).to.equal(false);
  });
});
