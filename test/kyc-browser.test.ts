// The locker simulator's consent page in a real browser: Debian's Chromium, driven by playwright-core, with
// JavaScript switched off to prove the page needs none. The user clicks Allow; the browser follows the
// locker's redirect to our callback and ours to the merchant's redirect_url.
import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import { LOCKER_INDIVIDUALS } from '@satyapan/sandbox';
import { startKycStack, type KycStack } from '../packages/kyc/test/support/stack.js';
import { launchChromiumOrSkip } from './support/browser.js';

const REDIRECT = 'https://merchant.example/kyc/return';
const ROHAN = LOCKER_INDIVIDUALS[1]!;

describe('e2e: the consent page in headless Chromium', function () {
  this.timeout(60_000);
  let s: KycStack;
  let browser: Browser;

  before(async function () {
    browser = await launchChromiumOrSkip(this, 'the consent-page browser test');
    s = await startKycStack();
  });
  after(async () => {
    await browser?.close();
    await s?.close();
  });

  it('shows who is asking and for what, and Allow brings the user back with a succeeded session', async () => {
    const init = await s.api('POST', '/kyc/docvault/sessions/init', {
      '@entity': 'in.co.service.kyc.docvault.session.request', flow: 'signin', redirect_url: REDIRECT, doc_types: ['aadhaar', 'pan'],
    });
    const sessionId = init.body['data'].session_id as string;
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(init.body['data'].authorization_url);
    expect(await page.textContent('#client-name')).to.equal('Satyapan end-to-end test');
    expect(await page.locator('input[name="documents"]').count()).to.equal(2);
    await page.selectOption('#user', ROHAN.id);
    // The merchant's site is not on loopback: the browser is seen asking for it, and the request is let fail.
    const [merchant] = await Promise.all([
      page.waitForRequest((request) => request.url().startsWith('https://merchant.example/')),
      page.click('#allow').catch(() => undefined),
    ]);
    const chain: string[] = [];
    for (let r = merchant.redirectedFrom(); r; r = r.redirectedFrom()) chain.unshift(new URL(r.url()).pathname);
    expect(chain).to.deep.equal(['/docvault/public/oauth2/1/authorize', '/api/kyc/docvault/callback']);
    const back = new URL(merchant.url());
    expect(`${back.origin}${back.pathname}`).to.equal(REDIRECT);
    expect(Object.fromEntries(back.searchParams)).to.deep.equal({ session_id: sessionId, status: 'succeeded' });
    await context.close();

    const status = await s.api('GET', `/kyc/docvault/sessions/${sessionId}/status`);
    expect(status.body['data']).to.deep.include({ status: 'succeeded', documents_consented: ['aadhaar', 'pan'] });
    const profile = await s.api('GET', `/kyc/docvault/sessions/${sessionId}/user/profile`);
    expect(profile.body['data']).to.deep.include({ id: ROHAN.id, name: ROHAN.name, gender: 'male', eaadhaar: false });
    expect(profile.body['data']).not.to.have.property('email');
  });

  // Issue 24: on a phone (390 px wide) the entity locker's "Sign in as" choices ("<person> for <company>") made the
  // page scroll sideways, and the consent's expiry was shown in GMT to Indian users.
  for (const kind of ['docvault', 'entityvault'] as const) {
    it(`${kind}: fits a 390 px wide phone screen and shows the consent expiry in IST`, async () => {
      // Thirty days ahead, on a whole minute; the expected text is worked out by hand: IST is UTC+05:30, no DST.
      const expiry = Math.floor(s.clock.now() / 60_000) * 60 + 30 * 86_400;
      const init = await s.api('POST', `/kyc/${kind}/sessions/init`, {
        '@entity': `in.co.service.kyc.${kind}.session.request`, flow: 'signin', redirect_url: REDIRECT, consent_expiry: expiry,
        ...(kind === 'docvault' ? { doc_types: ['aadhaar', 'pan'] } : {}),
      });
      expect(init.status, JSON.stringify(init.body)).to.equal(200);
      const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 390, height: 844 }, isMobile: true, deviceScaleFactor: 3 });
      const page = await context.newPage();
      await page.goto(init.body['data'].authorization_url);
      const width = await page.evaluate('document.documentElement.scrollWidth') as number;
      const bodyWidth = await page.evaluate('document.body.scrollWidth') as number;
      expect(width, 'the page scrolls sideways').to.be.at.most(390);
      expect(bodyWidth, 'the body scrolls sideways').to.be.at.most(390);
      const select = await page.locator('#user').boundingBox();
      expect(select && select.x + select.width, '"Sign in as" ends inside the screen').to.be.at.most(390);
      expect(await page.textContent('#consent-expiry')).to.equal(`Consent valid until ${istText(expiry)}.`);
      await context.close();
    });
  }
});

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** `28 Nov 2026, 4:35 pm IST` for unix seconds, computed without Intl: UTC fields of the instant plus 5 h 30 min. */
function istText(unixSeconds: number): string {
  const ist = new Date((unixSeconds + 5.5 * 3600) * 1000);
  const hours = ist.getUTCHours();
  const hour12 = hours % 12 === 0 ? 12 : hours % 12;
  const minutes = String(ist.getUTCMinutes()).padStart(2, '0');
  return `${ist.getUTCDate()} ${MONTHS[ist.getUTCMonth()]} ${ist.getUTCFullYear()}, ${hour12}:${minutes} ${hours < 12 ? 'am' : 'pm'} IST`;
}
