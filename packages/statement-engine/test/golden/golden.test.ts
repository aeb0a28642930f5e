/** Golden TXT tests: every form and family, a workbook we wrote and the TXT we expect (see cases.ts). */
import { GOLDEN_CASES } from './cases.js';
import { describeGolden } from './golden-suite.js';

describe('statement-engine golden TXT', () => {
  for (const golden of GOLDEN_CASES) describeGolden(golden);
});
