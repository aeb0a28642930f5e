// Signing with a PKCS#12 certificate as PAdES baseline B-B (ETSI EN 319 142-1): pdf-lib placeholder
// (@signpdf/placeholder-pdf-lib, SubFilter ETSI.CAdES.detached), the byte range found and filled in by
// @signpdf/signpdf, and the CMS SignedData built by PKI.js (pkijs, on asn1js) in CadesSigner, a @signpdf Signer.
// Nothing here encodes ASN.1 by hand: the structures are asn1js / pkijs objects, the key operation WebCrypto's.
// The PKCS#12 is opened by node-forge, which reads both OpenSSL 3's default (AES-256, PBKDF2) and the legacy
// (3DES / RC2) files. The certificate is opened once up front, so a wrong password or a certificate that has
// expired is one clear error before any PDF is made, not ten thousand; its key is imported once, not per PDF.

import { createHash, webcrypto } from 'node:crypto';
import { readFileSync } from 'node:fs';
import * as asn1js from 'asn1js';
import forge from 'node-forge';
import type { PDFDocument } from 'pdf-lib';
import * as pkijs from 'pkijs';
import { pdflibAddPlaceholder } from '@signpdf/placeholder-pdf-lib';
import { SignPdf } from '@signpdf/signpdf';
import { Signer, SUBFILTER_ETSI_CADES_DETACHED } from '@signpdf/utils';
import { Form16Error } from './errors.js';
import type { SignatureBlock } from './part-b/render.js';

/** Room for the CMS signature: a certificate chain of a few certificates fits with ample margin. */
const SIGNATURE_BYTES = 16384;

/** CMS / ESS / PKCS #1 object identifiers (RFC 5652 §11, RFC 5035 §5.4.1, RFC 8017 App. C). */
const OID = {
  data: '1.2.840.113549.1.7.1',
  signedData: '1.2.840.113549.1.7.2',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
  signingCertificateV2: '1.2.840.113549.1.9.16.2.47',
  sha256WithRSA: '1.2.840.113549.1.1.11',
} as const;

export interface SigningCertificate {
  /** The certificate's common name: who the visible block says signed. */
  signer: string;
  notBefore: Date;
  notAfter: Date;
  /** The signer's certificate, DER. */
  certificate: Uint8Array;
  /** The other certificates in the PKCS#12 file (its chain, when exported with it), DER; carried in the CMS. */
  chain: Uint8Array[];
  /** The private key, imported once into WebCrypto (RSASSA-PKCS1-v1_5, SHA-256), not extractable. */
  key: Promise<webcrypto.CryptoKey>;
}

function unreadable(path: string, why: string): Form16Error {
  return new Form16Error('CERTIFICATE_UNREADABLE', `${path}: ${why}`);
}

function der(asn1: forge.asn1.Asn1): Uint8Array {
  return Buffer.from(forge.asn1.toDer(asn1).getBytes(), 'binary');
}

/** Opens the PKCS#12 file and checks it holds an RSA key with its certificate, valid at `at`. */
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
  if (!key) throw unreadable(path, 'it holds no (RSA) private key');
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
  const pkcs8 = der(forge.pki.wrapRsaPrivateKey(forge.pki.privateKeyToAsn1(key)));
  const imported = webcrypto.subtle.importKey('pkcs8', pkcs8, { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' }, false, ['sign']);
  imported.catch(() => undefined); // a failure surfaces where the key is awaited (signBytes), not as an unhandled rejection
  return {
    signer: cn?.value ?? cert.subject.attributes.map((a: forge.pki.CertificateField) => `${a.shortName}=${String(a.value)}`).join(', '),
    notBefore,
    notAfter,
    certificate: der(forge.pki.certificateToAsn1(cert)),
    chain: certs.filter((c) => c !== cert).map((c) => der(forge.pki.certificateToAsn1(c))),
    key: imported,
  };
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
    // PAdES B-B: the signing time is the signature dictionary's /M, never a signed attribute.
    signingTime: details.signingTime,
    signatureLength: SIGNATURE_BYTES,
    subFilter: SUBFILTER_ETSI_CADES_DETACHED,
    widgetRect: block.rect,
    appName: 'Satyapan @satyapan/form16',
  });
}

function sha256(bytes: Uint8Array): Buffer {
  return createHash('sha256').update(bytes).digest();
}

function attribute(type: string, value: asn1js.AsnType): pkijs.Attribute {
  return new pkijs.Attribute({ type, values: [value] });
}

/**
 * ESS signing-certificate-v2 (RFC 5035 §5.4.1.1) naming the signer's certificate: its SHA-256 hash (the default
 * hash algorithm, so left out, DER) and its issuer and serial number.
 */
