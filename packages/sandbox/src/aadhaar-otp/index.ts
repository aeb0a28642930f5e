export { startAadhaarOtpSimulator, type AadhaarOtpSimulator, type AadhaarOtpSimulatorOptions } from './simulator.js';
export { AADHAAR_TEST_NUMBERS, AADHAAR_TEST_OTP } from './test-numbers.js';
