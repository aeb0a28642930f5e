// Access tokens for the client: obtained with the API key and secret, refreshed through /authorize before they
// expire, and re-obtained when the API refuses one (revoked, or the refresh window over). One request at a time
// asks for a token, however many calls wait for it.

export interface Credentials {
  baseUrl: string;
  apiKey: string;
  apiSecret: string;
  fetch: typeof globalThis.fetch;
  /** Refresh a token this long before its `exp`; default 5 minutes. */
  refreshBeforeMs: number;
  now: () => number;
}

/** An answer of the API that is not a success, with the envelope's message. */
export class SatyapanApiError extends Error {
  constructor(readonly status: number, message: string, readonly transactionId?: string) {
    super(`${status} ${message}`);
    this.name = 'SatyapanApiError';
  }
}

interface Token {
  value: string;
  /** Unix ms when the API stops accepting it. */
  expiresAt: number;
}

export class TokenKeeper {
  private token: Token | null = null;
  private pending: Promise<Token> | null = null;

  constructor(private readonly credentials: Credentials) {}

  /** A token valid for at least `refreshBeforeMs` more, obtaining or refreshing one if needed. */
  async current(): Promise<string> {
    const token = this.token;
    const now = this.credentials.now();
    if (token && token.expiresAt - this.credentials.refreshBeforeMs > now) return token.value;
    return (await this.once(() => (token && token.expiresAt > now ? this.refresh(token) : this.authenticate()))).value;
  }

  /** Drops a token the API refused, unless another call already replaced it. */
  forget(value: string): void {
    if (this.token?.value === value) this.token = null;
  }

  private once(obtain: () => Promise<Token>): Promise<Token> {
    this.pending ??= obtain().then(
      (token) => { this.token = token; this.pending = null; return token; },
      (error: unknown) => { this.pending = null; throw error; },
    );
    return this.pending;
  }

  private async authenticate(): Promise<Token> {
    const { apiKey, apiSecret } = this.credentials;
    return this.tokenFrom(await this.post('/authenticate', { 'x-api-key': apiKey, 'x-api-secret': apiSecret }));
  }

  /** Refresh revokes the old token; when the API refuses (window over, revoked), authenticate afresh. */
  private async refresh(token: Token): Promise<Token> {
    const path = `/authorize?request_token=${encodeURIComponent(token.value)}`;
    const answer = await this.post(path, { authorization: token.value, 'x-api-key': this.credentials.apiKey })
      .catch((error: unknown) => (error instanceof SatyapanApiError && error.status < 500 ? null : Promise.reject(error)));
    return answer ? this.tokenFrom(answer) : this.authenticate();
  }

  private async post(path: string, headers: Record<string, string>): Promise<unknown> {
    const response = await this.credentials.fetch(`${this.credentials.baseUrl}${path}`, { method: 'POST', headers });
    const body = (await response.json().catch(() => ({}))) as { message?: string; transaction_id?: string };
    if (!response.ok) throw new SatyapanApiError(response.status, body.message ?? response.statusText, body.transaction_id);
    return body;
  }

  private tokenFrom(answer: unknown): Token {
    const value = (answer as { data?: { access_token?: unknown } }).data?.access_token;
    if (typeof value !== 'string') throw new SatyapanApiError(502, 'the API answered without an access_token');
    return { value, expiresAt: expiryOf(value) };
  }
}

/** The `exp` claim of a JWT in ms; the signature is the API's business, the client only schedules refreshes. */
function expiryOf(jwt: string): number {
  const payload = jwt.split('.')[1];
  const claims = payload ? (JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { exp?: unknown }) : {};
  if (typeof claims.exp !== 'number') throw new SatyapanApiError(502, 'the access token carries no exp claim');
  return claims.exp * 1000;
}
