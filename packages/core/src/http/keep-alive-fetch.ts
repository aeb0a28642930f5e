import http from 'node:http';
import https from 'node:https';
import type { IncomingHttpHeaders } from 'node:http';

/** A fetch request: what openid-client hands to a custom fetch (its `customFetch`), and what our adapters send. */
export interface FetchRequest {
  method: string;
  headers: Record<string, string>;
  body?: unknown;
  signal?: AbortSignal;
}

/** An upstream's answer as {@link KeepAliveFetch.send} gives it: status, Node's header object and the whole body. */
export interface BufferedAnswer {
  status: number;
  statusText: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export type KeepAliveFetch = ((url: string, request: FetchRequest) => Promise<Response>) & {
  /**
   * The same call without the WHATWG objects (`Headers`, `Response` and its body stream, an `AbortSignal` per
   * call), for hot paths that read a small body at once: the answer, buffered. `timeoutMs` bounds the whole call;
   * past it the call fails with a `TimeoutError`, as `AbortSignal.timeout` would.
   */
  send(url: string, request: Omit<FetchRequest, 'signal'>, timeoutMs?: number): Promise<BufferedAnswer>;
  close(): void;
};

const NO_BODY = new Set([204, 205, 304]);

/**
 * A fetch on node:http(s) with keep-alive agents, for calls to upstreams (openid-client's locker calls, the
 * bank verification providers). Node's global fetch (undici) costs about twice as much CPU per call; every
 * profile, entity or document read makes at least one upstream call, so the difference shows in the router's
 * throughput. Bodies are small JSON, XML or PDF documents: they are buffered. Failures reject with Node's
 * errors (ECONNREFUSED, ...) or the signal's AbortError/TimeoutError; pass `AbortSignal.timeout(ms)` as the
 * signal for a whole-call timeout.
 */
export function keepAliveFetch(maxSockets = 128): KeepAliveFetch {
  const agents = {
    'http:': new http.Agent({ keepAlive: true, maxSockets }),
    'https:': new https.Agent({ keepAlive: true, maxSockets }),
  };
  const send = (url: string, request: FetchRequest, timeoutMs?: number): Promise<BufferedAnswer> => new Promise((resolve, reject) => {
    const target = new URL(url);
    const protocol = target.protocol as keyof typeof agents;
    const transport = protocol === 'https:' ? https : http;
    const body = encodeBody(request.body);
    let timer: NodeJS.Timeout | undefined;
    const fail = (error: unknown): void => {
      if (timer) clearTimeout(timer);
      reject(error);
    };
    const outgoing = transport.request(target, {
      method: request.method,
      headers: body === null ? request.headers : { ...request.headers, 'content-length': String(body.length) },
      agent: agents[protocol],
      ...(request.signal ? { signal: request.signal } : {}),
    }, (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('error', fail);
      incoming.on('end', () => {
        if (timer) clearTimeout(timer);
        const status = incoming.statusCode ?? 502;
        resolve({ status, statusText: incoming.statusMessage ?? '', headers: incoming.headers, body: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks) });
      });
    });
    outgoing.on('error', fail);
    if (timeoutMs !== undefined) {
      timer = setTimeout(() => outgoing.destroy(new DOMException(`The upstream call took longer than ${timeoutMs} ms`, 'TimeoutError')), timeoutMs);
    }
    outgoing.end(body ?? undefined);
  });
  const fetch = async (url: string, request: FetchRequest): Promise<Response> => {
    const answer = await send(url, request);
    const headers = new Headers();
    for (const [name, value] of Object.entries(answer.headers)) {
      if (Array.isArray(value)) for (const item of value) headers.append(name, item);
      else if (value !== undefined) headers.set(name, value);
    }
    const payload = NO_BODY.has(answer.status) || request.method === 'HEAD' ? null : answer.body;
    return new Response(payload, { status: answer.status, statusText: answer.statusText, headers });
  };
  return Object.assign(fetch, {
    send,
    close(): void {
      agents['http:'].destroy();
      agents['https:'].destroy();
    },
  });
}

function encodeBody(body: unknown): Buffer | null {
  if (body === undefined || body === null) return null;
  if (typeof body === 'string') return Buffer.from(body);
  if (body instanceof URLSearchParams) return Buffer.from(body.toString());
  if (body instanceof Uint8Array) return Buffer.from(body);
  if (body instanceof ArrayBuffer) return Buffer.from(body);
  throw new TypeError('keepAliveFetch only sends string, form or byte bodies');
}
