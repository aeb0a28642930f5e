// Signing with a PKCS#12 certificate through @signpdf: pdf-lib placeholder (placeholder-pdf-lib), CMS signature
// by node-forge (signer-p12), the byte range filled in by signpdf. Nothing here builds a signature by hand.
// The certificate is opened once up front, so a wrong password or a certificate that has expired is one clear
// error before any PDF is made, not ten thousand.

import { readFileSync } from 'node:fs';
import forge from 'node-forge';
import type { PDFDocument } from 'pdf-lib';
import { pdflibAddPlaceholder } from '@signpdf/placeholder-pdf-lib';
import { P12Signer } from '@signpdf/signer-p12';
import { SignPdf } from '@signpdf/signpdf';
import { Form16Error } from './errors.js';
import type { SignatureBlock } from './part-b/render.js';

/** Room for the CMS signature: a certificate chain of a few certificates fits with ample margin. */
const SIGNATURE_BYTES = 16384;

export interface SigningCertificate {
  /** The certificate's common name: who the visible block says signed. */
  signer: string;
  notBefore: Date;
  notAfter: Date;
  /** The PKCS#12 file's bytes and password: P12Signer reads its input once, so each signature takes a new one. */
  p12: Buffer;
  password: string;
}

function unreadable(path: string, why: string): Form16Error {
  return new Form16Error('CERTIFICATE_UNREADABLE', `${path}: ${why}`);
}

/** Opens the PKCS#12 file and checks it holds a key with its certificate, valid at `at`. */
export function openCertificate(path: string, password: string, at: Date): SigningCertificate {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    throw unreadable(path, `cannot read it (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  let p12: forge.pkcs12.Pkcs12Pfx;
  try {
    p12 = forge.pkcs12.pkcs12FromAsn1(forge.asn1.fromDer(forge.util.createBuffer(bytes.toString('binary'))), false, password);
  } catch (error) {
    throw unreadable(path, `not a PKCS#12 file this password opens (${(error as Error).message.split('\n')[0]})`);
  }
  const keyBag = forge.pki.oids.pkcs8ShroudedKeyBag!;
  const certBag = forge.pki.oids.certBag!;
  const keys: forge.pkcs12.Bag[] = p12.getBags({ bagType: keyBag })[keyBag] ?? [];
  const certs: forge.pki.Certificate[] = (p12.getBags({ bagType: certBag })[certBag] ?? []).flatMap((b: forge.pkcs12.Bag) => (b.cert ? [b.cert] : []));
  const key = keys[0]?.key as forge.pki.rsa.PrivateKey | undefined;
  if (!key) throw unreadable(path, 'it holds no private key');
  const cert = certs.find((c: forge.pki.Certificate) => {
    const pub = c.publicKey as forge.pki.rsa.PublicKey;
    return pub.n?.equals(key.n) && pub.e?.equals(key.e);
  });
  if (!cert) throw unreadable(path, 'no certificate in it matches its private key');
  const { notBefore, notAfter } = cert.validity;
  if (at < notBefore || at > notAfter) {
    throw new Form16Error('CERTIFICATE_NOT_VALID_NOW', `${path}: the certificate is valid from ${notBefore.toISOString()} to ${notAfter.toISOString()}, not at ${at.toISOString()}`);
  }
  const cn = cert.subject.getField('CN') as { value: string } | null;
  return { signer: cn?.value ?? cert.subject.attributes.map((a: forge.pki.CertificateField) => `${a.shortName}=${String(a.value)}`).join(', '), notBefore, notAfter, p12: bytes, password };
}

export interface SignDetails {
  reason: string;
  location: string;
  contactInfo: string;
  signingTime: Date;
}

/** Adds the signature field over the visible block; the document must then be saved without object streams. */
export function addSignatureField(doc: PDFDocument, block: SignatureBlock, cert: SigningCertificate, details: SignDetails): void {
  pdflibAddPlaceholder({
    pdfPage: doc.getPage(block.pageIndex),
    reason: details.reason,
    contactInfo: details.contactInfo,
    name: cert.signer,
    location: details.location,
    signingTime: details.signingTime,
    signatureLength: SIGNATURE_BYTES,
    widgetRect: block.rect,
    appName: 'Satyapan @satyapan/form16',
  });
}

const signPdf = new SignPdf();

/** Signs the saved bytes of a document that has its signature field (addSignatureField). */
export async function signBytes(bytes: Uint8Array, cert: SigningCertificate, signingTime: Date): Promise<Buffer> {
  return signPdf.sign(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), new P12Signer(cert.p12, { passphrase: cert.password }), signingTime);
}
