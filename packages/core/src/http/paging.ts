// Paging shared by every list: `page_size` and an opaque `last_evaluated_key` in, `items` and the next page's
// `last_evaluated_key` (null on the last page) out, so one client loop reads every list of the API.
import { serviceError } from '../errors.js';
import type { JsonSchema } from './routes.js';

/** The request field that carries a cursor, named in every error about one. */
export const CURSOR_FIELD = 'last_evaluated_key';

export interface PageSizeLimits {
  readonly default: number;
  readonly max: number;
}

/**
 * `page_size` of a list request. `applyDefault: false` leaves the default to the handler (the validator fills a
 * schema default in), for a list that must tell whether the caller sent one (a deprecated alias it also reads).
 */
export function pageSizeSchema(limits: PageSizeLimits, applyDefault = true): JsonSchema {
  const size = { type: 'integer', minimum: 1, maximum: limits.max };
  return applyDefault
    ? { ...size, default: limits.default, description: 'Items per page.' }
    : { ...size, description: `Items per page (default ${limits.default}).` };
}

/** `last_evaluated_key` of a list request: what the previous page answered, passed back unchanged. */
export function cursorSchema(maxLength: number): JsonSchema {
  return { type: 'string', minLength: 1, maxLength, description: 'Cursor from the previous page (its `last_evaluated_key`).' };
}

/** A list answer: `@entity`, `items` and the next cursor, plus fields of the list's own (`extra`, the `required` among them). */
export function pagedListSchema(entity: string, item: JsonSchema, extra: Record<string, JsonSchema> = {}, required: readonly string[] = []): JsonSchema {
  return {
    type: 'object',
    required: ['@entity', 'items', CURSOR_FIELD, ...required],
    properties: {
      '@entity': { const: entity },
      items: { type: 'array', items: item },
      [CURSOR_FIELD]: { type: ['string', 'null'], description: 'Pass back to get the next page; null on the last page.' },
      ...extra,
    },
  };
}

/**
 * A cursor for a position callers must not build or read (a list may change what it holds): `kind` and the
 * position, base64url. Use it where the position is no secret; a list of one client's data seals it instead.
 */
export function encodeCursor(kind: string, position: string): string {
  return Buffer.from(`${kind}:${position}`, 'utf8').toString('base64url');
}

/**
 * The position of a cursor `encodeCursor(kind, ...)` made, when `accept` takes it. Anything else is the caller's
 * mistake, a 400 naming `last_evaluated_key` (a query parameter's error), never a failure of ours.
 */
export function decodeCursor(kind: string, cursor: string, accept: (position: string) => boolean): string {
  const text = /^[A-Za-z0-9_-]+$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString('utf8') : '';
  const position = text.startsWith(`${kind}:`) ? text.slice(kind.length + 1) : undefined;
  if (position === undefined || !accept(position)) throw serviceError('INVALID_PARAMETER', CURSOR_FIELD, CURSOR_REFUSAL);
  return position;
}

/** The reason of a cursor `decodeCursor` refuses, for operations' documented error lists. */
export const CURSOR_REFUSAL = 'is not a cursor of a previous page';
