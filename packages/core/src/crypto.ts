import { createCipheriv, createDecipheriv, createHmac, hash, randomBytes, timingSafeEqual } from 'node:crypto';
import { OptionError } from './options.js';

/**
 * Compares two secrets in time that does not depend on where they differ, nor on their lengths (both sides
 * are hashed first, so timingSafeEqual always compares 32 bytes).
 */
export function constantTimeEqual(a: string | Buffer, b: string | Buffer): boolean {
  // crypto.hash: one-shot, without a Hash object per call (these run on every authenticated request).
  const ha = hash('sha256', a, 'buffer');
  const hb = hash('sha256', b, 'buffer');
  return timingSafeEqual(ha, hb);
}

export type SignatureEncoding = 'base64' | 'base64url' | 'hex';

export function hmacSign(secret: string | Buffer, data: string | Buffer, encoding: SignatureEncoding = 'base64url'): string {
  return createHmac('sha256', secret).update(data).digest(encoding);
}

export function hmacVerify(
  secret: string | Buffer,
  data: string | Buffer,
  signature: string,
  encoding: SignatureEncoding = 'base64url',
): boolean {
  return constantTimeEqual(hmacSign(secret, data, encoding), signature);
}

/** SHA-256 of a secret, for storing API secrets without keeping them. */
export function sha256Hex(value: string | Buffer): string {
  return hash('sha256', value, 'hex');
}

export interface SealingKey {
  /** Short id written into every sealed value, so old values still open after the active key changes. */
  id: string;
  /** 32 bytes, or their base64 form. */
  key: Buffer | string;
}

const SEAL_VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

export class SealError extends Error {
  override readonly name = 'SealError';
}

/**
 * AES-256-GCM sealing of secrets at rest (upstream tokens, ...). Format:
 *   v1.<keyId>.<iv b64url>.<tag b64url>.<ciphertext b64url>
 * The key id and version are bound as additional authenticated data, together with an optional context
 * (e.g. the session id) so that a sealed value cannot be moved to another record.
 */
export class Sealer {
  private readonly keys = new Map<string, Buffer>();

  constructor(keys: readonly SealingKey[], private readonly activeKeyId: string = keys?.[0]?.id ?? '') {
    if (!Array.isArray(keys) || keys.length === 0) {
      throw new OptionError('keys', 'Sealer: keys is missing: give at least one { id, key } (key: 32 random bytes, base64)');
    }
    keys.forEach((entry, index) => this.keys.set(entry?.id, sealingKeyBytes(entry, index)));
    if (!this.keys.has(activeKeyId)) throw new OptionError('activeKeyId', `Sealer: active sealing key ${activeKeyId} is not among the keys`);
  }

  static generateKey(): string {
    return randomBytes(32).toString('base64');
  }

  seal(plaintext: string | Buffer, context = ''): string {
    const key = this.keys.get(this.activeKeyId) as Buffer;
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(Buffer.from(`${SEAL_VERSION}.${this.activeKeyId}.${context}`));
    const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
    return [SEAL_VERSION, this.activeKeyId, b64(iv), b64(cipher.getAuthTag()), b64(body)].join('.');
  }

  unseal(sealed: string, context = ''): Buffer {
    const parts = sealed.split('.');
    const [version, keyId, iv, tag, body] = parts;
    if (parts.length !== 5 || version !== SEAL_VERSION || !keyId || !iv || !tag || body === undefined) {
      throw new SealError('Malformed sealed value');
    }
    const key = this.keys.get(keyId);
    if (!key) throw new SealError(`Unknown sealing key: ${keyId}`);
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'), { authTagLength: TAG_BYTES });
      decipher.setAAD(Buffer.from(`${version}.${keyId}.${context}`));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]);
    } catch {
      throw new SealError('Sealed value failed authentication');
    }
  }

  unsealText(sealed: string, context = ''): string {
    return this.unseal(sealed, context).toString('utf8');
  }
}

/** The 32 bytes of one sealing key; an OptionError naming it (never its value) when it is missing or malformed. */
function sealingKeyBytes(entry: SealingKey | undefined, index: number): Buffer {
  const name = `keys[${index}]`;
  const id = entry?.id;
  if (typeof id !== 'string' || !/^[A-Za-z0-9_-]{1,32}$/.test(id)) {
    throw new OptionError(`${name}.id`, `Sealer: ${name}.id must be 1 to 32 letters, digits, _ or -, got ${JSON.stringify(id)}`);
  }
  const key = entry?.key;
  if (key === undefined || key === null || key === '') {
    throw new OptionError(`${name}.key`, `Sealer: the key of sealing key ${id} is missing: give 32 random bytes, base64 (openssl rand -base64 32)`);
  }
  if (typeof key !== 'string' && !Buffer.isBuffer(key)) throw new OptionError(`${name}.key`, `Sealer: the key of sealing key ${id} must be a base64 string or a Buffer`);
  const bytes = typeof key === 'string' ? Buffer.from(key, 'base64') : key;
  if (bytes.length !== 32) throw new OptionError(`${name}.key`, `Sealing key ${id} must be 32 bytes, got ${bytes.length} (base64 of 32 random bytes: openssl rand -base64 32)`);
  return bytes;
}

function b64(buffer: Buffer): string {
  return buffer.toString('base64url');
}
