import type { IncomingHttpHeaders } from 'node:http';
import { Pool, type Dispatcher } from 'undici';

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
 * A fetch over undici's connection pools (one per origin, connections kept alive), for calls to upstreams
 * (openid-client's locker calls, the PAN and penny-less providers). Requests go through undici's dispatcher
 * interface: no streams, no WHATWG objects, a handful of callbacks per call. Measured against the same upstream,
 * a call costs about 18 µs of CPU this way, 42 µs through node:http with a keep-alive agent, and more through the
 * global fetch; every profile, entity or document read makes at least one upstream call, so the difference shows
 * in the router's throughput (BENCHMARKS.md, kyc). Bodies are small JSON, XML or PDF documents: they are
 * buffered. Failures reject with the socket's errors (ECONNREFUSED, ...; undici's own carry `UND_ERR_*` codes)
 * or the signal's AbortError/TimeoutError; pass `AbortSignal.timeout(ms)` as the signal for a whole-call timeout.
 */
export function keepAliveFetch(maxSockets = 128): KeepAliveFetch {
  const pools = new Map<string, Pool>();
  const poolFor = (origin: string): Pool => {
    let pool = pools.get(origin);
    if (!pool) {
      pool = new Pool(origin, { connections: maxSockets });
      pools.set(origin, pool);
    }
    return pool;
  };
  const send = (url: string, request: FetchRequest, timeoutMs?: number): Promise<BufferedAnswer> => new Promise((resolve, reject) => {
    const target = new URL(url);
    if (target.protocol !== 'http:' && target.protocol !== 'https:') throw new TypeError(`keepAliveFetch only calls http(s) URLs, got ${target.protocol}`);
    const body = encodeBody(request.body);
    const call = new BufferingCall(resolve, reject);
    if (request.signal) call.follow(request.signal);
    if (timeoutMs !== undefined) call.timeOutAfter(timeoutMs);
    if (call.settled) return;
    poolFor(target.origin).dispatch({
      path: `${target.pathname}${target.search}`, method: request.method as Dispatcher.HttpMethod, headers: request.headers, body,
    }, call);
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
      // A later call opens a new pool, as a destroyed agent's next request opened a new socket.
      for (const pool of pools.values()) void pool.destroy().catch(() => undefined);
      pools.clear();
    },
  });
}

/**
 * One call's handler for undici's dispatcher: collects the answer and settles once, whichever comes first of
 * the answer's end, an error, the whole-call timer and the caller's signal. A timeout or an abort before undici
 * has started the request is remembered and aborts it as soon as it starts.
 */
class BufferingCall implements Dispatcher.DispatchHandler {
  settled = false;
  private controller: Dispatcher.DispatchController | undefined;
  private abortedWith: Error | undefined;
  private status = 0;
  private statusText = '';
  private headers: IncomingHttpHeaders = {};
  private readonly chunks: Buffer[] = [];
  private timer: NodeJS.Timeout | undefined;
  private signal: AbortSignal | undefined;

  constructor(private readonly resolve: (answer: BufferedAnswer) => void, private readonly reject: (error: unknown) => void) {}

  follow(signal: AbortSignal): void {
    if (signal.aborted) return this.abort(abortReason(signal));
    this.signal = signal;
    signal.addEventListener('abort', this.onAbort, { once: true });
  }

  timeOutAfter(ms: number): void {
    this.timer = setTimeout(() => this.abort(new DOMException(`The upstream call took longer than ${ms} ms`, 'TimeoutError')), ms);
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    if (this.abortedWith) controller.abort(this.abortedWith);
  }

  onResponseStart(_controller: Dispatcher.DispatchController, statusCode: number, headers: IncomingHttpHeaders, statusMessage?: string): void {
    this.status = statusCode;
    this.statusText = statusMessage ?? '';
    this.headers = nodeHeaders(headers);
  }

  onResponseData(_controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.chunks.push(chunk);
  }

  onResponseEnd(): void {
    const { chunks } = this;
    this.settle(() => this.resolve({
      status: this.status, statusText: this.statusText, headers: this.headers,
      body: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks),
    }));
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    this.settle(() => this.reject(this.abortedWith ?? error));
  }

  private readonly onAbort = (): void => this.abort(abortReason(this.signal!));

  private abort(reason: Error): void {
    if (this.settled) return;
    this.abortedWith = reason;
    this.controller?.abort(reason);
    this.settle(() => this.reject(reason));
  }

  private settle(outcome: () => void): void {
    if (this.settled) return;
    this.settled = true;
    if (this.timer) clearTimeout(this.timer);
    this.signal?.removeEventListener('abort', this.onAbort);
    outcome();
  }
}

function abortReason(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new DOMException('The operation was aborted', 'AbortError');
}

/**
 * Headers as Node's IncomingMessage gives them: undici makes an array of any repeated header, Node only of
 * `set-cookie` and joins the others with ", " (what readers of `retry-after` or `content-type` expect).
 */
function nodeHeaders(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  for (const name in headers) {
    const value = headers[name];
    if (Array.isArray(value) && name !== 'set-cookie') headers[name] = value.join(', ');
  }
  return headers;
}

function encodeBody(body: unknown): Buffer | null {
  if (body === undefined || body === null) return null;
  if (typeof body === 'string') return Buffer.from(body);
  if (body instanceof URLSearchParams) return Buffer.from(body.toString());
  if (body instanceof Uint8Array) return Buffer.from(body);
  if (body instanceof ArrayBuffer) return Buffer.from(body);
  throw new TypeError('keepAliveFetch only sends string, form or byte bodies');
}
