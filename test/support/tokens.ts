/**
 * The access token of an `/authenticate` or `/authorize` answer. Any other status fails the test with what was
 * answered (a 429 lockout, a 401), instead of a token of `undefined` that fails later and far away.
 */
export async function accessTokenOf(response: Response): Promise<string> {
  const text = await response.text();
  if (response.status !== 200) throw new Error(`expected 200 with an access token, got ${response.status}: ${text.slice(0, 300)}`);
  const token = (JSON.parse(text) as { data?: { access_token?: unknown } }).data?.access_token;
  if (typeof token !== 'string') throw new Error(`no access_token in the answer: ${text.slice(0, 300)}`);
  return token;
}
