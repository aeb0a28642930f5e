/** Every golden case, in one list, so the self-check and the engine suite cover the same set. */
import type { GoldenCase } from './golden-case.js';
import { FORM_26Q_Q2 } from './expected/form26q.js';
import { FORM_140_Q1 } from './expected/form140.js';
import { SAMPLE_D_FORM_140 } from './expected/sample-d.js';

export const GOLDEN_CASES: readonly GoldenCase[] = [FORM_26Q_Q2, FORM_140_Q1, SAMPLE_D_FORM_140];
