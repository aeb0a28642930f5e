// Test signing certificates, made by openssl at test time in a temporary folder (no private key is committed):
// a self-signed RSA certificate valid for 30 days from now, as PKCS#12 with OpenSSL 3's defaults (AES-256,
// PBKDF2) and with the legacy algorithms (3DES/RC2) older tools and tokens export.

import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const SIGNER_NAME = 'Asha Rao';
export const PASSWORD = 'form16-test-password';

export interface TestCertificates {
  dir: string;
  /** The certificate in PEM: the verifier's trust anchor. */
  certPem: string;
  p12: string;
  legacyP12: string;
  remove(): void;
}

export function makeTestCertificates(): TestCertificates {
  const dir = mkdtempSync(join(tmpdir(), 'form16-cert-'));
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  openssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'key.pem', '-out', 'cert.pem', '-days', '30', '-subj', `/CN=${SIGNER_NAME}/O=Acme Traders Pvt Ltd/C=IN`);
  openssl('pkcs12', '-export', '-inkey', 'key.pem', '-in', 'cert.pem', '-out', 'cert.p12', '-passout', `pass:${PASSWORD}`);
  openssl('pkcs12', '-export', '-legacy', '-inkey', 'key.pem', '-in', 'cert.pem', '-out', 'legacy.p12', '-passout', `pass:${PASSWORD}`);
  return { dir, certPem: join(dir, 'cert.pem'), p12: join(dir, 'cert.p12'), legacyP12: join(dir, 'legacy.p12'), remove: () => rmSync(dir, { recursive: true, force: true }) };
}
