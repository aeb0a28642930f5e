// A mocha root hook (.mocharc*.json "require"): every test's timeout follows the machine's load as the test starts,
// so a suite run on a loaded machine (issue 24: load average 8 on 2 cores) fails only on what is wrong, not on
// time. Hooks that wait on a process scale their own timeouts (loadScaled).

import { timeoutFollowsLoad } from '../../packages/jobs/test/support/processes.js';

export const mochaHooks = {
  beforeEach(this: Mocha.Context): void {
    timeoutFollowsLoad(this.currentTest);
  },
};
