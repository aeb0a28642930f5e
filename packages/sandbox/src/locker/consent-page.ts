/**
 * The locker's consent page as plain server-rendered HTML: one form, Allow and Deny submit buttons, no script,
 * so it works in any browser (and in a test that only speaks HTTP).
 */
import type { LockerDocType } from './fixtures.js';

export interface ConsentChoice {
  value: string;
  label: string;
}

export interface ConsentPageModel {
  lockerName: string;
  clientName: string;
  requestId: string;
  /** Echoed with the decision; also in a cookie, which a cross-site form post does not carry. */
  csrfToken: string;
  /** Where the form posts (the authorize endpoint itself). */
  action: string;
  people: ConsentChoice[];
  documents: Array<{ type: LockerDocType; label: string }>;
  /** Unix seconds; null when the client did not limit the consent. */
  consentValidTill: number | null;
  signup: boolean;
  verifiedMobile: string | null;
}

// Fits a 390 px phone: a fieldset's default min-width is its content's (a long "<person> for <company>" option
// pushed the page sideways), so fieldsets may shrink, the select takes the fieldset's width, long words wrap,
// and small screens get less padding.
const STYLE = `
  *, *::before, *::after { box-sizing: border-box; }
  body { font-family: system-ui, sans-serif; background: #f4f6f8; margin: 0; padding: 2rem; color: #1d2630; }
  main { max-width: 34rem; margin: 0 auto; background: #fff; border-radius: 8px; padding: 1.5rem 2rem;
         box-shadow: 0 1px 4px rgba(0,0,0,.12); overflow-wrap: anywhere; }
  h1 { font-size: 1.3rem; margin-top: 0; }
  .who { font-weight: 600; }
  fieldset { border: 1px solid #d5dbe1; border-radius: 6px; margin: 1rem 0; min-width: 0; }
  select { width: 100%; max-width: 100%; font-size: 1rem; padding: .3rem; }
  label { display: block; margin: .35rem 0; }
  .buttons { display: flex; flex-wrap: wrap; gap: 1rem; margin-top: 1.5rem; }
  button { font-size: 1rem; padding: .6rem 1.6rem; border-radius: 6px; border: 1px solid #1f6feb; cursor: pointer; }
  button[value=allow] { background: #1f6feb; color: #fff; }
  button[value=deny] { background: #fff; color: #1f6feb; }
  .note { color: #57606a; font-size: .9rem; }
  @media (max-width: 30rem) {
    body { padding: .75rem; }
    main { padding: 1rem; }
    fieldset { margin: .75rem 0; padding: .5rem .75rem; }
  }
`;

/** The parts of `28 Nov 2026, 4:35 pm IST` (Indian English, Asia/Kolkata); built from parts so ICU's spacing or case cannot change it. */
const IST_PARTS = new Intl.DateTimeFormat('en-IN', {
  timeZone: 'Asia/Kolkata', day: 'numeric', month: 'short', year: 'numeric', hour: 'numeric', minute: '2-digit', hour12: true,
});

/** Unix seconds as India reads them: `28 Nov 2026, 4:35 pm IST` (the consent's users are in India; GMT misled them). */
export function formatIst(unixSeconds: number): string {
  const part = Object.fromEntries(IST_PARTS.formatToParts(new Date(unixSeconds * 1000)).map((p) => [p.type, p.value]));
  return `${part['day']} ${part['month']} ${part['year']}, ${part['hour']}:${part['minute']} ${(part['dayPeriod'] ?? '').toLowerCase()} IST`;
}

export function renderConsentPage(model: ConsentPageModel): string {
  const people = model.people
    .map((p, i) => `<option value="${escapeHtml(p.value)}"${i === 0 ? ' selected' : ''}>${escapeHtml(p.label)}</option>`)
    .join('');
  const documents = model.documents
    .map((d) => `<label><input type="checkbox" name="documents" value="${d.type}" checked> ${escapeHtml(d.label)}</label>`)
    .join('\n');
  const validity = model.consentValidTill === null
    ? ''
    : `<p class="note" id="consent-expiry">Consent valid until ${escapeHtml(formatIst(model.consentValidTill))}.</p>`;
  const signup = model.signup ? '<p class="note">New account sign-up requested (simulated: the account below is used).</p>' : '';
  const mobile = model.verifiedMobile ? `<p class="note">Mobile number already verified by the requester: ${escapeHtml(maskMobile(model.verifiedMobile))}</p>` : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(model.lockerName)}: consent</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<h1>${escapeHtml(model.lockerName)} (simulator)</h1>
<p><span class="who" id="client-name">${escapeHtml(model.clientName)}</span> is asking to access documents in your locker.</p>
${signup}${mobile}
<form method="post" action="${escapeHtml(model.action)}">
<input type="hidden" name="request_id" value="${escapeHtml(model.requestId)}">
<input type="hidden" name="csrf_token" value="${escapeHtml(model.csrfToken)}">
<fieldset>
<legend>Sign in as</legend>
<select name="user" id="user">${people}</select>
</fieldset>
<fieldset>
<legend>Documents to share</legend>
${documents}
</fieldset>
${validity}
<div class="buttons">
<button type="submit" name="decision" value="allow" id="allow">Allow</button>
<button type="submit" name="decision" value="deny" id="deny">Deny</button>
</div>
</form>
</main>
</body>
</html>
`;
}

export function renderErrorPage(lockerName: string, message: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(lockerName)}: error</title><style>${STYLE}</style></head>
<body><main><h1>${escapeHtml(lockerName)} (simulator)</h1><p id="error">${escapeHtml(message)}</p></main></body></html>
`;
}

function maskMobile(mobile: string): string {
  return mobile.length > 4 ? `${'x'.repeat(mobile.length - 4)}${mobile.slice(-4)}` : mobile;
}

export function escapeHtml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&#39;' })[c] as string);
}
