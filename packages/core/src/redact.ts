/**
 * Redaction of identity data and secrets. Applied to every log line (message and metadata), so that an
 * Aadhaar number, PAN, account number, JWT or secret never reaches a log sink even when a developer logs a
 * whole object by mistake.
 */

const REDACTED = '[REDACTED]';

/** Keys whose values are always secret or identity data, whatever they look like. */
const SENSITIVE_KEY = new RegExp(
  [
    'authorization', 'cookie', 'secret', 'password', 'passwd', 'token', 'api[-_]?key', 'signature', 'otp',
    'aadhaar', 'uid', 'pan', 'account[-_]?(number|no)', 'name[-_]?at[-_]?bank', 'mobile', 'phone', 'email',
    'dob', 'date[-_]?of[-_]?birth', 'code[-_]?verifier', 'private[-_]?key', 'client[-_]?secret', 'seal',
  ].map((k) => `^(x-)?${k}$|[-_]${k}$|^${k}[-_]`).join('|'),
  'i',
);

/** Patterns found inside free text. Order matters: the most specific shapes first. */
const PATTERNS: ReadonlyArray<[RegExp, string]> = [
  [/\beyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/g, '[REDACTED:jwt]'],
  [/\b(bearer|basic)\s+[A-Za-z0-9._~+/=-]{8,}/gi, '$1 [REDACTED]'],
  // Alone, as Aadhaar numbers are written: not glued to a longer run of digits, letters or hyphens.
  [/(?<![\w-])[2-9]\d{3}[\s-]\d{4}[\s-]\d{4}(?![\w-])/g, '[REDACTED:aadhaar]'],
  [/\b[A-Za-z]{5}\d{4}[A-Za-z]\b/g, '[REDACTED:pan]'],
  // 9 to 18 digits: account numbers, Aadhaar (12) and mobile-like runs; long numeric ids are rare in messages.
  [/(?<![\w-])\d{9,18}(?![\w-])/g, '[REDACTED:number]'],
];

/**
 * UUIDs (session, job, request ids) are left whole: their groups can look like an Aadhaar number
 * (`7a7f9576-2345-6789-0123-...`), and an id cut in half makes a log line useless. The capture group makes
 * `split` keep them, at the odd indexes.
 */
const UUID = /((?<![0-9A-Fa-f-])[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}(?![0-9A-Fa-f-]))/;

export function redactText(text: string): string {
  return text.split(UUID).map((part, index) => (index % 2 === 1 ? part : redactPatterns(part))).join('');
}

function redactPatterns(text: string): string {
  let out = text;
  for (const [pattern, replacement] of PATTERNS) out = out.replace(pattern, replacement);
  return out;
}

export function isSensitiveKey(key: string): boolean {
  return SENSITIVE_KEY.test(key);
}

/** The value to log under `key`: masked whole when the key names secret or identity data. */
export function redactEntry(key: string, value: unknown): unknown {
  if (value === undefined || value === null) return value;
  return isSensitiveKey(key) ? REDACTED : redact(value);
}

/** Deep copy of `value` with sensitive keys masked and free text scrubbed. Cycles are cut. */
export function redact(value: unknown, seen: WeakSet<object> = new WeakSet()): unknown {
  if (typeof value === 'string') return redactText(value);
  if (value === null || typeof value !== 'object') return value;
  if (seen.has(value)) return '[Circular]';
  seen.add(value);
  if (value instanceof Error) {
    return { name: value.name, message: redactText(value.message), ...(('code' in value) ? { code: (value as { code: unknown }).code } : {}) };
  }
  if (Buffer.isBuffer(value)) return `[Buffer ${value.length} bytes]`;
  if (Array.isArray(value)) return value.map((item) => redact(item, seen));
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    out[key] = isSensitiveKey(key) && inner !== undefined && inner !== null ? REDACTED : redact(inner, seen);
  }
  return out;
}
