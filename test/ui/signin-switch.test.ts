// Login CSRF and sign-out in a real Chromium against the real server: a page that navigates a signed-in
// scanner to `#signin=<another account's code>` does not switch it silently — the UI names both
// accounts and asks, and staying revokes the link's new token; signing out revokes the device's token.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInMessages } from '../../shared/index.ts';
import { launchChromium } from '../support/browser.ts';
import type { TestServer } from '../support/test-server.ts';
import { signedInPage, startUiServer } from '../support/ui-harness.ts';

const catalogue = {
  accounts: [
    {
      name: 'shop',
      warehouses_enabled: true,
      warehouses: [{ id: 8001, name: 'Main' }],
      items: [{ id: 81001, name: 'Mug', barcode: 'MUG-1', stock: [{ warehouse: 'Main', quantity: 5 }] }],
    },
    { name: 'other', warehouses_enabled: false, items: [{ id: 82001, name: 'Gum', barcode: 'GUM-1', stock: [{ quantity: 9 }] }] },
  ],
};

let browser: Browser;
let server: TestServer;

beforeAll(async () => {
  [browser, server] = await Promise.all([launchChromium(), startUiServer(catalogue)]);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** The tokens sign-in links made for an account, oldest first, and whether each is revoked. */
const linkTokens = async (account: string) =>
  (
    await server.probe.all<{ revoked_at: string | null }>(
      "SELECT t.revoked_at FROM api_tokens t JOIN accounts a ON a.id = t.account_id WHERE a.name = ? AND t.label = 'scanner UI (sign-in link)' ORDER BY t.id",
      account,
    )
  ).map((t) => (t.revoked_at === null ? 'active' : 'revoked'));

/** What a hostile page does: navigate the scanner's tab to a sign-in link of its own. */
async function openLink(page: Page, account: string): Promise<void> {
  const { code } = await server.store.signIn.createCode(account);
  await page.goto(`${server.url}/#signin=${code}`);
}

describe('a sign-in link for another account while signed in', () => {
  it('asks, naming both accounts, and stays on the current one unless told to switch', async () => {
    const { page } = await signedInPage(browser, server, 'shop');
    await openLink(page, 'other');
    const prompt = page.getByTestId('switch-account-prompt');
    await prompt.waitFor();
    expect(await prompt.locator('#switch-prompt-text').textContent()).toBe(signInMessages.switchQuestion('shop', 'other'));
    expect(await page.getByTestId('account').textContent()).toBe('shop');
    await page.getByTestId('switch-account-stay').click();
    await prompt.waitFor({ state: 'detached' });
    expect(await page.getByTestId('account').textContent()).toBe('shop');
    // The link's token was made when the code was exchanged; staying revokes it.
    await expect.poll(() => linkTokens('other')).toEqual(['revoked']);
    await page.context().close();
  });

  it('switches when told to, and revokes the token it leaves', async () => {
    const { page } = await signedInPage(browser, server, 'shop');
    const before = await linkTokens('shop');
    await openLink(page, 'other');
    await page.getByTestId('switch-account-confirm').click();
    await page.getByTestId('account').filter({ hasText: 'other' }).waitFor();
    await expect.poll(async () => (await linkTokens('shop')).at(-1)).toBe('revoked');
    expect((await linkTokens('shop')).length).toBe(before.length);
    expect((await linkTokens('other')).at(-1)).toBe('active');
    await page.context().close();
  });

  it('asks too when the page is loaded anew with the remembered token and a link', async () => {
    const { page } = await signedInPage(browser, server, 'shop');
    const { code } = await server.store.signIn.createCode('other');
    await page.goto('about:blank');
    await page.goto(`${server.url}/#signin=${code}`);
    await page.getByTestId('switch-account-prompt').waitFor();
    expect(await page.getByTestId('account').textContent()).toBe('shop');
    await page.context().close();
  });

  it('changes nothing for a link of the same account, and revokes the extra token', async () => {
    const { page } = await signedInPage(browser, server, 'shop');
    await openLink(page, 'shop');
    await expect.poll(async () => (await linkTokens('shop')).at(-1)).toBe('revoked');
    expect(await page.getByTestId('switch-account-prompt').count()).toBe(0);
    expect(await page.getByTestId('account').textContent()).toBe('shop');
    expect((await linkTokens('shop')).at(-2)).toBe('active'); // the device's own token
    await page.context().close();
  });
});

describe('signing out', () => {
  it("revokes the device's token on the server", async () => {
    const { page } = await signedInPage(browser, server, 'other');
    expect((await linkTokens('other')).at(-1)).toBe('active');
    await page.getByTestId('sign-out').click();
    await page.locator('#signin-input').waitFor();
    await expect.poll(async () => (await linkTokens('other')).at(-1)).toBe('revoked');
    await page.context().close();
  });
});
