import { randomBytes } from 'node:crypto';
import { OptionError, hmacSign, hmacVerify, requireText } from '@satyapan/core';
import type { LockerKind } from '../locker/types.js';

/**
 * The OAuth `state` parameter: an opaque, signed reference to a session, `<session id>.<nonce>.<mac>`.
 * The MAC (HMAC-SHA256) covers the locker kind too, so a state minted for one locker's callback is refused by
 * the other's. Signing stops forgery; the nonce, stored once in Redis, makes each state single-use.
 */
export interface StateReference {
  sessionId: string;
  nonce: string;
}

const STATE_SECRET_HINT = 'the HMAC key of the OAuth state, 16 random bytes or more, the same in every process';

export class StateSigner {
  constructor(private readonly secret: string | Buffer) {
    if (typeof secret !== 'string' && !Buffer.isBuffer(secret)) requireText('createKycServices', 'stateSecret', secret, STATE_SECRET_HINT);
    if (Buffer.byteLength(secret) < 16) throw new OptionError('stateSecret', `createKycServices: stateSecret must be at least 16 bytes: ${STATE_SECRET_HINT}`);
  }

  static newNonce(): string {
    return randomBytes(16).toString('base64url');
  }

  sign(kind: LockerKind, reference: StateReference): string {
    const body = `${reference.sessionId}.${reference.nonce}`;
    return `${body}.${hmacSign(this.secret, `${kind}:${body}`)}`;
  }

  /** The reference inside a state, or null when the state is malformed or its MAC does not verify. */
  verify(kind: LockerKind, state: string | null): StateReference | null {
    const match = /^([0-9a-f-]{36})\.([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/.exec(state ?? '');
    if (!match) return null;
    const [, sessionId, nonce, mac] = match as unknown as [string, string, string, string];
    return hmacVerify(this.secret, `${kind}:${sessionId}.${nonce}`, mac) ? { sessionId, nonce } : null;
  }
}
