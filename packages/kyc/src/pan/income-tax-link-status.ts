import { serviceError, silentLogger, type Logger } from '@satyapan/core';
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
 * What the portal's message says, most specific first: "not linked" must be read before "is linked", and
 * "some other PAN" before either.
 */
const STATES: ReadonlyArray<[RegExp, PanAadhaarLinkState]> = [
  [/some other PAN|another PAN/i, 'linked_elsewhere'],
  [/PAN does not exist|PAN is (not valid|invalid)|invalid PAN/i, 'pan_not_found'],
  [/valid Aadhaar|Aadhaar (number )?(does not exist|is invalid)|invalid Aadhaar/i, 'invalid_aadhaar'],
  [/not linked/i, 'not_linked'],
  [/\blinked\b/i, 'linked'],
];

/**
 * The PAN-Aadhaar link status from the Income Tax Department's e-filing portal, the source of record: its
 * pre-login "Link Aadhaar Status" service (`POST {baseUrl}/iec/servicesapi/getEntity` with `{pan,
 * aadhaarNumber, preLoginFlag: "Y", serviceName: "linkAadhaarPreLoginService"}`), which answers `{messages:
 * [{code, type, desc}]}`. It needs no credentials; it is the public service behind the portal's own page, not a
 * contracted API, so its wording can change: a message this adapter does not recognise is 503 `Source
 * Unavailable` (logged with the portal's code, never its text, which can carry the PAN), not a guess.
 */
export class IncomeTaxLinkStatusProvider implements PanAadhaarLinkProvider {
  readonly name = 'income_tax_portal';
  private readonly upstream: JsonUpstream;
  private readonly logger: Logger;

  constructor(options: IncomeTaxLinkStatusOptions) {
    this.logger = options.logger ?? silentLogger();
    this.upstream = new JsonUpstream(options.baseUrl.replace(/\/+$/, ''), options.timeoutMs ?? 10_000, this.name, this.logger);
  }

  async linkStatus(request: PanAadhaarLinkRequest): Promise<PanAadhaarLinkOutcome> {
    const answer = await this.upstream.post(PATH, {}, {
      pan: request.pan, aadhaarNumber: request.aadhaarNumber, preLoginFlag: 'Y', serviceName: 'linkAadhaarPreLoginService',
    });
    const first = Array.isArray(answer.body['messages']) ? (answer.body['messages'] as unknown[])[0] : undefined;
    const entry = (typeof first === 'object' && first !== null ? first : {}) as Record<string, unknown>;
    const code = str(entry['code']) ?? '';
    // The portal answers its business outcomes with 200 and, for some, 400 with an ERROR message.
    if (answer.status !== 200 && !(answer.status === 400 && str(entry['desc']))) throw this.upstream.failure(answer, code);
    const desc = str(entry['desc']) ?? '';
    const state = STATES.find(([pattern]) => pattern.test(desc))?.[1];
    if (!state) {
      this.logger.error('PAN-Aadhaar link source answered an unknown message', { provider: this.name, provider_code: code || 'none', status: answer.status });
      throw serviceError('SOURCE_UNAVAILABLE');
    }
    const outcome: PanAadhaarLinkOutcome = { providerCode: code || state, definitive: true, state };
    if (state === 'linked') {
      const lastFour = /(\d{4})\D*$/.exec(desc)?.[1];
      outcome.aadhaarLastFour = lastFour ?? request.aadhaarNumber.slice(-4);
    }
    return outcome;
  }

  close(): void {
    this.upstream.close();
  }
}
