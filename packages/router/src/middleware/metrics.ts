import type { Request, Response } from 'express';
import type { SatyapanMetrics } from '@satyapan/core';
import { stateOf } from './request-context.js';

type Observer = ReturnType<SatyapanMetrics['httpRequestDuration']['labels']>;
/** Express's matched route: one per mounted operation, so it names the operation by identity. */
interface MatchedRoute {
  path: string;
  methods: Record<string, boolean>;
}

/** Label of requests no route matched: their paths are the caller's to choose, never a label. */
const UNMATCHED = '(unmatched)';

/**
 * The methods a method label may take. Node accepts 34 methods (PROPFIND, MKCOL, ...), all of them the caller's
 * to choose on an unmatched path: any other is labelled `other`, so no caller can add series.
 */
const METHOD_LABELS = new Set(['get', 'post', 'put', 'patch', 'delete', 'head', 'options']);

/** The label of a request's method: one of {@link METHOD_LABELS}, else `other`. */
function methodLabel(method: string): string {
  const lower = method.toLowerCase();
  return METHOD_LABELS.has(lower) ? lower : 'other';
}

/**
 * Times every request by route pattern (`/bank/:ifsc/accounts/:account/verify`, below the mount point, never the
 * path, which carries account numbers and IFSCs), method and status. Series are looked up by the matched route
 * object and the status, so a request allocates nothing here beyond the finish listener and prom-client's
 * observe; the label objects are built once per (route, status).
 */
export function requestObserver(metrics: SatyapanMetrics): (res: Response) => void {
  const matched = new Map<MatchedRoute, Map<number, Observer>>();
  const unmatched = new Map<string, Map<number, Observer>>();

  function observerFor(req: Request, status: number): Observer {
    const route = req.route as MatchedRoute | undefined;
    const byStatus = route ? cached(matched, route) : cached(unmatched, methodLabel(req.method));
    let observer = byStatus.get(status);
    if (!observer) {
      const method = methodLabel(route ? (Object.keys(route.methods)[0] ?? req.method) : req.method);
      observer = metrics.httpRequestDuration.labels({ method, route: route ? route.path : UNMATCHED, status: String(status) });
      byStatus.set(status, observer);
    }
    return observer;
  }

  function record(this: Response): void {
    observerFor(this.req, this.statusCode).observe((performance.now() - stateOf(this).startedAt) / 1000);
  }

  return (res: Response) => {
    // `on`, not `once`: a response finishes once, and `once` would allocate a wrapper per request.
    res.on('finish', record);
  };
}

function cached<K>(maps: Map<K, Map<number, Observer>>, key: K): Map<number, Observer> {
  let byStatus = maps.get(key);
  if (!byStatus) {
    byStatus = new Map();
    maps.set(key, byStatus);
  }
  return byStatus;
}
