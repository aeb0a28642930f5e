import { requireHttpUrl, serviceError, silentLogger, type Logger } from '@satyapan/core';
import { JsonUpstream, str } from './http.js';
import type { PanAadhaarLinkOutcome, PanAadhaarLinkProvider, PanAadhaarLinkRequest, PanAadhaarLinkState } from './port.js';

export interface IncomeTaxLinkStatusOptions {
  /** https://eportal.incometax.gov.in (the e-filing portal), or the simulator's URL. */
  baseUrl: string;
  /** Whole-call timeout; default 10 s. */
  timeoutMs?: number;
  logger?: Logger;
}

const PATH = '/iec/servicesapi/getEntity';

/**
 * The portal's message codes, as public callers of the service read them (the india-compliance Frappe app's
 * `error_code_desc_map`, resilient-tech/india-compliance `india_compliance/gst_india/doctype/pan/pan.py`; the
 * tests' fixtures/income-tax-portal): EF40124 the PAN is linked to the Aadhaar number sent ("Your PAN CUXXXXXX3Q
 * is already linked to given Aadhaar 75XXXXXXXX32": both masked, two digits each side), EF40026 linked to some
 * other Aadhaar number, EF40024 not linked, EF40089 no such PAN, EF40077 not a valid Aadhaar number.
 */
const CODES: Readonly<Record<string, PanAadhaarLinkState>> = {
  EF40124: 'linked',
  EF40026: 'pan_linked_elsewhere',
  EF40024: 'not_linked',
  EF40089: 'pan_not_found',
  EF40077: 'invalid_aadhaar',
};

/** EF40119: the PAN is not an individual's (the service checks the PAN's 4th character first; this is the portal's word on it). */
const NOT_AN_INDIVIDUAL = 'EF40119';

/** The one answer no public caller names a code for: the Aadhaar number is linked to some other PAN (read by its words). */
const AADHAAR_LINKED_ELSEWHERE = /Aadhaar Number.*linked to some other PAN/i;

/**
 * The PAN-Aadhaar link status from the Income Tax Department's e-filing portal, the source of record: its
 * pre-login "Link Aadhaar Status" service (`POST {baseUrl}/iec/servicesapi/getEntity` with `{pan,
 * aadhaarNumber, preLoginFlag: "Y", serviceName: "linkAadhaarPreLoginService"}`), which answers `{messages:
 * [{code, type, desc}]}`. It needs no credentials; it is the public service behind the portal's own page, not a
 * contracted API, so its wording can change: the answer is read by its code (above), and a code this adapter
 * does not know (an inactive PAN, a new message) is 503 `Source Unavailable`, logged with the portal's code,
 * never its text (which can carry the PAN), not a guess.
 */
export class IncomeTaxLinkStatusProvider implements PanAadhaarLinkProvider {
  readonly name = 'income_tax_portal';
  private readonly upstream: JsonUpstream;
  private readonly logger: Logger;

  constructor(options: IncomeTaxLinkStatusOptions) {
    this.logger = options.logger ?? silentLogger();
    this.upstream = new JsonUpstream(requireHttpUrl('IncomeTaxLinkStatusProvider', 'baseUrl', options.baseUrl).href.replace(/\/+$/, ''), options.timeoutMs ?? 10_000, this.name, this.logger);
  }

  async linkStatus(request: PanAadhaarLinkRequest): Promise<PanAadhaarLinkOutcome> {
    const answer = await this.upstream.post(PATH, {}, {
      pan: request.pan, aadhaarNumber: request.aadhaarNumber, preLoginFlag: 'Y', serviceName: 'linkAadhaarPreLoginService',
    });
    const first = Array.isArray(answer.body['messages']) ? (answer.body['messages'] as unknown[])[0] : undefined;
    const entry = (typeof first === 'object' && first !== null ? first : {}) as Record<string, unknown>;
    const code = str(entry['code']) ?? '';
    const desc = str(entry['desc']) ?? '';
    // The portal answers its business outcomes with 200 and, for some, 400 with an ERROR message.
    if (answer.status !== 200 && !(answer.status === 400 && (code !== '' || desc !== ''))) throw this.upstream.failure(answer, code);
    if (code === NOT_AN_INDIVIDUAL) throw serviceError('INDIVIDUAL_PAN_REQUIRED');
    const state = CODES[code] ?? (AADHAAR_LINKED_ELSEWHERE.test(desc) ? 'linked_elsewhere' : undefined);
    if (!state) {
      this.logger.error('PAN-Aadhaar link source answered an unknown message', { provider: this.name, provider_code: code || 'none', status: answer.status });
      throw serviceError('SOURCE_UNAVAILABLE');
    }
    const outcome: PanAadhaarLinkOutcome = { providerCode: code || state, definitive: true, state };
    // "Linked to given Aadhaar": the number sent; the portal shows only two digits of it.
    if (state === 'linked') outcome.aadhaarLastFour = request.aadhaarNumber.slice(-4);
    return outcome;
  }

  close(): void {
    this.upstream.close();
  }
}
