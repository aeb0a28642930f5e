import { assertPanVerifyInput, type PanVerificationService, type PanVerifyInput } from '@satyapan/kyc';
import type { RowCheck } from './kinds.js';

type PanRow = Omit<PanVerifyInput, 'apiKey' | 'acceptCache' | 'beforeProviderCall'>;

/** The kyc package's PAN verification as a row-check kind, when the host has it configured. */
export function kycRowChecks(services: { pan?: PanVerificationService | undefined }): RowCheck<any>[] {
  const pan = services.pan;
  if (!pan) return [];
  return [{
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
  }];
}
