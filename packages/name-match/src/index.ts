export {
  matchNames, checkThreshold, DEFAULT_NAME_MATCH_THRESHOLD,
  type NameMatchResult, type NameMatchOptions, type NameMatchReason, type NameMatchReasonCode,
} from './match.js';
export {
  normalise, phoneticKey, looksLikeBusiness, nameLimitExceeded, NAME_LIMITS, type NameKind, type NormalisedName, type LegalForm,
} from './normalise.js';
export { NAME_MATCH_SCHEMA, NAME_MATCH_PROPERTIES_SCHEMA } from './schema.js';
