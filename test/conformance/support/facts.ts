// The facts a conformance case compares, and the comparison. A case's expectation is recorded from the vendor's
// example by extract-fixtures.ts; our answer is reduced to the same facts and the two are compared.

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/**
 * The JSON shape of a value: a type name for a scalar, an object of shapes, or a one-element array holding the
 * merged shape of all elements (`[]` for an empty array, whose element shape is unknown).
 */
export type Shape = 'string' | 'number' | 'boolean' | 'null' | Shape[] | { [key: string]: Shape };

export interface ExpectedFacts {
  status: number;
  shape: Shape;
  /** Every `@entity` value by path (`data.files[].@entity`), in our words. */
  entities: Record<string, string>;
  /** Every `message` value by path. */
  messages: Record<string, string>;
}

export interface ExampleCase {
  /** Unique; names the source item. */
  id: string;
  /** The reference file and the item or JSON path of the example in it. */
  source: string;
  /** Other examples with the same facts and the same reproduction (the OpenAPI documents repeat the collection). */
  also_in?: string[];
  /** `METHOD /path/{param}` in our words. */
  operation: string;
  /** How the conformance test reproduces the example with our sandbox (see README.md). */
  scenario: string;
  params?: Record<string, string>;
  /** The vendor's request body (our words), sent as it is by the `as-given` scenario. */
  request?: Json;
  /** Paths of the vendor's answer not expected from our reproduction, because it uses other test values. */
  omit?: string[];
  expect: ExpectedFacts;
}

function isObject(value: unknown): value is Record<string, Json> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function shapeOf(value: Json): Shape {
  if (value === null) return 'null';
  if (Array.isArray(value)) return value.length === 0 ? [] : [value.map(shapeOf).reduce(mergeShapes)];
  if (isObject(value)) return Object.fromEntries(Object.keys(value).sort().map((key) => [key, shapeOf(value[key]!)]));
  return typeof value as 'string' | 'number' | 'boolean';
}

/** Elements of one array may differ in optional keys: the merged shape has every key any element has. */
function mergeShapes(a: Shape, b: Shape): Shape {
  if (isObject(a) && isObject(b)) {
    const merged: Record<string, Shape> = { ...(a as Record<string, Shape>) };
    for (const [key, shape] of Object.entries(b as Record<string, Shape>)) merged[key] = key in merged ? mergeShapes(merged[key]!, shape) : shape;
    return merged;
  }
  return a;
}

/** Values of every property named `key`, by path; array elements share the path `name[]` (first value kept). */
export function valuesAt(value: Json, key: string, path = ''): Record<string, string> {
  const out: Record<string, string> = {};
  const visit = (node: Json, at: string): void => {
    if (Array.isArray(node)) {
      node.forEach((element) => visit(element, `${at}[]`));
    } else if (isObject(node)) {
      for (const [name, child] of Object.entries(node)) {
        const childPath = at ? `${at}.${name}` : name;
        if (name === key && typeof child === 'string') out[childPath] ??= child;
        else visit(child, childPath);
      }
    }
  };
  visit(value, path);
  return out;
}

/** Ids in messages ("Data not found for: <uuid>") differ by nature; they are compared as a placeholder. */
export function normaliseMessage(message: string): string {
  return message.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, '{id}');
}

function shapeName(shape: Shape): string {
  if (Array.isArray(shape)) return 'array';
  return isObject(shape) ? 'object' : shape;
}

function compareShapes(vendor: Shape, ours: Shape, path: string, out: string[]): void {
  const at = path || 'body';
  if (shapeName(vendor) !== shapeName(ours)) {
    out.push(`type ${at} ${shapeName(vendor)}->${shapeName(ours)}`);
    return;
  }
  if (Array.isArray(vendor) && Array.isArray(ours)) {
    if (vendor.length > 0 && ours.length > 0) compareShapes(vendor[0]!, ours[0]!, `${path}[]`, out);
    return;
  }
  if (isObject(vendor) && isObject(ours)) {
    const v = vendor as Record<string, Shape>;
    const o = ours as Record<string, Shape>;
    for (const key of Object.keys(v)) {
      const child = path ? `${path}.${key}` : key;
      if (!(key in o)) out.push(`missing ${child}`);
      else compareShapes(v[key]!, o[key]!, child, out);
    }
    for (const key of Object.keys(o)) if (!(key in v)) out.push(`extra ${path ? `${path}.${key}` : key}`);
  }
}

function withoutPaths(shape: Shape, paths: readonly string[]): Shape {
  if (paths.length === 0 || !isObject(shape)) return shape;
  const copy = structuredClone(shape) as Record<string, Shape>;
  for (const path of paths) {
    const parts = path.split('.');
    let node: Shape | undefined = copy;
    for (const part of parts.slice(0, -1)) node = isObject(node) ? (node as Record<string, Shape>)[part] : undefined;
    if (isObject(node)) delete (node as Record<string, Shape>)[parts.at(-1)!];
  }
  return copy;
}

/**
 * Every difference between the vendor's example and our answer, as canonical strings:
 * `status V->O`, `missing PATH`, `extra PATH`, `type PATH V->O`, `entity PATH "V"->"O"`, `message PATH "V"->"O"`.
 */
export function differences(expected: ExpectedFacts, status: number, body: Json, omit: readonly string[] = []): string[] {
  const out: string[] = [];
  if (expected.status !== status) out.push(`status ${expected.status}->${status}`);
  compareShapes(withoutPaths(expected.shape, omit), shapeOf(body), '', out);
  const entities = valuesAt(body, '@entity');
  for (const [path, value] of Object.entries(expected.entities)) {
    if (path in entities && entities[path] !== value) out.push(`entity ${path} "${value}"->"${entities[path]}"`);
  }
  const messages = valuesAt(body, 'message');
  // A message inside a list belongs to its item (a job's own failure), not to the answer: only its presence counts.
  for (const [path, value] of Object.entries(expected.messages).filter(([at]) => !at.includes('[]'))) {
    const ours = messages[path];
    if (ours !== undefined && normaliseMessage(ours) !== normaliseMessage(value)) out.push(`message ${path} "${value}"->"${ours}"`);
  }
  return out;
}
