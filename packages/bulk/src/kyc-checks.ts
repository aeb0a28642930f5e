import {
  assertPanAadhaarLinkInput, assertPanVerifyInput,
  type PanAadhaarLinkInput, type PanAadhaarLinkService, type PanVerificationService, type PanVerifyInput,
} from '@satyapan/kyc';
import type { RowCheck } from './kinds.js';

type PanRow = Omit<PanVerifyInput, 'apiKey' | 'acceptCache' | 'beforeProviderCall'>;
type LinkRow = Omit<PanAadhaarLinkInput, 'apiKey' | 'acceptCache' | 'beforeProviderCall'>;

/**
 * The kyc package's PAN verification (`pan`) and PAN-Aadhaar link status (`pan_aadhaar_link`) as row-check kinds,
 * each when the host has it configured (`kycRowChecks(kyc)` takes the services `createKycServices` gives).
 */
export function kycRowChecks(services: { pan?: PanVerificationService | undefined; panAadhaarLink?: PanAadhaarLinkService | undefined }): RowCheck<any>[] {
  return [...(services.pan ? [panCheck(services.pan)] : []), ...(services.panAadhaarLink ? [linkCheck(services.panAadhaarLink)] : [])];
}

function panCheck(pan: PanVerificationService): RowCheck<PanRow> {
  return {
    kind: 'pan',
    product: 'kyc',
    description: 'PAN verification of each row (columns pan, name_as_per_pan, date_of_birth as DD/MM/YYYY, consent Y, reason), as POST /kyc/pan/verify',
    required: ['pan', 'name_as_per_pan', 'date_of_birth', 'consent', 'reason'],
    optional: [],
    resultColumns: ['category', 'status', 'remarks', 'name_as_per_pan_match', 'date_of_birth_match', 'aadhaar_seeding_status'],
    upstream: 'pan_verification',
    paid: true,
    parse(cells): PanRow {
      // The single call's checks and messages (422 Invalid Pan pattern, consent required, ...).
      const row: PanRow = {
        pan: (cells['pan'] ?? '').trim(),
        nameAsPerPan: (cells['name_as_per_pan'] ?? '').trim(),
        dateOfBirth: (cells['date_of_birth'] ?? '').trim(),
        consent: (cells['consent'] ?? '').trim(),
        reason: (cells['reason'] ?? '').trim(),
      };
      assertPanVerifyInput(row);
      return row;
    },
    async check(row: PanRow, { apiKey, acceptCache, logger, beforeCall }) {
      const answer = await pan.verifyPan({ ...row, apiKey, acceptCache, beforeProviderCall: beforeCall }, logger);
      return {
        result: {
          category: answer.category, status: answer.status, remarks: answer.remarks ?? undefined,
          name_as_per_pan_match: answer.name_as_per_pan_match, date_of_birth_match: answer.date_of_birth_match,
          aadhaar_seeding_status: answer.aadhaar_seeding_status,
        },
      };
    },
  };
}

/**
 * The e-filing portal's link status of each row, as POST /kyc/pan-aadhaar/status answers it. The portal charges
 * nothing and changes nothing, so a call in flight when a worker died is simply made again (not `paid`); the
 * Aadhaar number is echoed masked (`XXXXXXXX1234`) and the answer's message masks it, as the single call's does.
 */
function linkCheck(link: PanAadhaarLinkService): RowCheck<LinkRow> {
  return {
    kind: 'pan_aadhaar_link',
    product: 'kyc',
    description: 'PAN-Aadhaar link status of each row (columns pan, aadhaar_number, consent Y, reason), as POST /kyc/pan-aadhaar/status',
    required: ['pan', 'aadhaar_number', 'consent', 'reason'],
    optional: [],
    masked: ['aadhaar_number'],
    resultColumns: ['aadhaar_seeding_status'],
    upstream: 'pan_aadhaar_link',
    paid: false,
    parse(cells): LinkRow {
      const row: LinkRow = {
        pan: (cells['pan'] ?? '').trim(),
        aadhaarNumber: (cells['aadhaar_number'] ?? '').trim(),
        consent: (cells['consent'] ?? '').trim(),
        reason: (cells['reason'] ?? '').trim(),
      };
      assertPanAadhaarLinkInput(row);
      return row;
    },
    async check(row, { apiKey, acceptCache, logger, beforeCall }) {
      const answer = await link.linkStatus({ ...row, apiKey, acceptCache, beforeProviderCall: beforeCall }, logger);
      return { message: answer.message, result: { aadhaar_seeding_status: answer.aadhaar_seeding_status } };
    },
  };
}
