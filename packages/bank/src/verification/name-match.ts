import { matchNames, type NameMatchReason } from '@satyapan/name-match';

/** `name_match` of an account verification: how the caller's name compares with the bank's. */
export interface NameMatchAnswer {
  score: number;
  result: 'match' | 'no_match';
  reasons: NameMatchReason[];
}

/**
 * The caller's `name` against `name_at_bank`, when there are both (an empty name compares nothing). `kind` is
 * inferred: an account can be held by a person or a business. Computed per request, never cached, so a cached
 * answer compares the name of this request.
 */
export function nameMatchAtBank(name: string | undefined, nameAtBank: string | undefined, threshold: number | undefined): NameMatchAnswer | undefined {
  if (name === undefined || name.trim() === '' || nameAtBank === undefined) return undefined;
  const { score, result, reasons } = matchNames(name, nameAtBank, threshold === undefined ? {} : { threshold });
  return { score, result, reasons };
}
