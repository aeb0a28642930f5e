// Remark letters (legacy DD field 30) per FVU release: which letters a legacy form accepts for a statement
// period, and which sections each letter may go with. One table per release, each with its source; the
// release in force for the statement's year decides. Sources: tds-rules-addendum §2 (letters, sections, dates).
// To follow a new FVU note, add a release (or edit one) here; FORMAT_NOTES.md §4 "Remarks per FVU release".

import { civilDate, type CivilDate } from '../dates.js';
import type { FormKind } from '../forms.js';
import type { Family, Period } from '../period.js';
import type { Quarter } from '../types.js';

/** Sections a letter may go with: only these, all but these, or any. */
export type SectionLimit = { only: readonly string[] } | { except: readonly string[] } | 'any';

/** A letter a release adds, with its section limit and (optionally) the payment dates its section applied. */
export interface ReleasedRemark {
  sections: SectionLimit;
  /** Dates of payment/credit the underlying section covered (inclusive); outside them the letter is refused. */
  paymentDates?: { from: CivilDate; to: CivilDate };
}

export interface RemarkRelease {
  release: string;
  source: string;
  /** First statement period (financial year start, quarter) the release governs. */
  from: { startYear: number; quarter: Quarter };
  /** Letters the release adds or whose section list it replaces, per legacy form kind. */
  remarks?: Partial<Record<FormKind, Record<string, ReleasedRemark>>>;
  /** Letters the release withdraws, per legacy form kind. */
  withdraws?: Partial<Record<FormKind, readonly string[]>>;
}

/** s.206AB / s.206CCA: inserted w.e.f. 1-Jul-2021 (Finance Act 2021), omitted w.e.f. 1-Apr-2025 (Finance Act 2025). */
const HIGHER_RATE_NON_FILER = { from: civilDate(2021, 7, 1), to: civilDate(2025, 3, 31) };

/** 194N family (3-character 26Q/27Q codes). */
const S194N = ['94N', '4NF', '4NC', '9FT'];
const S194LBA = ['4BA', 'BA1', 'BA2'];
/** 26Q remark Y (threshold not exceeded): FVU 3.1/3.2 list [S9] in the split codes of [S15]. */
const Y_SECTIONS = ['193', '194', '94A', '94C', '94D', '4EE', '94G', '94H', '4IA', '4IB', '4JA', '4JB', '94L', '94K'];

/**
 * Releases in date order. The first row is the set of letters the engine accepted before any dated release
 * was modelled: letters introduced earlier than the rows below (A, B, C, T, Y, S, Z, D, E, N, M, O, G) are not
 * gated by year, because their releases predate FY 2013-14 or are not dated in the sources (addendum §2.1).
 */
