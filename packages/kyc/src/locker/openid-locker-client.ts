import * as oidc from 'openid-client';
import { keepAliveFetch, requireHttpUrl, requirePublicUrl, requireText, sha256Hex, type KeepAliveFetch } from '@satyapan/core';
import { classifyLockerFailure } from './failures.js';
import { requiresInsecureTransport } from '../transport.js';
import { parseBusiness, parseIssuedFiles, parsePerson } from './parse.js';
import {
  LockerError,
  type AccountQuery, type AuthorizationRequest, type DownloadedFile, type IssuedFileInfo, type LockerBusiness, type LockerClientConfig,
  type LockerKind, type LockerPerson, type LockerPort, type LockerTokens,
} from './types.js';

/** Paths of the partner API under the configured base URL. */
interface LockerPaths {
  user: string;
  entity: string | null;
  issued: string;
  file: string;
  xml: string | null;
  eaadhaar: string | null;
  /** The partner API's account check (HMAC-authenticated, no user token); the entity locker has none. */
  accountVerify: string | null;
}

const PATHS: Record<LockerKind, LockerPaths> = {
  docvault: {
    user: '/oauth2/1/user', entity: null, issued: '/oauth2/2/files/issued', file: '/oauth2/1/file/',
    xml: '/oauth2/1/xml/', eaadhaar: '/oauth2/3/xml/eaadhaar', accountVerify: '/account/2/verify',
  },
  entityvault: {
    user: '/oauth2/1/user', entity: '/oauth2/1/entity', issued: '/oauth2/2/entity/files/issued',
    file: '/oauth2/1/entity/file/', xml: null, eaadhaar: null, accountVerify: null,
  },
};

/** What the resource reads send as User-Agent (openid-client sends its own on the OAuth calls). */
const USER_AGENT = 'satyapan-kyc/1';

/**
 * A locker client built on openid-client v6. The lockers publish no discovery document, so the server
 * metadata is written out here from the base URL; pointing at the real locker is a matter of configuration.
 *
 * Plain http is refused by openid-client; it is allowed (allowInsecureRequests) only when the base URL is a
 * loopback address, which is where the simulator of the test deployment listens. Any other http URL is an error.
 */
export class OpenIdLockerClient implements LockerPort {
  readonly kind: LockerKind;
  private readonly config: oidc.Configuration;
  private readonly base: string;
  private readonly paths: LockerPaths;
  private readonly transport: KeepAliveFetch;
  private readonly clientId: string;
  private readonly clientSecret: string;
  private readonly timeoutMs: number;
  readonly callbackUrl: string | null;

  constructor(settings: LockerClientConfig) {
    this.kind = settings.kind;
    const owner = `${settings.kind} locker`;
    this.base = requireHttpUrl(owner, 'baseUrl', settings.baseUrl, 'the partner API base, https://<locker host>/public').href.replace(/\/+$/, '');
    this.paths = PATHS[settings.kind];
    this.callbackUrl = settings.callbackUrl === undefined ? null : requirePublicUrl(owner, 'callbackUrl', settings.callbackUrl);
    this.clientId = requireText(owner, 'clientId', settings.clientId, 'the client id the locker registered');
    this.clientSecret = requireText(owner, 'clientSecret', settings.clientSecret, 'the client secret the locker issued');
    this.timeoutMs = (settings.timeoutSeconds ?? 10) * 1000;
    const insecure = requiresInsecureTransport(this.base);
    const metadata: oidc.ServerMetadata = {
      issuer: this.base,
      authorization_endpoint: `${this.base}/oauth2/1/authorize`,
      token_endpoint: `${this.base}/oauth2/1/token`,
      revocation_endpoint: `${this.base}/oauth2/1/revoke`,
      code_challenge_methods_supported: ['S256'],
    };
    this.config = new oidc.Configuration(metadata, settings.clientId, settings.clientSecret, oidc.ClientSecretPost(settings.clientSecret));
    this.config.timeout = settings.timeoutSeconds ?? 10;
    this.transport = keepAliveFetch();
    this.config[oidc.customFetch] = this.transport as unknown as oidc.CustomFetch;
    if (insecure) oidc.allowInsecureRequests(this.config);
  }

  /** Closes the kept-alive connections to the locker. */
  close(): void {
    this.transport.close();
  }

