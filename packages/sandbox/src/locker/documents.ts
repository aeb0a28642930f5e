import { createHash } from 'node:crypto';
import type { EntityDocType, IndividualDocType, LockerDocType, LockerEntity, LockerUser } from './fixtures.js';
import { renderPdf } from './pdf.js';

/** What the locker says about a document type in its issued-files list. */
interface DocTypeInfo {
  issuerId: string;
  issuer: string;
  description: string;
  mime: string[];
  /** Day the document was issued, DD-MM-YYYY as the locker lists it. */
  issuedOn: string;
}

const DOC_TYPES: Record<LockerDocType, DocTypeInfo> = {
  ADHAR: {
    issuerId: 'in.gov.uidai', issuer: 'Unique Identification Authority of India (UIDAI)', description: 'Aadhaar Card',
    mime: ['application/xml'], issuedOn: '09-05-2025',
  },
  PANCR: {
    issuerId: 'in.gov.pan', issuer: 'Income Tax Department', description: 'PAN Verification Record',
    mime: ['application/xml'], issuedOn: '21-11-2024',
  },
  DRVLC: {
    issuerId: 'in.gov.transport', issuer: 'Ministry of Road Transport and Highways', description: 'Driving License',
    mime: ['application/xml'], issuedOn: '03-02-2025',
  },
  CPMTD: {
    issuerId: 'in.gov.mca', issuer: 'Ministry of Corporate Affairs (MCA), Govt. of India',
    description: 'Company Master Details', mime: ['application/pdf'], issuedOn: '19-12-2024',
  },
  GSTND: {
    issuerId: 'in.gov.gstn', issuer: 'Goods and Services Tax Network', description: 'GSTN Details',
    mime: ['application/pdf'], issuedOn: '07-01-2025',
  },
  UDCER: {
    issuerId: 'in.gov.msme', issuer: 'Ministry of Micro, Small and Medium Enterprises', description: 'Udyam Certificate',
    mime: ['application/pdf'], issuedOn: '14-08-2024',
  },
};

/** One entry of `GET /oauth2/2/files/issued` (and its entity-locker twin). */
export interface IssuedFile {
  name: string;
  type: 'file';
  size: string;
  date: string;
  parent: string;
  mime: string[];
  uri: string;
  doctype: LockerDocType;
  description: string;
  issuer: string;
  issuerid: string;
}

/** A document as stored in the simulated locker: its listing and its bytes. */
export interface LockerDocument {
  listing: IssuedFile;
  body: Buffer;
  contentType: string;
}

export function individualDocuments(user: LockerUser): LockerDocument[] {
  return user.documents.map((type) => individualDocument(user, type));
}

export function entityDocuments(entity: LockerEntity): LockerDocument[] {
  return entity.documents.map((type) => entityDocument(entity, type));
}

function individualDocument(user: LockerUser, type: IndividualDocType): LockerDocument {
  switch (type) {
    case 'ADHAR':
      return document(type, shortHash(`aadhaar:${user.id}`), aadhaarXml(user), 'application/xml');
    case 'PANCR':
      return document(type, user.pan ?? shortHash(`pan:${user.id}`), panXml(user), 'application/xml');
    case 'DRVLC':
      return document(type, user.drivingLicence ?? shortHash(`dl:${user.id}`), drivingLicenceXml(user), 'application/xml');
  }
}

function entityDocument(entity: LockerEntity, type: EntityDocType): LockerDocument {
  switch (type) {
    case 'CPMTD':
      return document(type, entity.cin, companyMasterPdf(entity), 'application/pdf');
    case 'GSTND':
      return document(type, entity.gstin, gstDetailsPdf(entity), 'application/pdf');
    case 'UDCER':
      return document(type, entity.udyam, udyamPdf(entity), 'application/pdf');
  }
}

function document(type: LockerDocType, documentId: string, body: Buffer, contentType: string): LockerDocument {
  const info = DOC_TYPES[type];
  const uri = `${info.issuerId}-${type}-${documentId}`;
  const listing: IssuedFile = {
    name: info.description, type: 'file', size: String(body.length), date: info.issuedOn, parent: '', mime: info.mime,
    uri, doctype: type, description: info.description, issuer: info.issuer, issuerid: info.issuerId,
  };
  return { listing, body, contentType };
}

function shortHash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 32);
}

/** DDMMYYYY -> DD-MM-YYYY, the date form inside the XML certificates. */
function dashed(ddmmyyyy: string): string {
  return `${ddmmyyyy.slice(0, 2)}-${ddmmyyyy.slice(2, 4)}-${ddmmyyyy.slice(4)}`;
}

function escapeXml(value: string): string {
  return value.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c] as string);
}

function attributes(values: Record<string, string>): string {
  return Object.entries(values).map(([key, value]) => `${key}="${escapeXml(value)}"`).join(' ');
}

const GENDER_WORD = { M: 'MALE', F: 'FEMALE', T: 'TRANSGENDER' } as const;

