import type { NameMatchReasonCode } from './match.js';

const REASON_CODES: readonly NameMatchReasonCode[] = [
  'exact', 'honorific_dropped', 'relation_dropped', 'abbreviation_expanded', 'initial_matched', 'initial_mismatch',
  'tokens_reordered', 'tokens_joined', 'transliteration_variant', 'vowel_variant', 'token_similar', 'token_mismatch',
  'extra_tokens', 'legal_form_normalised', 'legal_form_conflict', 'empty_name',
];

/** JSON Schema of `score`, `result` and `reasons`, for the API operations that answer a name match. */
export const NAME_MATCH_PROPERTIES_SCHEMA: Readonly<Record<string, Record<string, unknown>>> = {
  score: { type: 'number', minimum: 0, maximum: 1, description: '0..1, two decimals; 1 is the same name once the differences in `reasons` are set aside' },
  result: { enum: ['match', 'no_match'], description: '`match` when the score reaches the deployment\'s threshold (default 0.85)' },
  reasons: {
    type: 'array',
    description: 'What was set aside or found different, in order',
    items: {
      type: 'object',
      required: ['code', 'detail'],
      properties: { code: { enum: [...REASON_CODES] }, detail: { type: 'string' } },
    },
  },
};

/** JSON Schema of a `name_match` object (penny drop, penny-less). */
export const NAME_MATCH_SCHEMA: Readonly<Record<string, unknown>> = {
  type: 'object',
  required: ['score', 'result', 'reasons'],
  properties: NAME_MATCH_PROPERTIES_SCHEMA,
  description: 'The request\'s `name` against `name_at_bank`; present when both are',
};
