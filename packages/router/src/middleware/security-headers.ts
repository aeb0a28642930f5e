import type { Request, Response } from 'express';
import helmet from 'helmet';

/**
 * helmet's default headers, computed once: with its default options every header is a constant (no CSP
 * directive is a function of the request), yet helmet runs a dozen functions per request to set them. This
 * runs helmet once against a recording response at start and replays what it did. If a future helmet ever
 * calls back asynchronously or reads the response, the recording is refused (undefined) and helmet itself runs
 * per request (`requestFront`).
 */
export function constantSecurityHeaders(): ((res: Response) => void) | undefined {
  const set: [string, string | number | readonly string[]][] = [];
  const removed: string[] = [];
  let finished = false;
  const recorder = {
    setHeader: (name: string, value: string | number | readonly string[]) => void set.push([name, value]),
    removeHeader: (name: string) => void removed.push(name),
  };
  helmet()({} as Request, recorder as unknown as Response, (error?: unknown) => { finished = error === undefined; });
  if (!finished) return undefined;
  return (res: Response) => {
    for (const [name, value] of set) res.setHeader(name, value);
    for (const name of removed) res.removeHeader(name);
  };
}
