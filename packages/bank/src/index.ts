export {
  IFSC_PATTERN, STRING_FIELDS, FLAG_FIELDS, NULLABLE_FIELDS, isIfscPattern, canonicalIfsc, branchView,
  type Branch, type BranchView, type StringField, type FlagField,
} from './ifsc/branch.js';
export { BankCodeResolver, type BankMetadata } from './ifsc/bank-codes.js';
export { readCsvRows, readCsvRecords, CsvFormatError } from './ifsc/csv.js';
export { readTarEntries, TarFormatError, type TarEntry } from './ifsc/tar.js';
export { readSource, SourceFormatError, type SourceContents, type SourceKind } from './ifsc/sources.js';
export { normaliseRecord, type RawRecord, type UnresolvedBranch } from './ifsc/normalise.js';
export { iso3166ForState } from './ifsc/iso3166.js';
export {
  encodeSnapshot, decodeSnapshot, isSnapshot, SnapshotFormatError,
  type SnapshotMetadata, type SnapshotColumns,
} from './ifsc/snapshot.js';
export { IfscDirectory, type BranchDirectory } from './ifsc/directory.js';
export type { BranchQuery, BranchPage } from './ifsc/search.js';
export { importBranches, buildSnapshot, loadDirectory, type ImportOptions, type ImportReport } from './ifsc/importer.js';
export { SwappableDirectory } from './ifsc/swappable.js';
export { SAMPLE_SNAPSHOT_PATH, loadSampleDirectory } from './ifsc/sample.js';
export { IfscService, type SearchParams, type BranchSearchPage } from './ifsc/service.js';
export {
  VALIDATION_MESSAGES, ACCOUNT_NUMBER_MAX, NAME_MAX, MOBILE_PATTERN, DIGITS_PATTERN, SEARCH_LIMIT_MAX, SEARCH_LIMIT_DEFAULT, SEARCH_TEXT_MAX,
  assertIfsc, assertAccountNumber, assertName, assertMobile,
} from './validation.js';
export type { PennyDropProvider, PennyDropRequest, PennyDropOutcome } from './penny-drop/port.js';
export { CashfreePennyDropProvider, type CashfreeOptions } from './penny-drop/cashfree.js';
// Moved to @satyapan/core (PAN verification in @satyapan/kyc shares them); re-exported for existing importers.
export { VerificationCache, DEFAULT_CACHE_TTL_SECONDS, RedisSingleFlight, type SingleFlightOptions } from '@satyapan/core';
export {
  CachedVerifier, type VerificationSettings, type Definitive, type VerifierAnswer, type AccountCheckInput, type ProviderRequest,
} from './verification/cached-verifier.js';
export type { RedisClient } from './verification/redis-client.js';
export { nameMatchAtBank, type NameMatchAnswer } from './verification/name-match.js';
export {
  BankVerificationService, PENNY_DROP_ENTITY, toResult,
  type BankVerificationOptions, type VerifyAccountInput, type PennyDropResult,
} from './penny-drop/service.js';
export type { PennyLessProvider, PennyLessRequest, PennyLessOutcome } from './penny-less/port.js';
export { SetuPennyLessProvider, type SetuPennyLessOptions } from './penny-less/setu.js';
export {
  PennyLessVerificationService, PENNY_LESS_ENTITY, toPennyLessResult,
  type PennyLessOptions, type PennyLessVerifyInput, type PennyLessResult,
} from './penny-less/service.js';
export { BankService, createBankService, type BankServiceOptions } from './bank-service.js';
export { bankArea } from './routes.js';