/**
 * The photo slot of the e-Aadhaar XML must hold a decodable image; the real one is a JPEG, the simulator puts a
 * 1x1 PNG there (checked: valid chunk CRCs and zlib stream).
 */
const PHOTO_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

function aadhaarXml(user: LockerUser): Buffer {
  const a = user.address;
  const xml = [
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>',
    `<Certificate ${attributes({ language: '99', name: 'Aadhaar Card', type: 'ADHAR', issuedAt: 'UIDAI', status: 'A' })}>`,
    '  <CertificateData>',
    `    <KycRes ${attributes({ ret: 'Y', code: shortHash(`kyc:${user.id}`), ts: '2025-05-09T10:15:00.000+05:30' })}>`,
    `      <UidData ${attributes({ uid: `xxxxxxxx${user.aadhaarNumber.slice(-4)}` })}>`,
    `        <Poi ${attributes({ dob: dashed(user.dob), gender: user.gender, name: user.name })}/>`,
    `        <Poa ${attributes({
      co: user.careOf, country: a.country, dist: a.district, house: a.house, lm: a.landmark, loc: a.locality,
      pc: a.pincode, po: a.postOffice, state: a.state, street: a.street, subdist: a.subdistrict, vtc: a.vtc,
    })}/>`,
    '        <LData/>',
    `        <Pht>${PHOTO_BASE64}</Pht>`,
    '      </UidData>',
    '    </KycRes>',
    '  </CertificateData>',
    '  <Signature>simulated: not signed</Signature>',
    '</Certificate>',
  ];
  return Buffer.from(`${xml.join('\n')}\n`);
}

function panXml(user: LockerUser): Buffer {
  const pan = user.pan ?? '';
  const xml = [
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>',
    `<Certificate ${attributes({ language: '99', name: 'PAN Verification Record', type: 'PANCR', number: pan, issuedAt: 'Income Tax Department', status: 'A' })}>`,
    `  <IssuedBy><Organization ${attributes({ name: 'Income Tax Department', code: 'ITD', type: 'CG' })}/></IssuedBy>`,
    `  <IssuedTo><Person ${attributes({ name: user.name, dob: dashed(user.dob), gender: GENDER_WORD[user.gender] })}/></IssuedTo>`,
    `  <CertificateData><PAN ${attributes({ num: pan, verifiedOn: '21-11-2024' })}/></CertificateData>`,
    '  <Signature>simulated: not signed</Signature>',
    '</Certificate>',
  ];
  return Buffer.from(`${xml.join('\n')}\n`);
}

function drivingLicenceXml(user: LockerUser): Buffer {
  const number = user.drivingLicence ?? '';
  const a = user.address;
  const xml = [
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>',
    `<Certificate ${attributes({ language: '99', name: 'Driving License', type: 'DRVLC', number, issuedAt: `${a.state} Transport Department`, status: 'A' })}>`,
    `  <IssuedBy><Organization ${attributes({ name: `${a.state} Transport Department`, type: 'SG' })}/></IssuedBy>`,
    `  <IssuedTo><Person ${attributes({ name: user.name, dob: dashed(user.dob), gender: GENDER_WORD[user.gender] })}>`,
    `    <Address ${attributes({ line1: a.house, line2: a.street, district: a.district, state: a.state, pin: a.pincode, country: 'IN' })}/>`,
    '  </Person></IssuedTo>',
    `  <CertificateData><DrivingLicense ${attributes({ number, validFrom: '03-02-2019', validTo: '02-02-2039', classes: 'LMV,MCWG' })}/></CertificateData>`,
    '  <Signature>simulated: not signed</Signature>',
    '</Certificate>',
  ];
  return Buffer.from(`${xml.join('\n')}\n`);
}

function companyMasterPdf(entity: LockerEntity): Buffer {
  return renderPdf('Company Master Details', [
    `Company name: ${entity.name}`,
    `CIN: ${entity.cin}`,
    `Date of incorporation: ${dashed(entity.incorporatedOn)}`,
    `Registered office: ${entity.registeredOffice}`,
    `E-mail: ${entity.email}`,
    'Company status: Active',
    'Source: Ministry of Corporate Affairs (simulated locker document)',
  ]);
}

function gstDetailsPdf(entity: LockerEntity): Buffer {
  return renderPdf('GSTN Details', [
    `Legal name: ${entity.name}`,
    `GSTIN: ${entity.gstin}`,
    `Principal place of business: ${entity.registeredOffice}`,
    'Registration type: Regular',
    'Status: Active',
    'Source: Goods and Services Tax Network (simulated locker document)',
  ]);
}

function udyamPdf(entity: LockerEntity): Buffer {
  return renderPdf('Udyam Registration Certificate', [
    `Name of enterprise: ${entity.name}`,
    `Udyam registration number: ${entity.udyam}`,
    'Type of enterprise: Micro',
    `Official address: ${entity.registeredOffice}`,
    'Source: Ministry of Micro, Small and Medium Enterprises (simulated locker document)',
  ]);
}