  authorizationUrl(request: AuthorizationRequest): URL {
    const params: Record<string, string> = {
      response_type: 'code',
      redirect_uri: request.redirectUri,
      state: request.state,
      code_challenge: request.codeChallenge,
      code_challenge_method: 'S256',
      consent_valid_till: String(request.consentValidTill),
    };
    if (request.docTypes?.length) params['req_doctype'] = request.docTypes.join(',');
    if (request.signup) params['dl_flow'] = 'signup';
    if (request.pinless) params['pla'] = 'Y';
    if (request.usernameless) params['plsignup'] = 'Y';
    if (request.verificationMethods?.length) params['amr'] = request.verificationMethods.join('+');
    if (request.verifiedMobile) params['verified_mobile'] = request.verifiedMobile;
    return oidc.buildAuthorizationUrl(this.config, params);
  }

  async exchangeCode(callbackQuery: URLSearchParams, expectedState: string, codeVerifier: string, redirectUri: string): Promise<LockerTokens> {
    // openid-client takes the redirect_uri for the token request from this URL: it must be the authorize one.
    const current = new URL(redirectUri);
    for (const [key, value] of callbackQuery) current.searchParams.append(key, value);
    return this.call(async () => tokensOf(await oidc.authorizationCodeGrant(this.config, current, { pkceCodeVerifier: codeVerifier, expectedState })));
  }

  refresh(refreshToken: string): Promise<LockerTokens> {
    return this.call(async () => tokensOf(await oidc.refreshTokenGrant(this.config, refreshToken)));
  }

  revoke(token: string, hint: 'access_token' | 'refresh_token'): Promise<void> {
    return this.call(() => oidc.tokenRevocation(this.config, token, { token_type_hint: hint }));
  }

  async person(accessToken: string): Promise<LockerPerson> {
    return parsePerson(await this.getJson(accessToken, this.paths.user));
  }

  async business(accessToken: string): Promise<LockerBusiness> {
    if (!this.paths.entity) throw new LockerError('failed', `The ${this.kind} locker has no entity details`);
    return parseBusiness(await this.getJson(accessToken, this.paths.entity));
  }

  async issuedFiles(accessToken: string): Promise<IssuedFileInfo[]> {
    return parseIssuedFiles(await this.getJson(accessToken, this.paths.issued));
  }

  async download(accessToken: string, file: IssuedFileInfo): Promise<DownloadedFile> {
    const response = await this.get(accessToken, this.downloadPath(file));
    const body = Buffer.from(await response.arrayBuffer());
    return { body, contentType: documentContentType(response.headers.get('content-type'), body, file.mime[0]) };
  }

  /**
   * The partner API's "Verify Account" (`POST /account/2/verify`, multipart form: `clientid`, `ts` in Unix
   * seconds, `hmac` = SHA-256 hex of client secret + client id + ts, and `uid` and/or `mobile`), answering
   * `{registered: "true" | "false", digilockerid}`. The Aadhaar number travels only in this request body: it is
   * never logged, and a failure's message names the endpoint, not the input.
   */
  async accountExists(query: AccountQuery): Promise<boolean> {
    const path = this.paths.accountVerify;
    if (!path) throw new LockerError('failed', `The ${this.kind} locker has no account check`);
    const ts = String(Math.floor(Date.now() / 1000));
    const form = new FormData();
    form.set('clientid', this.clientId);
    form.set('ts', ts);
    form.set('hmac', sha256Hex(`${this.clientSecret}${this.clientId}${ts}`));
    if (query.aadhaarNumber !== undefined) form.set('uid', query.aadhaarNumber);
    if (query.mobile !== undefined) form.set('mobile', query.mobile);
    // Let the platform write the multipart body and its boundary, then send the bytes over our transport.
    const encoded = new Request(`${this.base}${path}`, { method: 'POST', body: form });
    const body = Buffer.from(await encoded.arrayBuffer());
    const response = await this.call(() => this.transport(`${this.base}${path}`, {
      method: 'POST',
      headers: { 'content-type': encoded.headers.get('content-type') ?? 'multipart/form-data', accept: 'application/json' },
      body,
      signal: AbortSignal.timeout(this.timeoutMs),
    }));
    if (!response.ok) throw classifyLockerFailure(response, `The ${this.kind} locker answered ${path} with HTTP ${response.status}`);
    const answer = await this.call(() => response.json() as Promise<unknown>);
    const registered = (answer as { registered?: unknown } | null)?.registered;
    if (registered === true || registered === 'true') return true;
    if (registered === false || registered === 'false') return false;
    throw new LockerError('failed', `The ${this.kind} locker answered ${path} without a registered flag`, response.status);
  }

