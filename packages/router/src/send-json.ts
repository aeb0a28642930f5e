import { hash } from 'node:crypto';
import type { Request, Response } from 'express';

/**
 * `res.json(value)` for the common case, with the same bytes and headers (`Content-Type: application/json;
 * charset=utf-8`, `Content-Length`, the `ETag` Express's `etag` setting asks for) but without the trip through
 * `res.json` and `res.send`: one JSON.stringify, and the body handed to `res.end` as a string, which Node writes
 * together with the headers in one write (Express hands it a Buffer, written apart from the headers). Anything
 * out of the ordinary goes to `res.json` itself: the host's `json replacer` / `json spaces` / `json escape` or an
 * `etag` function of its own, a HEAD or conditional request (Express answers those 304 / without a body), a
 * status without a body, or a Content-Type, Transfer-Encoding or ETag a handler already set.
 */
export function sendJson(req: Request, res: Response, value: unknown): void {
  const app = res.app;
  const etag = app.get('etag') as unknown;
  const weak = etag === 'weak' || etag === true;
  if (!(weak || etag === 'strong' || etag === false)
    || app.get('json replacer') || app.get('json spaces') || app.get('json escape')
    || req.method === 'HEAD' || req.headers['if-none-match'] !== undefined || req.headers['if-modified-since'] !== undefined
    || res.statusCode === 204 || res.statusCode === 205 || res.statusCode === 304
    || res.hasHeader('content-type') || res.hasHeader('transfer-encoding') || res.hasHeader('etag')) {
    res.json(value);
    return;
  }
  const body = JSON.stringify(value);
  const length = Buffer.byteLength(body);
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', String(length));
  // The `etag` package's entity tag, as Express's default `etag fn` computes it over the body's UTF-8 bytes.
  if (etag !== false) res.setHeader('ETag', `${weak ? 'W/' : ''}"${length.toString(16)}-${hash('sha1', body, 'base64').substring(0, 27)}"`);
  res.end(body);
}
