// Checks of what a host passes to our constructors and factories, and of the environment variables it reads:
// a missing or malformed setting is one `OptionError` naming it (`CashfreePennyDropProvider: baseUrl is missing:
// ...`), at start, rather than a TypeError from deep inside on first use.

/** A host's setting (an option or an environment variable) that is missing or malformed. */
export class OptionError extends Error {
  override readonly name = 'OptionError';
  readonly code = 'INVALID_OPTION';

  /** `option` is the setting's full name as the host spells it (`verification.keySecret`, `SATYAPAN_SEALING_KEYS`). */
  constructor(readonly option: string, message: string) {
    super(message);
  }
}

function fail(owner: string, name: string, problem: string, hint?: string): never {
  const where = owner ? `${owner}: ` : '';
  throw new OptionError(name, `${where}${name} ${problem}${hint ? `: ${hint}` : ''}`);
}

/** `value` as a non-empty string; `owner` (the class or function) and `name` (the option) make the error's words. */
export function requireText(owner: string, name: string, value: unknown, hint?: string): string {
  if (value === undefined || value === null || value === '') fail(owner, name, 'is missing', hint);
  if (typeof value !== 'string') fail(owner, name, `must be a string, got ${typeof value}`, hint);
  return value;
}

/**
 * The options without which an object cannot work, each named when missing: `hints` maps an option's name to
 * what to give (`{ redis: 'a connection from createRedisConnection()' }`).
 */
export function requirePresent(owner: string, options: object | undefined, hints: Readonly<Record<string, string>>): void {
  if (options === undefined || options === null) throw new OptionError('options', `${owner}: its options are missing`);
  for (const [name, hint] of Object.entries(hints)) {
    const value = (options as Record<string, unknown>)[name];
    if (value === undefined || value === null) fail(owner, name, 'is missing', `give ${hint}`);
  }
}

/** A secret of at least `minBytes` bytes (an HMAC key: a short one is guessed from what it signs). */
export function requireSecret(owner: string, name: string, value: unknown, minBytes: number, hint?: string): string {
  const secret = requireText(owner, name, value, hint);
  if (Buffer.byteLength(secret) < minBytes) fail(owner, name, `must be at least ${minBytes} bytes, got ${Buffer.byteLength(secret)}`, hint);
  return secret;
}

/** An absolute http(s) URL. */
export function requireHttpUrl(owner: string, name: string, value: unknown, hint?: string): URL {
  const text = requireText(owner, name, value, hint);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return fail(owner, name, `must be an absolute http(s) URL, got ${JSON.stringify(text)}`, hint);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') fail(owner, name, `must be an http(s) URL, got ${JSON.stringify(text)}`, hint);
  return url;
}

/**
 * Names that are never a deployment (RFC 2606 and 6761): `example.com` and friends, and the `.example`,
 * `.invalid` and `.test` domains. A public URL there is a snippet's placeholder left in, and would send every
 * client to a host that is not ours.
 */
export function isPlaceholderHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  return /(^|\.)example\.(com|net|org)$/.test(host) || /(^|\.)(example|invalid|test)$/.test(host);
}

/**
 * The URL clients reach us at (signed storage URLs, redirect URIs, links in answers): an absolute http(s) URL,
 * not on a placeholder domain, returned without its trailing slashes.
 */
export function requirePublicUrl(owner: string, name: string, value: unknown): string {
  const url = requireHttpUrl(owner, name, value, 'give the absolute URL clients reach it at');
  if (isPlaceholderHost(url.hostname)) {
    fail(owner, name, `is ${url.origin}, a documentation placeholder (${url.hostname} is reserved and never served)`,
      'set it to the URL your clients reach this host at');
  }
  return String(value).replace(/\/+$/, '');
}

/** An environment variable's value; `undefined` when unset or empty (an empty variable is a mistake, never a value). */
export function optionalEnv(name: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const value = env[name];
  return value === undefined || value === '' ? undefined : value;
}

/** An environment variable that must be set: an `OptionError` naming it (and saying what it is) otherwise. */
export function requiredEnv(name: string, what?: string, env: NodeJS.ProcessEnv = process.env): string {
  const value = optionalEnv(name, env);
  if (value === undefined) throw new OptionError(name, `${name} is not set${what ? `: ${what}` : ''}`);
  return value;
}

/**
 * Sealing keys as one variable holds them: `id:base64key[,id:base64key...]`, the first one sealing (older ones
 * only open what they sealed). The API processes and the workers must be given the same list.
 */
export function parseSealingKeys(value: string, name = 'SATYAPAN_SEALING_KEYS'): Array<{ id: string; key: string }> {
  return value.split(',').map((entry, index) => {
    const at = entry.indexOf(':');
    const id = entry.slice(0, at).trim();
    const key = entry.slice(at + 1).trim();
    // The entry itself is not quoted: without its colon it may be a key.
    if (at < 0 || !id || !key) throw new OptionError(name, `${name} entry ${index + 1} is not id:base64key (an id, a colon, 32 random bytes in base64)`);
    return { id, key };
  });
}