export const REMARK_RELEASES: readonly RemarkRelease[] = [
  {
    release: 'letters before FVU 5.8',
    source: 'addendum §2.1 (26Q T, S, Y, B, N, M, O, D), §2.2 (27Q S, N, M, O); B: [S4c][S5a][S14b][S14c][S15]',
    from: { startYear: 2010, quarter: 'Q1' },
    remarks: {
      nonsalary: {
        T: { sections: { only: ['94C'] } },
        S: { sections: { only: ['4JA', '4JB', '94Q'] } },
        D: { sections: { only: ['94A'] } },
        N: { sections: { only: S194N } },
        M: { sections: { only: S194N } },
        O: { sections: { only: S194LBA } },
        Y: { sections: { only: Y_SECTIONS } },
        // s.197A declarations (15G/15H): 193, 194, 194A, 194EE; later 192A, 194DA; later 194D, 194I(a)/(b), 194K.
        // The sources do not date the two widenings, so the widest published list applies to every year.
        B: { sections: { only: ['193', '194', '94A', '4EE', '2AA', '4DA', '94D', '4IA', '4IB', '94K'] } },
      },
      nonresident: {
        S: { sections: { only: ['195'] } },
        N: { sections: { only: S194N } },
        M: { sections: { only: S194N } },
        O: { sections: { only: S194LBA } },
      },
    },
  },
  {
    release: 'FVU 5.8 (29-Jun-2018)',
    source: 'addendum §2.1 row R [S8]: 194A senior citizens (80TTB), FY 2018-19 on',
    from: { startYear: 2018, quarter: 'Q1' },
    remarks: { nonsalary: { R: { sections: { only: ['94A'] } } } },
  },
  {
    release: 'FVU 7.2 (effective 1-Oct-2021)',
    source: 'addendum §2.1 rows P, Q, U; §2.2 rows I, H, J; §2.3 row I; §2.5 [S7][S15][S2]: FY 2021-22 Q2 on',
    from: { startYear: 2021, quarter: 'Q2' },
    remarks: {
      nonsalary: {
        P: { sections: { only: ['194'] } },
        Q: { sections: { only: ['94A'] } },
        U: { sections: { except: ['2AA', '94B', '4BB', 'LBC', '94N', '4NF'] }, paymentDates: HIGHER_RATE_NON_FILER },
      },
      nonresident: {
        I: { sections: { only: ['96D'] } },
        H: { sections: 'any' },
        J: { sections: { except: ['2AA', 'LBC', '94N', '4NF'] }, paymentDates: HIGHER_RATE_NON_FILER },
      },
      tcs: { I: { sections: 'any', paymentDates: HIGHER_RATE_NON_FILER } },
    },
  },
  {
    release: 'Finance Act 2025 (s.206AB and s.206CCA omitted w.e.f. 1-Apr-2025); FVU 9.x for FY 2025-26',
    source: 'addendum §2.5 [S16a]; no public FVU note on the letters (Low): the engine stops emitting U/J/I from FY 2025-26',
    from: { startYear: 2025, quarter: 'Q1' },
    withdraws: { nonsalary: ['U'], nonresident: ['J'], tcs: ['I'] },
    // [S15] (Low) allows Y with 194B / 194BB (94B, 4BB) from FY 2025-26 only.
    remarks: { nonsalary: { Y: { sections: { only: [...Y_SECTIONS, '94B', '4BB'] } } } },
  },
];

/** The remark rules in force for one statement: the letters that are known and their section limits. */
export interface RemarkRules {
  /** Letters that some release introduces and the statement's period does not (yet, or any more) accept. */
  notInForce: ReadonlyMap<string, string>;
  /** Section limits of the letters in force. */
  limits: ReadonlyMap<string, ReleasedRemark & { release: string }>;
}

const QUARTER_ORDER: Record<Quarter, number> = { Q1: 1, Q2: 2, Q3: 3, Q4: 4 };
const periodKey = (startYear: number, quarter: Quarter) => startYear * 10 + QUARTER_ORDER[quarter];

const NO_RULES: RemarkRules = { notInForce: new Map(), limits: new Map() };

/** Folds the releases up to the statement's period into the letters in force and their limits. */
export function remarkRules(kind: FormKind, family: Family, period: Period, releases: readonly RemarkRelease[] = REMARK_RELEASES): RemarkRules {
  if (family !== 'legacy') return NO_RULES;
  const now = periodKey(period.startYear, period.quarter);
  const limits = new Map<string, ReleasedRemark & { release: string }>();
  const notInForce = new Map<string, string>();
  for (const r of releases) {
    const inForce = periodKey(r.from.startYear, r.from.quarter) <= now;
    for (const [letter, rule] of Object.entries(r.remarks?.[kind] ?? {})) {
      if (inForce) limits.set(letter, { ...rule, release: r.release });
      else if (!limits.has(letter)) notInForce.set(letter, `added by ${r.release}`);
    }
    for (const letter of r.withdraws?.[kind] ?? []) {
      if (!inForce) continue;
      limits.delete(letter);
      notInForce.set(letter, `withdrawn: ${r.release}`);
    }
  }
  return { notInForce, limits };
}

/** Whether a section may carry a letter under its limit. */
export function sectionAllowed(limit: SectionLimit, section: string): boolean {
  if (limit === 'any') return true;
  return 'only' in limit ? limit.only.includes(section) : !limit.except.includes(section);
}
