/** Every golden case, in one list, so the self-check and the engine suite cover the same set. */
import type { GoldenCase } from './golden-case.js';
import { FORM_138_Q1 } from './expected/form138.js';
import { FORM_140_Q1 } from './expected/form140.js';
import { FORM_140_Q1_IN_KIND } from './expected/form140-in-kind.js';
import { FORM_143_Q1 } from './expected/form143.js';
import { FORM_143_Q1_MULTI_CHALLAN } from './expected/form143-multi.js';
import { FORM_144_Q1 } from './expected/form144.js';
import { FORM_144_Q1_MULTI_CHALLAN } from './expected/form144-multi.js';
import { FORM_24Q_Q3 } from './expected/form24q-q3.js';
import { FORM_24Q_Q4 } from './expected/form24q-q4.js';
import { FORM_24Q_Q4_194P } from './expected/form24q-q4-194p.js';
import { FORM_26Q_Q2 } from './expected/form26q.js';
import { FORM_26Q_Q2_206AB } from './expected/form26q-206ab.js';
import { FORM_27EQ_Q3_206CCA } from './expected/form27eq-206cca.js';
import { FORM_27EQ_Q3_DATA_NAMES } from './expected/form27eq-data.js';
import { FORM_27EQ_Q3_NIL_CHALLAN } from './expected/form27eq-nil.js';
import { FORM_27EQ_Q3_SCHEMA_NAMES } from './expected/form27eq-schema.js';
import { FORM_27Q_Q1 } from './expected/form27q.js';
import { FORM_27Q_Q1_206AB } from './expected/form27q-206ab.js';
import { FORM_140_Q1_PREVIOUS_TOKEN, FORM_26Q_Q2_PREVIOUS_TOKEN } from './expected/previous-token.js';
import { SAMPLE_A_24Q } from './expected/sample-a.js';
import { SAMPLE_B_24Q } from './expected/sample-b.js';
import { SAMPLE_D_FORM_140 } from './expected/sample-d.js';

/** Legacy family (FY 2025-26). */
export const LEGACY_CASES: readonly GoldenCase[] = [
  FORM_24Q_Q3, FORM_24Q_Q4, FORM_26Q_Q2, FORM_27Q_Q1, FORM_27EQ_Q3_SCHEMA_NAMES, FORM_27EQ_Q3_DATA_NAMES, SAMPLE_A_24Q, SAMPLE_B_24Q,
  // s.194P, remarks of FVU 7.2 (206AB U/J, 206CCA I) and the 27Q rate without surcharge and cess
  FORM_24Q_Q4_194P, FORM_26Q_Q2_206AB, FORM_27Q_Q1_206AB, FORM_27EQ_Q3_206CCA,
  // the previous regular statement's token (BH 9/52) and a nil challan
  FORM_26Q_Q2_PREVIOUS_TOKEN, FORM_27EQ_Q3_NIL_CHALLAN,
];

/** New family (TY 2026-27). */
export const NEW_CASES: readonly GoldenCase[] = [
  FORM_138_Q1, FORM_140_Q1, FORM_143_Q1, FORM_144_Q1, SAMPLE_D_FORM_140, FORM_140_Q1_IN_KIND, FORM_140_Q1_PREVIOUS_TOKEN,
  // several challans with rows under each (FVU 1.2 checks no row under challan 1), every deductee code, nil challans, remarks
  FORM_143_Q1_MULTI_CHALLAN, FORM_144_Q1_MULTI_CHALLAN,
];

export const GOLDEN_CASES: readonly GoldenCase[] = [...LEGACY_CASES, ...NEW_CASES];
