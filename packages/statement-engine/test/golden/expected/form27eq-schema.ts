/**
 * Expected TXT for fixtures/form27eq_q3_fy2025-26.schema-names.json. The fixture is the data-names one with
 * the five columns the vendor's schema spells differently (paid_date, payment_amount, payment_date,
 * collection_date, reason_for_lower_collection; DECISIONS.md D-28), so both must give the same TXT: the
 * expected lines are those of ./form27eq-data.ts, not a copy of them.
 */
import type { GoldenCase } from '../golden-case.js';
import { FORM_27EQ_Q3_DATA_NAMES } from './form27eq-data.js';

export const FORM_27EQ_Q3_SCHEMA_NAMES: GoldenCase = {
  ...FORM_27EQ_Q3_DATA_NAMES,
  title: "27EQ Q3 FY 2025-26 (legacy, 27EQ v6.9; column names of the vendor schema file)",
  fixture: "form27eq_q3_fy2025-26.schema-names.json",
};
