import { serviceError } from '@satyapan/core';
import {
  assertAccountNumber, assertIfsc, assertMobile, assertName, type BankService, type NameMatchAnswer,
} from '@satyapan/bank';
import type { RowCheck, RowResult } from './kinds.js';

interface AccountRow {
  ifsc: string;
  accountNumber: string;
  name?: string;
  mobile?: string;
}

/** The row's account columns, checked with the bank package's own rules (the same 422 messages as one call). */
function accountRow(cells: Readonly<Record<string, string>>): AccountRow {
  const ifsc = (cells['ifsc'] ?? '').trim();
  const accountNumber = (cells['account_number'] ?? '').trim();
  const name = (cells['name'] ?? '').trim();
  const mobile = (cells['mobile'] ?? '').trim();
  if (ifsc === '') throw serviceError('INVALID_FIELD', 'ifsc', 'is required');
  assertIfsc(ifsc);
  assertAccountNumber(accountNumber);
  if (name !== '') assertName(name);
  if (mobile !== '') assertMobile(mobile);
  return { ifsc, accountNumber, ...(name !== '' ? { name } : {}), ...(mobile !== '' ? { mobile } : {}) };
}

function nameMatchColumns(match: NameMatchAnswer | undefined): RowResult {
  return { name_match_score: match?.score, name_match_result: match?.result };
}

const ACCOUNT_COLUMNS = { required: ['ifsc', 'account_number'], optional: ['name', 'mobile'] } as const;

/**
 * The bank package's checks as row-check kinds: penny drop and penny-less when the bank service has their
 * providers, IFSC lookup always. Each row goes through the same service a single call does, so the per-key
 * cache, the single flight and the input rules are the same.
 */
export function bankRowChecks(bank: BankService): RowCheck<any>[] {
  const checks: RowCheck<any>[] = [];
  if (bank.canVerify) {
    checks.push({
      kind: 'penny_drop',
      product: 'bank',
      description: 'Penny-drop verification of each row\'s account (columns ifsc, account_number; optional name, mobile)',
      ...ACCOUNT_COLUMNS,
      resultColumns: ['account_exists', 'name_at_bank', 'name_match_score', 'name_match_result', 'utr', 'amount_deposited'],
      upstream: 'penny_drop',
      paid: true,
      parse: accountRow,
      async check(row: AccountRow, { apiKey, acceptCache, logger, beforeCall }) {
        const answer = await bank.verifyAccount({ apiKey, acceptCache, ...row, beforeProviderCall: beforeCall }, logger);
        return {
          message: answer.message,
          result: {
            account_exists: answer.account_exists, name_at_bank: answer.name_at_bank, ...nameMatchColumns(answer.name_match),
            utr: answer.utr, amount_deposited: answer.amount_deposited,
          },
        };
      },
    });
  }
  if (bank.canVerifyPennyLess) {
    checks.push({
      kind: 'penny_less',
      product: 'bank',
      description: 'Penny-less verification of each row\'s account (columns ifsc, account_number; optional name, mobile)',
      ...ACCOUNT_COLUMNS,
      resultColumns: ['account_exists', 'name_at_bank', 'name_match_score', 'name_match_result'],
      upstream: 'penny_less',
      paid: true,
      parse: accountRow,
      async check(row: AccountRow, { apiKey, acceptCache, logger, beforeCall }) {
        const answer = await bank.verifyAccountPennyLess({ apiKey, acceptCache, ...row, beforeProviderCall: beforeCall }, logger);
        return {
          ...(answer.message !== undefined ? { message: answer.message } : {}),
          result: { account_exists: answer.account_exists, name_at_bank: answer.name_at_bank, ...nameMatchColumns(answer.name_match) },
        };
      },
    });
  }
  checks.push({
    kind: 'ifsc',
    product: 'bank',
    description: 'IFSC lookup of each row (column ifsc) in the directory; answered locally, no upstream call',
    required: ['ifsc'],
    optional: [],
    resultColumns: ['bank', 'bankcode', 'branch', 'address', 'city', 'district', 'state', 'micr', 'imps', 'neft', 'rtgs', 'upi'],
    upstream: null,
    paid: false,
    parse(cells) {
      const ifsc = (cells['ifsc'] ?? '').trim();
      if (ifsc === '') throw serviceError('INVALID_FIELD', 'ifsc', 'is required');
      assertIfsc(ifsc);
      return ifsc;
    },
    async check(ifsc: string) {
      const branch = bank.lookupIfsc(ifsc);
      return {
        result: {
          bank: branch.BANK, bankcode: branch.BANKCODE, branch: branch.BRANCH, address: branch.ADDRESS, city: branch.CITY,
          district: branch.DISTRICT, state: branch.STATE, micr: branch.MICR, imps: branch.IMPS, neft: branch.NEFT, rtgs: branch.RTGS, upi: branch.UPI,
        },
      };
    },
  });
  return checks;
}
