export { startPennyDropSimulator, type PennyDropSimulator, type PennyDropSimulatorOptions } from './simulator.js';
export { PENNY_DROP_TEST_ACCOUNTS, PENNY_DROP_TEST_IFSC, PENNY_DROP_TEST_NAMES, VENDOR_PENNY_DROP_ACCOUNTS } from './test-accounts.js';
