export { startAadhaarOtpSimulator, type AadhaarOtpSimulator, type AadhaarOtpSimulatorOptions } from './simulator.js';
export {
  AADHAAR_TEST_NUMBERS, AADHAAR_TEST_OTP, VENDOR_AADHAAR_NUMBERS, VENDOR_AADHAAR_REFERENCE_IDS, VENDOR_SOURCE_UNAVAILABLE_OTP,
} from './test-numbers.js';
