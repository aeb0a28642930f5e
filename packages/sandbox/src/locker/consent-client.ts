/** What the person at the consent page chooses. */
export interface ConsentAnswer {
  /** Locker user id to sign in as. */
  user: string;
  decision?: 'allow' | 'deny';
  /** Document types to share (five-letter locker codes). */
  documents?: readonly string[];
}

/**
 * Answers the consent page behind an authorization URL the way a browser without JavaScript does: the form's
 * hidden fields (request id, CSRF token) and the page's cookie go back with the decision. Resolves with the
 * locker's answer to the decision (a 302 to the client's redirect URI when it was accepted).
 */
export async function answerConsentPage(authorizationUrl: string, answer: ConsentAnswer): Promise<Response> {
  const page = await fetch(authorizationUrl);
  const html = await page.text();
  const fields = hiddenFields(html);
  const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
  if (!fields['request_id'] || !action) throw new Error(`No consent form (HTTP ${page.status}): ${html.slice(0, 300)}`);
  const form = new URLSearchParams({ ...fields, user: answer.user, decision: answer.decision ?? 'allow' });
  for (const type of answer.documents ?? []) form.append('documents', type);
  const cookie = page.headers.getSetCookie().map((line) => line.split(';')[0]).join('; ');
  return fetch(new URL(action, authorizationUrl), { method: 'POST', body: form, headers: cookie ? { cookie } : {}, redirect: 'manual' });
}

function hiddenFields(html: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const match of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) fields[match[1]!] = match[2]!;
  return fields;
}
