import { expect } from 'chai';
import { Sealer, SealError, constantTimeEqual, hmacSign, hmacVerify } from '@satyapan/core';

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
    expect(() => new Sealer([{ id: 'short', key: Buffer.alloc(16) }])).to.throw(SealError);
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
