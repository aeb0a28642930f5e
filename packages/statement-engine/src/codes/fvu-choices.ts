// Format rules where the public sources are silent or disagree, one constant each, with its source and the FVU
// version it applies to (tds-rules-addendum.md, "addendum §n"; its source tags [Sn]). When Protean's text or an
// FVU run settles one, change the constant here and the test that pins it. FORMAT_NOTES.md §11 explains each.

import type { FormName } from '../types.js';
import type { Family } from '../period.js';

/**
 * Must the date of payment/credit fall inside the statement's quarter?
 * - New family: yes. FVU/RPU 1.2 "Key Features", TY 2026-27 (addendum §7, High).
 * - Legacy: no. No legacy FVU release (up to 9.x) has such a rule; a payment credited in an earlier quarter and
 *   deducted in this one is how a late deduction is reported (addendum §7, Medium). Some vendor validators force
 *   it into the quarter [S15]; we do not. The date of deduction carries the quarter rule instead.
 */
export const PAYMENT_DATE_IN_QUARTER: Readonly<Record<Family, boolean>> = { legacy: false, new: true };

/**
 * Must the date of deduction/collection be on or before the last day of the quarter? FVU 4.1 (4 Jan 2014) and
 * Form 140 v1.0 publish only the lower bound (on or after the quarter's first day) and "not in the future";
 * third-party validators use quarter start <= date <= today [S15] (addendum §7, Medium). A deduction made after
 * the quarter belongs to the next quarter's statement, so we apply both bounds, in both families.
 */
export const DEDUCTION_DATE_BY_QUARTER_END = true;

/**
 * Largest amount paid/credited (DD) and total taxable income (SD) the FVU accepts, in paise, by form:
 * 999999999.00 for 24Q, all financial years, regular and correction statements. FVU 4.4 / 2.140 (Sep 2014) and
 * the FY 2013-14 24Q workbook ("less than or equal to 99 crores") (addendum §5, High). The reference's legacy DD
 * table put it on all four legacy forms; the addendum finds it for 24Q only (§9), and none is known for the new
 * forms (Form 138's vendor schema allows 999999999999.99, unverified). Forms not listed: only the field size.
 */
export const AMOUNT_CEILING_PAISE: Readonly<Partial<Record<FormName, number>>> = { '24Q': 99_999_999_900 };

/**
 * Remarks a deductee row under a nil challan may carry (FVU 4.0, 1 Oct 2013: nil challans must have deductee
 * rows, each with a no-deduction remark; addendum §1.4). Every such row also has no tax.
 * - 26Q: A B Y S T Z. NSDL circular NSDL/TIN/2013/020 [S5a][S5b], repeated by the RPU 3.8 guidance [S5c] (High).
 * - 27Q: A B S. 27Q workbook v6.7 (22 Mar 2021) general note 11 [S6] (High).
 * - Not published for 24Q, 27EQ and the new forms: `null`, read as "remark A or one of the form's remarks that
 *   mean no deduction/collection" (codes/reasons.ts), which gives 24Q A B (the addendum's inference) and 27EQ
 *   A B D E F G H (the vendor's own 27EQ sample has G under its zero challans).
 */
export const NIL_CHALLAN_REMARKS: Readonly<Record<FormName, ReadonlySet<string> | null>> = {
  '26Q': new Set(['A', 'B', 'Y', 'S', 'T', 'Z']),
  '27Q': new Set(['A', 'B', 'S']),
  '24Q': null,
  '27EQ': null,
  '138': null,
  '140': null,
  '143': null,
  '144': null,
};

/**
 * Amount fields of a nil challan (legacy CD 22-27, 29-35, 39; new CD 8-12, 21, 22): `0.00`. The addendum (§1.1,
 * §1.2; NSDL RPU guidance [S5c]: "all amount fields zero"; new CD 8-12 are mandatory integer fields) says zero;
 * the summary says "empty". We follow the field tables: 'zero'. 'empty' leaves them blank.
 */
export const NIL_CHALLAN_AMOUNTS: 'zero' | 'empty' = 'zero';
