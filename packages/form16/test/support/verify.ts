// An independent check of a PDF signature: the signed byte ranges and the CMS object are cut out of the file
// here (ISO 32000-1 §12.8.1: /ByteRange and /Contents) and given to `openssl cms -verify`, which knows nothing
// of the libraries that signed.

import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface Verdict {
  ok: boolean;
  output: string;
}

/** The DER length of the CMS at the start of `hex` (the /Contents placeholder is padded with zeros). */
function derLength(der: Buffer): number {
  if (der[0] !== 0x30) throw new Error('the signature is not a DER SEQUENCE');
  const first = der[1]!;
  if (first < 0x80) return 2 + first;
  const n = first & 0x7f;
  let length = 0;
  for (let i = 0; i < n; i++) length = length * 256 + der[2 + i]!;
  return 2 + n + length;
}

export function signedParts(pdf: Buffer): { data: Buffer; signature: Buffer; byteRange: number[] } {
  const ranges = [...pdf.toString('latin1').matchAll(/\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/g)];
  if (ranges.length !== 1) throw new Error(`expected one /ByteRange, found ${ranges.length}`);
  const [a, b, c, d] = ranges[0]!.slice(1).map(Number) as [number, number, number, number];
  const hex = pdf.subarray(a + b + 1, c - 1).toString('latin1');
  const der = Buffer.from(hex, 'hex');
  return { data: Buffer.concat([pdf.subarray(a, a + b), pdf.subarray(c, c + d)]), signature: der.subarray(0, derLength(der)), byteRange: [a, b, c, d] };
}

/** openssl's verdict on the PDF's signature, trusting `caPem`. */
export function opensslVerify(pdf: Buffer, caPem: string, dir: string): Verdict {
  const { data, signature } = signedParts(pdf);
  writeFileSync(join(dir, 'signed-data.bin'), data);
  writeFileSync(join(dir, 'signature.der'), signature);
  const r = spawnSync('openssl', ['cms', '-verify', '-binary', '-inform', 'DER', '-in', 'signature.der', '-content', 'signed-data.bin', '-CAfile', caPem, '-purpose', 'any', '-out', '/dev/null'], { cwd: dir, encoding: 'utf8' });
  return { ok: r.status === 0, output: `${r.stdout}${r.stderr}`.trim() };
}

/** `openssl cms -cmsout -print` of the PDF's CMS: its structure, as openssl (not the signing library) reads it. */
export function opensslPrint(pdf: Buffer, dir: string): string {
  writeFileSync(join(dir, 'signature.der'), signedParts(pdf).signature);
  const r = spawnSync('openssl', ['cms', '-cmsout', '-print', '-inform', 'DER', '-in', 'signature.der'], { cwd: dir, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`openssl cms -cmsout -print failed: ${r.stderr}`);
  return r.stdout;
}

/** The object identifiers of the signer's signed attributes, in the order openssl prints them. */
export function signedAttributeOids(printed: string): string[] {
  const block = /signedAttrs:\n([\s\S]*?)\n\s*signatureAlgorithm:/.exec(printed)?.[1];
  if (block === undefined) throw new Error('no signedAttrs in the CMS');
  return [...block.matchAll(/^\s*object: .*\(([\d.]+)\)$/gm)].map((m) => m[1]!);
}

/** poppler's pdfsig on the file (its own CMS and byte-range check), or null when pdfsig is not installed. */
export function pdfsig(path: string): Verdict | null {
  if (spawnSync('which', ['pdfsig'], { encoding: 'utf8' }).status !== 0) return null;
  const r = spawnSync('pdfsig', [path], { encoding: 'utf8' });
  return { ok: r.status === 0, output: `${r.stdout}${r.stderr}`.trim() };
}
