// Signed Form 16 PDFs: each carries a PAdES baseline B-B signature (ETSI EN 319 142-1) over the whole file but the
// signature itself, which openssl verifies against the signer's certificate and whose CMS structure openssl prints
// (signing-certificate-v2 present, signing-time absent); poppler's pdfsig, when installed, validates it too; a
// changed byte breaks it; the visible block names the signer. Certificates are made per run (support/certificates.ts).

import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run } from '../../statement-engine/src/cli/main.js';
import { makeForm16s, openCertificate, Form16Error } from '../src/index.js';
import { allLines } from './support/pdf-text.js';
import { makeTestCertificates, PASSWORD, SIGNER_NAME, type TestCertificates } from './support/certificates.js';
import { opensslPrint, opensslVerify, pdfsig, signedAttributeOids, signedParts } from './support/verify.js';
import { FINANCIAL_YEAR, form16Workbook, TAN } from './support/workbook.js';
import { captureIo } from './support/io.js';

const CONTENT_TYPE = '1.2.840.113549.1.9.3';
const MESSAGE_DIGEST = '1.2.840.113549.1.9.4';
const SIGNING_TIME = '1.2.840.113549.1.9.5';
const SIGNING_CERTIFICATE_V2 = '1.2.840.113549.1.9.16.2.47';

