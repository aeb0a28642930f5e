import express, { type NextFunction, type Request, type RequestHandler, type Response, type Router } from 'express';
import { findEntityByUser, findIndividual, type LockerEntity, type LockerUser } from './fixtures.js';
import type { AuthorizationState, Grant, LockerKind } from './authorization-state.js';
import { entityDocuments, individualDocuments, type LockerDocument } from './documents.js';
import { faultGate, type LockerSwitches } from './switches.js';
import { accountDetails, oauthError } from './oauth-routes.js';

/** The protected resources of a locker, reached with `Authorization: Bearer <access token>`. */

interface Authorized {
  grant: Grant;
}

export function docvaultResources(state: AuthorizationState, switches: LockerSwitches, count: (name: string) => void): Router {
  const router = express.Router();
  const guard: RequestHandler[] = [faultGate(switches, true), bearer(state, 'docvault')];
  const userOf = (res: Response): LockerUser => findIndividual(grantOf(res).userId) as LockerUser;
  const documentsOf = (res: Response): LockerDocument[] => consented(grantOf(res), individualDocuments(userOf(res)));

  router.get(['/oauth2/1/user', '/oauth2/3/user'], guard, (_req: Request, res: Response) => {
    count('user');
    res.json(accountDetails(userOf(res)));
  });
  router.get(['/oauth2/2/files/issued', '/oauth2/1/files/issued'], guard, (_req: Request, res: Response) => {
    count('files');
    res.json({ items: documentsOf(res).map((d) => d.listing), resource: 'issued' });
  });
  router.get(['/oauth2/1/file/:uri', '/oauth2/1/xml/:uri'], guard, (req: Request, res: Response) => {
    count('file');
    sendDocument(res, documentsOf(res).find((d) => d.listing.uri === req.params['uri']));
  });
  router.get(['/oauth2/2/xml/eaadhaar', '/oauth2/3/xml/eaadhaar'], guard, (_req: Request, res: Response) => {
    count('eaadhaar');
    const aadhaar = documentsOf(res).find((d) => d.listing.doctype === 'ADHAR');
    if (!aadhaar) return void oauthError(res, 404, 'aadhaar_not_linked', 'Aadhaar is not linked to the account');
    sendDocument(res, aadhaar);
  });
  return router;
}

export function entityvaultResources(state: AuthorizationState, switches: LockerSwitches, count: (name: string) => void): Router {
  const router = express.Router();
  const guard: RequestHandler[] = [faultGate(switches, true), bearer(state, 'entityvault')];
  const entityOf = (res: Response): LockerEntity => findEntityByUser(grantOf(res).userId) as LockerEntity;
  const documentsOf = (res: Response): LockerDocument[] => consented(grantOf(res), entityDocuments(entityOf(res)));

  router.get('/oauth2/1/entity', guard, (_req: Request, res: Response) => {
    count('entity');
    res.json(entityFields(entityOf(res)));
  });
  router.get('/oauth2/1/user', guard, (_req: Request, res: Response) => {
    count('user');
    res.json(accountDetails(entityOf(res).user));
  });
  router.get(['/oauth2/2/entity/files/issued', '/oauth2/1/entity/files/issued'], guard, (_req: Request, res: Response) => {
    count('files');
    res.json({ items: documentsOf(res).map((d) => d.listing), resource: 'issued' });
  });
  router.get('/oauth2/1/entity/file/:uri', guard, (req: Request, res: Response) => {
    count('file');
    sendDocument(res, documentsOf(res).find((d) => d.listing.uri === req.params['uri']));
  });
  return router;
}

/**
 * Entity details as the entity locker returns them (the public entity-locker SDK's answers): `doi` as DD-MM-YYYY,
 * `verified_by` upper case.
 */
export function entityFields(entity: LockerEntity): Record<string, string> {
  const doi = entity.incorporatedOn;
  return {
    entitylockerid: entity.id, name: entity.name, doi: `${doi.slice(0, 2)}-${doi.slice(2, 4)}-${doi.slice(4)}`, email: entity.email,
    mobile: entity.mobile, verified_by: entity.verifiedBy.toUpperCase(), cin: entity.cin, gstin: entity.gstin,
  };
}

/** Only documents the user agreed to share are visible through the grant. */
function consented(grant: Grant, documents: LockerDocument[]): LockerDocument[] {
  return documents.filter((d) => grant.documents.includes(d.listing.doctype));
}

/** Documents go out as the lockers send them in practice: XML as `text/plain`, anything else as `application/octet-stream`. */
function sendDocument(res: Response, document: LockerDocument | undefined): void {
  if (!document) return void oauthError(res, 404, 'invalid_uri', 'No file found for given URI');
  const wireType = /xml/i.test(document.contentType) ? 'text/plain' : 'application/octet-stream';
  res.status(200).set('Content-Type', wireType).set('Content-Disposition', `attachment; filename="${document.listing.uri}"`)
    .send(document.body);
}

function bearer(state: AuthorizationState, kind: LockerKind) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const header = req.get('authorization') ?? '';
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    const grant = match?.[1] ? state.grantOf(kind, match[1]) : null;
    if (!grant) return void oauthError(res, 401, 'invalid_token', 'The access token is invalid, expired or has been revoked');
    (res.locals as Authorized).grant = grant;
    next();
  };
}

function grantOf(res: Response): Grant {
  return (res.locals as Authorized).grant;
}
