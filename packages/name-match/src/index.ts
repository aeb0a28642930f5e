export {
  matchNames, checkThreshold, DEFAULT_NAME_MATCH_THRESHOLD,
  type NameMatchResult, type NameMatchOptions, type NameMatchReason, type NameMatchReasonCode,
} from './match.js';
export { normalise, phoneticKey, looksLikeBusiness, type NameKind, type NormalisedName, type LegalForm } from './normalise.js';
