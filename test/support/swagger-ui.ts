// Swagger UI driven as a person does: the Authorize dialog, then Try-it-out (on from the start) of one operation.
import type { Page } from 'playwright-core';

/** Fills and applies the apiKey and apiSecret schemes of the Authorize dialog, then closes it. */
export async function authorizeWithKeyAndSecret(page: Page, key: string, secret: string): Promise<void> {
  await page.locator('.auth-wrapper .authorize').click();
  const dialog = page.locator('.dialog-ux');
  for (const [scheme, value] of [['apiKey', key], ['apiSecret', secret]] as const) {
    const container = dialog.locator('.auth-container', { has: page.locator('h4 code', { hasText: new RegExp(`^${scheme}$`) }) });
    await container.locator('input').fill(value);
    await container.locator('button.authorize').click();
    await container.getByRole('button', { name: 'Remove authorization' }).waitFor();
  }
  await dialog.locator('button.btn-done').first().click();
}

/** Opens the operation, presses Execute and returns the status and the request URL the page shows. */
export async function tryItOut(page: Page, tag: string, operationId: string): Promise<{ status: string; url: string }> {
  const block = page.locator(`#operations-${tag}-${operationId}`);
  await block.locator('.opblock-summary').first().click();
  await block.locator('.execute').click();
  const status = block.locator('.live-responses-table tbody .response-col_status').first();
  await status.waitFor({ timeout: 20_000 });
  return { status: (await status.innerText()).trim(), url: (await block.locator('.request-url pre').first().innerText()).trim() };
}
