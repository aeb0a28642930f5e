export {};
export type { SignatureCheck } from './cashfree-signature.js';
export * from './locker/index.js';
export * from './aadhaar-otp/index.js';
export * from './penny-drop/index.js';
export * from './penny-less/index.js';
export { VENDOR_SANDBOX_BRANCHES, type VendorBranch } from './bank/vendor-branches.js';
export * from './pan/index.js';
