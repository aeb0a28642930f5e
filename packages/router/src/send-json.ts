import { hash } from 'node:crypto';
import type { Request, Response } from 'express';
import { PreparedJson } from '@satyapan/core';

/**
 * `res.json(value)` for the common case, with the same bytes and headers (`Content-Type: application/json;
 * charset=utf-8`, `Content-Length`, the `ETag` Express's `etag` setting asks for) but without the trip through
 * `res.json` and `res.send`: one JSON.stringify, and the body handed to `res.end` as a string, which Node writes
 * together with the headers in one write (Express hands it a Buffer, written apart from the headers). Anything
 * out of the ordinary goes to `res.json` itself: the host's `json replacer` / `json spaces` / `json escape` or an
 * `etag` function of its own, a HEAD or conditional request (Express answers those 304 / without a body), a
 * status without a body, or a Content-Type, Transfer-Encoding or ETag a handler already set.
 * A `PreparedJson` value is written as its serialized text (its entity tag hashed once and kept on it); on the
 * out-of-the-ordinary path it is parsed back and handed to `res.json`, so the host's settings still apply.
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
    res.json(value instanceof PreparedJson ? JSON.parse(value.json) : value);
    return;
  }
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  if (value instanceof PreparedJson) {
    res.setHeader('Content-Length', String(value.byteLength));
    if (etag !== false) res.setHeader('ETag', weak ? `W/${value.entityTag ??= entityTag(value.json, value.byteLength)}` : value.entityTag ??= entityTag(value.json, value.byteLength));
    res.end(value.json);
    return;
  }
  const body = JSON.stringify(value);
  const length = Buffer.byteLength(body);
  res.setHeader('Content-Length', String(length));
  if (etag !== false) res.setHeader('ETag', weak ? `W/${entityTag(body, length)}` : entityTag(body, length));
  res.end(body);
}

/** The `etag` package's entity tag (without `W/`), as Express's default `etag fn` computes it over the body's UTF-8 bytes. */
function entityTag(body: string, length: number): string {
  return `"${length.toString(16)}-${hash('sha1', body, 'base64').substring(0, 27)}"`;
}
