import type { NextFunction, Request, Response } from 'express';

/**
 * Faults a test can switch on to see how callers cope with a struggling locker. They apply to the machine
 * endpoints (token, revoke, resources); `down` also takes the consent page away.
 */
export class LockerSwitches {
  rateLimited = false;
  down = false;
  /** Resource endpoints answer 500 server_error (the locker is up but broken). */
  failing = false;

  reset(): void {
    this.rateLimited = false;
    this.down = false;
    this.failing = false;
  }
}

const RETRY_AFTER_SECONDS = '30';

/** Refuses machine calls while a fault is on; `includeFailing` only for resource endpoints. */
export function faultGate(switches: LockerSwitches, includeFailing: boolean) {
  return (_req: Request, res: Response, next: NextFunction): void => {
    if (switches.down) {
      res.status(503).set('Retry-After', RETRY_AFTER_SECONDS)
        .json({ error: 'temporarily_unavailable', error_description: 'The locker is down for maintenance' });
      return;
    }
    if (switches.rateLimited) {
      res.status(429).set('Retry-After', RETRY_AFTER_SECONDS)
        .json({ error: 'too_many_requests', error_description: 'Rate limit exceeded, retry later' });
      return;
    }
    if (includeFailing && switches.failing) {
      res.status(500).json({ error: 'server_error', error_description: 'Unexpected error while serving the request' });
      return;
    }
    next();
  };
}
