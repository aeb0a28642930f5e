// The published record layouts as data, and the self-check of every TXT the engine writes.

export { checkTxt, TxtSelfCheck } from './check.js';
export { compiledRecords, fieldForForm, fieldWidth, layoutVersion, LAYOUT_VERSIONS } from './compile.js';
export type { FieldFormat, FieldSpec, FieldType, LayoutVersion, Numbering, PerForm, Presence, RecordLayout, RecordType, UploadType } from './types.js';

import type { ResolvedOptions } from '../options.js';
import { TxtSelfCheck } from './check.js';

/** The self-check for the statement the options describe. */
export function selfCheckFor(options: ResolvedOptions): TxtSelfCheck {
  return new TxtSelfCheck(options.form.family, options.form.formNumber, options.period.yearCode);
}
