export { startPennyLessSimulator, type PennyLessSimulator, type PennyLessSimulatorOptions } from './simulator.js';
export { PENNY_LESS_TEST_ACCOUNTS, SETU_SANDBOX_ACCOUNTS, VENDOR_PENNY_LESS_ACCOUNTS } from './test-accounts.js';