function signingCertificateV2(cert: pkijs.Certificate, certDer: Uint8Array): asn1js.Sequence {
  const issuerSerial = new asn1js.Sequence({
    value: [new pkijs.GeneralNames({ names: [new pkijs.GeneralName({ type: 4, value: cert.issuer })] }).toSchema(), cert.serialNumber],
  });
  const essCertIdV2 = new asn1js.Sequence({ value: [new asn1js.OctetString({ valueHex: sha256(certDer) }), issuerSerial] });
  return new asn1js.Sequence({ value: [new asn1js.Sequence({ value: [essCertIdV2] })] });
}

/** X.690 §11.6: the elements of a DER SET OF in the ascending order of their encodings. */
function derSorted(attributes: pkijs.Attribute[]): pkijs.Attribute[] {
  const encoded = attributes.map((a) => ({ a, bytes: Buffer.from(a.toSchema().toBER()) }));
  return encoded.sort((x, y) => Buffer.compare(x.bytes, y.bytes)).map((e) => e.a);
}

/**
 * A @signpdf Signer making a CAdES baseline B-B detached signature (ETSI EN 319 122-1 §6.3, as PAdES B-B takes
 * it): CMS SignedData, SHA-256 with RSA, signed attributes content-type, message-digest and
 * signing-certificate-v2, and no signing-time (the time is the PDF signature dictionary's /M).
 */
export class CadesSigner extends Signer {
  readonly #cert: SigningCertificate;
  readonly #parsed: pkijs.Certificate;
  readonly #chain: pkijs.Certificate[];
  readonly #essAttribute: pkijs.Attribute;

  constructor(cert: SigningCertificate) {
    super();
    this.#cert = cert;
    this.#parsed = pkijs.Certificate.fromBER(cert.certificate);
    this.#chain = cert.chain.map((c) => pkijs.Certificate.fromBER(c));
    this.#essAttribute = attribute(OID.signingCertificateV2, signingCertificateV2(this.#parsed, cert.certificate));
  }

  /** `signingTime` is not used: B-B forbids the signing-time attribute. */
  override async sign(pdfBuffer: Buffer): Promise<Buffer> {
    const signedAttrs = derSorted([
      attribute(OID.contentType, new asn1js.ObjectIdentifier({ value: OID.data })),
      attribute(OID.messageDigest, new asn1js.OctetString({ valueHex: sha256(pdfBuffer) })),
      this.#essAttribute,
    ]);
    const signedData = new pkijs.SignedData({
      version: 1,
      encapContentInfo: new pkijs.EncapsulatedContentInfo({ eContentType: OID.data }),
      certificates: [this.#parsed, ...this.#chain],
      signerInfos: [
        new pkijs.SignerInfo({
          version: 1,
          sid: new pkijs.IssuerAndSerialNumber({ issuer: this.#parsed.issuer, serialNumber: this.#parsed.serialNumber }),
          signedAttrs: new pkijs.SignedAndUnsignedAttributes({ type: 0, attributes: signedAttrs }),
        }),
      ],
    });
    await signedData.sign(await this.#cert.key, 0, 'SHA-256');
    // RFC 4055 §5 / RFC 5754 §3.2: sha256WithRSAEncryption's parameters are NULL; PKI.js leaves them out. The
    // signature value covers the signed attributes only, so setting them after signing changes no signed byte.
    const signerInfo = signedData.signerInfos[0]!;
    if (signerInfo.signatureAlgorithm.algorithmId === OID.sha256WithRSA && signerInfo.signatureAlgorithm.algorithmParams === undefined) {
      signerInfo.signatureAlgorithm = new pkijs.AlgorithmIdentifier({ algorithmId: OID.sha256WithRSA, algorithmParams: new asn1js.Null() });
    }
    const contentInfo = new pkijs.ContentInfo({ contentType: OID.signedData, content: signedData.toSchema(true) });
    return Buffer.from(contentInfo.toSchema().toBER());
  }
}

const signPdf = new SignPdf();
/** One Signer per certificate: its certificate is parsed and its ESS attribute built once, not per PDF. */
const signers = new WeakMap<SigningCertificate, CadesSigner>();

/** Signs the saved bytes of a document that has its signature field (addSignatureField). */
export async function signBytes(bytes: Uint8Array, cert: SigningCertificate, signingTime: Date): Promise<Buffer> {
  let signer = signers.get(cert);
  if (!signer) signers.set(cert, (signer = new CadesSigner(cert)));
  return signPdf.sign(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), signer, signingTime);
}
