import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { serviceError, type FsStorage, type SignedMethod } from '@satyapan/core';

/**
 * Endpoints behind FsStorage's signed URLs, for `router.use('/storage', ...)`. They need no Authorization or
 * x-api-key: the URL's signature is the credential. Mounted before the JSON body parser, because uploads are
 * streamed to disk as they come. A handler on the plain prefix (not a wildcard pattern, not a router of its own)
 * behaves the same on Express 4 and 5, and costs other requests one prefix test.
 */
export function storageHandler(storage: FsStorage): RequestHandler {
  return (req, res, next) => {
    if (req.method === 'PUT') void upload(storage, req, res).catch(next);
    else if (req.method === 'GET' || req.method === 'HEAD') void download(storage, req, res, next).catch(next);
    else next();
  };
}

/** The object key is the path below `/storage`, each segment URL-decoded; FsStorage refuses unsafe keys. */
function grantFor(storage: FsStorage, method: SignedMethod, req: Request) {
  let key: string;
  try {
    key = req.path.replace(/^\/+/, '').split('/').map(decodeURIComponent).join('/');
  } catch {
    throw serviceError('INVALID_SIGNATURE');
  }
  return storage.verifySignedUrl(method, key, req.query as Record<string, unknown>);
}

async function upload(storage: FsStorage, req: Request, res: Response): Promise<void> {
  const grant = grantFor(storage, 'PUT', req);
  const declared = Number(req.headers['content-length']);
  if (grant.maxBytes !== null && Number.isFinite(declared) && declared > grant.maxBytes) {
    throw serviceError('PAYLOAD_TOO_LARGE', `${grant.maxBytes} bytes`);
  }
  await storage.receiveUpload(grant, req);
  // S3 answers a successful PUT with 200 and an empty body; clients written for S3 expect exactly that.
  res.status(200).end();
}

async function download(storage: FsStorage, req: Request, res: Response, next: NextFunction): Promise<void> {
  const grant = grantFor(storage, 'GET', req);
  const info = await storage.head(grant.key);
  if (!info) throw serviceError('OBJECT_NOT_FOUND');
  res.setHeader('content-type', info.contentType ?? 'application/octet-stream');
  res.setHeader('content-length', String(info.size));
  res.setHeader('cache-control', 'private, no-store');
  if (grant.downloadName) res.setHeader('content-disposition', `attachment; filename="${grant.downloadName.replace(/"/g, '')}"`);
  const stream = await storage.get(grant.key);
  stream.on('error', next);
  stream.pipe(res);
}
