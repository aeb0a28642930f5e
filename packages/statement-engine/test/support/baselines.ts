// Every baseline workbook with the options that convert it, under one name, for tests that go over the forms.

import type { ConvertOptions } from '../../src/index.js';
import { form140Parts, form26qParts, OPTIONS_140, OPTIONS_26Q } from './fixtures.js';
import {
  form138Parts,
  form143Parts,
  form144Parts,
  form24qParts,
  form24qQ4Parts,
  form27eqParts,
  form27qParts,
  OPTIONS_138,
  OPTIONS_143,
  OPTIONS_144,
  OPTIONS_24Q_Q3,
  OPTIONS_24Q_Q4,
  OPTIONS_27EQ,
  OPTIONS_27Q,
} from './more-fixtures.js';
import type { WorkbookParts } from './sheet-json.js';

interface BaselineEntry {
  /** How test titles name it. */
  readonly title: string;
  readonly parts: () => WorkbookParts;
  readonly options: ConvertOptions;
}

const BASELINES = {
  '26Q': { title: '26Q', parts: form26qParts, options: OPTIONS_26Q },
  '140': { title: '140', parts: form140Parts, options: OPTIONS_140 },
  '24Q': { title: '24Q Q3', parts: () => form24qParts(), options: OPTIONS_24Q_Q3 },
  '24Q-Q4': { title: '24Q Q4', parts: form24qQ4Parts, options: OPTIONS_24Q_Q4 },
  '27Q': { title: '27Q', parts: form27qParts, options: OPTIONS_27Q },
  '27EQ': { title: '27EQ', parts: form27eqParts, options: OPTIONS_27EQ },
  '138': { title: '138', parts: form138Parts, options: OPTIONS_138 },
  '144': { title: '144', parts: form144Parts, options: OPTIONS_144 },
  '143': { title: '143', parts: form143Parts, options: OPTIONS_143 },
} as const satisfies Record<string, BaselineEntry>;

export type BaselineName = keyof typeof BASELINES;

export const BASELINE_NAMES = Object.keys(BASELINES) as BaselineName[];

export interface Baseline {
  readonly title: string;
  readonly parts: WorkbookParts;
  readonly options: ConvertOptions;
}

/** Fresh parts and a copy of the options: a test may change either. */
export function baseline(name: BaselineName): Baseline {
  const entry: BaselineEntry = BASELINES[name];
  return { title: entry.title, parts: entry.parts(), options: { ...entry.options } };
}