describe('Form 16 signed with a PKCS#12 certificate', function () {
  let certs: TestCertificates;
  let out: string;
  let now: Date;

  before(async function () {
    certs = makeTestCertificates();
    // The certificate is valid from the second it was made: the PDFs are signed after that.
    now = new Date();
    out = mkdtempSync(join(tmpdir(), 'form16-signed-'));
  });
  after(function () {
    certs.remove();
    rmSync(out, { recursive: true, force: true });
  });

  it('signs every PDF; openssl cms verifies each signature over the whole file but /Contents', async function () {
    const result = await makeForm16s({ workbook: form16Workbook(), financialYear: FINANCIAL_YEAR, tan: TAN, outDir: out, now, certificate: { path: certs.p12, password: PASSWORD } });
    expect(result.lines.map((l) => l.signed)).to.deep.equal([true, true, true]);
    for (const line of result.lines) {
      const pdf = readFileSync(join(out, line.file));
      const verdict = opensslVerify(pdf, certs.certPem, certs.dir);
      expect(verdict.ok, `${line.file}: ${verdict.output}`).to.equal(true);
      expect(verdict.output).to.match(/Verification successful/);
      const [a, b, c, d] = signedParts(pdf).byteRange as [number, number, number, number];
      expect(a, 'the signed range starts at the first byte').to.equal(0);
      expect(c + d, 'and ends at the last').to.equal(pdf.length);
      expect(pdf.subarray(b, c).toString('latin1')).to.match(/^<[0-9a-f]+>$/i);
    }
  });

  it('is PAdES B-B: SubFilter ETSI.CAdES.detached, /M the time, SHA-256, signed attributes content-type, message-digest, signing-certificate-v2 and no signing-time', function () {
    const pdf = readFileSync(join(out, 'ABCPM1234A_Form16_AY2026-27.pdf'));
    const latin = pdf.toString('latin1');
    expect(latin).to.match(/\/SubFilter\s*\/ETSI\.CAdES\.detached/);
    expect(latin).not.to.match(/adbe\.pkcs7/);
    expect(latin, 'the signing time is the signature dictionary\'s /M').to.match(/\/M\s*\(D:\d{14}/);
    const printed = opensslPrint(pdf, certs.dir);
    const oids = signedAttributeOids(printed);
    expect([...oids].sort()).to.deep.equal([CONTENT_TYPE, MESSAGE_DIGEST, SIGNING_CERTIFICATE_V2].sort());
    expect(oids, 'B-B forbids the signing-time signed attribute').not.to.include(SIGNING_TIME);
    expect(printed).to.match(/digestAlgorithm:\s*\n\s*algorithm: sha256 \(2\.16\.840\.1\.101\.3\.4\.2\.1\)/);
    expect(printed).to.match(/signatureAlgorithm:\s*\n\s*algorithm: sha256WithRSAEncryption \(1\.2\.840\.113549\.1\.1\.11\)\s*\n\s*parameter: NULL/);
    expect(printed, 'no unsigned attributes: no timestamp, B-B').to.match(/unsignedAttrs:\s*\n?\s*<ABSENT>/);
    // signing-certificate-v2 names the signer's certificate by its SHA-256 hash (RFC 5035 ESSCertIDv2).
    const certDer = execFileSync('openssl', ['x509', '-in', certs.certPem, '-outform', 'DER']);
    expect(printed).to.include(createHash('sha256').update(certDer).digest('hex').toUpperCase());
  });

  it('poppler\'s pdfsig (when installed) says the signature is valid and of type ETSI.CAdES.detached', function () {
    const verdict = pdfsig(join(out, 'BCDPS2345B_Form16_AY2026-27.pdf'));
    if (!verdict) {
      console.log('!!! pdfsig check SKIPPED: pdfsig (Debian poppler-utils) is not installed; .ci/run installs it');
      this.skip();
    }
    expect(verdict.ok, verdict.output).to.equal(true);
    expect(verdict.output).to.match(/Signature Validation: Signature is Valid\./);
    expect(verdict.output).to.match(/Signature Type: ETSI\.CAdES\.detached/);
    expect(verdict.output).to.match(/Signing Hash Algorithm: SHA-256/);
    expect(verdict.output).to.match(new RegExp(`Signer Certificate Common Name: ${SIGNER_NAME}`));
    expect(verdict.output).to.match(/Total document signed/);
  });

  it('a changed byte of the signed range fails verification', function () {
    const pdf = readFileSync(join(out, 'DEFPK4567C_Form16_AY2026-27.pdf'));
    const [, firstLength] = signedParts(pdf).byteRange as [number, number];
    const at = Math.floor(firstLength / 2); // inside the first signed range: in the page content
    pdf[at] = pdf[at]! ^ 0x01;
    expect(opensslVerify(pdf, certs.certPem, certs.dir).ok).to.equal(false);
    const changed = join(certs.dir, 'changed.pdf');
    writeFileSync(changed, pdf);
    const verdict = pdfsig(changed);
    if (verdict) expect(verdict.output).not.to.match(/Signature is Valid/);
  });

  it('the visible block names the signer and the signature field sits over it', async function () {
    const pdf = readFileSync(join(out, 'ABCPM1234A_Form16_AY2026-27.pdf'));
    const text = (await allLines(pdf)).map((l) => l.join(' '));
    expect(text).to.include(`Digitally signed by ${SIGNER_NAME}`);
    expect(text).not.to.include('NOT DIGITALLY SIGNED');
    const latin = pdf.toString('latin1');
    expect(latin).to.match(/\/FT\s*\/Sig/);
    expect(latin).to.match(new RegExp(`/Name \\(${SIGNER_NAME}\\)`));
  });

  it('opens a PKCS#12 made with the legacy algorithms (3DES / RC2) too, and signs with it', async function () {
    expect(openCertificate(certs.legacyP12, PASSWORD, now).signer).to.equal(SIGNER_NAME);
    const legacyOut = mkdtempSync(join(tmpdir(), 'form16-legacy-'));
    try {
      const result = await makeForm16s({ workbook: form16Workbook(), financialYear: FINANCIAL_YEAR, tan: TAN, outDir: legacyOut, now, certificate: { path: certs.legacyP12, password: PASSWORD } });
      const verdict = opensslVerify(readFileSync(join(legacyOut, result.lines[0]!.file)), certs.certPem, certs.dir);
      expect(verdict.ok, verdict.output).to.equal(true);
    } finally {
      rmSync(legacyOut, { recursive: true, force: true });
    }
  });

  it('a wrong password is one CERTIFICATE_UNREADABLE error before any PDF', function () {
    expect(() => openCertificate(certs.p12, 'wrong', now)).to.throw(Form16Error).with.property('code', 'CERTIFICATE_UNREADABLE');
  });

  it('a certificate not valid at the signing time is CERTIFICATE_NOT_VALID_NOW', function () {
    const later = new Date(now.getTime() + 60 * 86_400_000);
    expect(() => openCertificate(certs.p12, PASSWORD, later)).to.throw(Form16Error).with.property('code', 'CERTIFICATE_NOT_VALID_NOW');
  });

  it('satyapan-statement form16 --sign reads the password from the environment and signs', async function () {
    const dir = mkdtempSync(join(tmpdir(), 'form16-cli-'));
    try {
      const workbook = join(dir, 'q4.json');
      writeFileSync(workbook, JSON.stringify(form16Workbook()));
      const io = captureIo({ SATYAPAN_FORM16_P12_PASSWORD: PASSWORD });
      const code = await run(['form16', '--workbook', workbook, '--year', FINANCIAL_YEAR, '--sign', certs.p12, '--out', join(dir, 'out')], io);
      expect(code, io.err()).to.equal(0);
      expect(io.err()).to.match(/wrote 3 Form 16 PDF\(s\), signed, and index\.csv/);
      expect(opensslVerify(readFileSync(join(dir, 'out', 'BCDPS2345B_Form16_AY2026-27.pdf')), certs.certPem, certs.dir).ok).to.equal(true);
      const wrong = captureIo({ SATYAPAN_FORM16_P12_PASSWORD: 'wrong' });
      expect(await run(['form16', '--workbook', workbook, '--year', FINANCIAL_YEAR, '--sign', certs.p12, '--out', join(dir, 'out2')], wrong)).to.equal(2);
      expect(wrong.err()).to.match(/^satyapan-statement form16: CERTIFICATE_UNREADABLE: /);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
