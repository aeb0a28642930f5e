// Positions of named columns within a table spec, resolved once per spec.

import type { TableSpec } from '../workbook/spec.js';

const cache = new WeakMap<TableSpec, Map<string, number>>();

/** Position of `key` in the spec's columns, or -1 when this workbook has no such column. */
export function col(spec: TableSpec, key: string): number {
  let map = cache.get(spec);
  if (!map) {
    map = new Map(spec.columns.map((c, i) => [c.key, i]));
    cache.set(spec, map);
  }
  return map.get(key) ?? -1;
}

/** The cell at a column key, or null when the workbook has no such column. */
export function cell(cells: readonly unknown[], spec: TableSpec, key: string): unknown {
  const i = col(spec, key);
  return i < 0 ? null : (cells[i] ?? null);
}
