// Our own JSON Schemas (ajv) for the shape of a Sheet JSON workbook. They check structure and cell types;
// the meaning of values (patterns, code lists, sums) is checked by the rules, which give specific codes.

import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import type { CellType, FieldSpec } from './spec.js';

// Rows and list values are validated with allErrors (bounded by the width of a row), so that one report
// names every bad cell of a row. The envelope stops at its first error: its size is the input's to choose.
const ajv = new Ajv({ allErrors: true, strictTuples: false });
const firstErrorAjv = new Ajv({ allErrors: false });

const entity = (value: string) => ({ type: 'string', const: value });

/** Workbook -> sheets -> blocks. Rows and list items are checked block by block, not here. */
export const ENVELOPE_SCHEMA = {
  $id: 'satyapan:sheet-json-envelope',
  type: 'object',
  required: ['name', 'sheets'],
  properties: {
    name: { type: 'string' },
    '@entity': entity('workbook'),
    sheets: {
      type: 'array',
      items: {
        type: 'object',
        required: ['name', 'blocks'],
        properties: {
          name: { type: 'string' },
          '@entity': entity('sheet'),
          blocks: {
            type: 'array',
            items: {
              type: 'object',
              required: ['name'],
              properties: {
                name: { type: 'string' },
                '@entity': { enum: ['list', 'table'] },
                items: { type: 'array' },
                header: { type: 'array', items: { type: 'string' } },
                rows: { type: 'array' },
              },
              oneOf: [{ required: ['items'] }, { required: ['header', 'rows'] }],
            },
          },
        },
      },
    },
  },
} as const;

let envelopeValidator: ValidateFunction | null = null;

export function validateEnvelope(workbook: unknown): ErrorObject[] {
  envelopeValidator ??= firstErrorAjv.compile(ENVELOPE_SCHEMA);
  return envelopeValidator(workbook) ? [] : (envelopeValidator.errors ?? []);
}

export function cellSchema(type: CellType, nullable: boolean): object {
  const base = type === 'epoch' ? 'integer' : type;
  return { type: nullable ? [base, 'null'] : base };
}

const rowValidators = new Map<string, ValidateFunction>();

/**
 * Validator for a table row, columns in header order (`null` = a column we do not read). Trailing cells may be
 * missing (the vendor's own sample drops trailing nulls), but not cells of a non-nullable column.
 */
export function rowValidator(columns: ReadonlyArray<FieldSpec | null>): ValidateFunction {
  const signature = columns.map((c) => (c ? `${c.type}${c.nullable ? '?' : ''}` : '*')).join(',');
  let validator = rowValidators.get(signature);
  if (!validator) {
    let minItems = 0;
    columns.forEach((c, index) => {
      if (c && !c.nullable) minItems = index + 1;
    });
    validator = ajv.compile({
      type: 'array',
      minItems,
      maxItems: columns.length,
      items: columns.map((c) => (c ? cellSchema(c.type, c.nullable) : {})),
    });
    rowValidators.set(signature, validator);
  }
  return validator;
}

const valueValidators = new Map<string, ValidateFunction>();

/** Validator for one list value. */
export function valueValidator(spec: FieldSpec): ValidateFunction {
  const signature = `${spec.type}${spec.nullable ? '?' : ''}`;
  let validator = valueValidators.get(signature);
  if (!validator) {
    validator = ajv.compile(cellSchema(spec.type, spec.nullable));
    valueValidators.set(signature, validator);
  }
  return validator;
}

export type { ErrorObject, ValidateFunction };