  /** e-Aadhaar comes from its own endpoint; XML certificates from the XML endpoint; anything else as a file. */
  private downloadPath(file: IssuedFileInfo): string {
    const uri = encodeURIComponent(file.uri);
    if (file.doctype === 'ADHAR' && this.paths.eaadhaar) return this.paths.eaadhaar;
    if (this.paths.xml && file.mime.includes('application/xml')) return `${this.paths.xml}${uri}`;
    return `${this.paths.file}${uri}`;
  }

  /**
   * A JSON resource read (person, entity, issued files: one per profile read, the hot path of a session), sent
   * straight through the keep-alive transport: a bearer GET is all openid-client's fetchProtectedResource does
   * without DPoP, and skipping it spares a `Headers`, an `AbortSignal`, a `Response` and its body stream per
   * read. Its whole-call timeout is the configuration's, as for openid-client's calls. Failures are classified as
   * before: a non-2xx answer by its status and Retry-After (classifyLockerFailure), a transport error by its
   * cause.
   */
  private async getJson(accessToken: string, path: string): Promise<unknown> {
    const answer = await this.call(() => this.transport.send(`${this.base}${path}`, {
      method: 'GET', headers: { authorization: `Bearer ${accessToken}`, 'user-agent': USER_AGENT },
    }, this.timeoutMs));
    if (answer.status < 200 || answer.status > 299) {
      const retryAfter = answer.headers['retry-after'];
      throw classifyLockerFailure(new Response(null, { status: answer.status, headers: retryAfter === undefined ? {} : { 'retry-after': retryAfter } }),
        `The ${this.kind} locker answered ${path} with HTTP ${answer.status}`);
    }
    try {
      // As Response.json() reads it: UTF-8, a byte order mark dropped.
      const text = answer.body.toString('utf8');
      return JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
    } catch (error) {
      throw new LockerError('failed', `The ${this.kind} locker answered ${path} with a body that is not JSON`, answer.status, { cause: error });
    }
  }

  private async get(accessToken: string, path: string): Promise<Response> {
    const response = await this.call(() => oidc.fetchProtectedResource(this.config, accessToken, new URL(`${this.base}${path}`), 'GET'));
    if (response.ok) return response;
    await response.body?.cancel();
    throw classifyLockerFailure(response, `The ${this.kind} locker answered ${path} with HTTP ${response.status}`);
  }

  private async call<T>(operation: () => Promise<T>): Promise<T> {
    try {
      return await operation();
    } catch (error) {
      throw classifyLockerFailure(error, `A ${this.kind} locker call failed`);
    }
  }
}

function tokensOf(response: oidc.TokenEndpointResponse & oidc.TokenEndpointResponseHelpers): LockerTokens {
  const mobile = (response as Record<string, unknown>)['mobile'];
  return {
    accessToken: response.access_token,
    refreshToken: response.refresh_token ?? null,
    expiresInSeconds: typeof response.expires_in === 'number' ? response.expires_in : null,
    mobile: typeof mobile === 'string' && /^\d{10}$/.test(mobile) ? mobile : typeof mobile === 'number' ? String(mobile) : null,
  };
}

/**
 * What a downloaded file is. The lockers send documents as `text/plain` (XML) or `application/octet-stream` (PDF)
 * as often as with their own type, so a generic type is replaced by what the bytes are, then by the listing's mime.
 */
function documentContentType(header: string | null, body: Buffer, listed: string | undefined): string {
  const declared = (header ?? '').split(';')[0]!.trim().toLowerCase();
  if (declared !== '' && declared !== 'text/plain' && declared !== 'application/octet-stream') return declared;
  const head = body.subarray(0, 8).toString('latin1');
  if (head.startsWith('%PDF')) return 'application/pdf';
  if (head.startsWith('\x89PNG')) return 'image/png';
  if (body[0] === 0xff && body[1] === 0xd8) return 'image/jpeg';
  if (/^(\ufeff|\xef\xbb\xbf)?\s*</.test(body.subarray(0, 64).toString('latin1'))) return 'application/xml';
  return listed?.toLowerCase() ?? (declared || 'application/octet-stream');
}
