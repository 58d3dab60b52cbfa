// The scanner UI by role (docs/UI.md, "Roles"), in a real Chromium at a shop PC's 1280 px and a
// phone's 360 px: the account's title and the settings say the role; a counter sees no stock history, no stocktake start,
// review or commit, and no conflicts to decide, and never meets a 403 doing the day's work; a
// manager sees all of it; a till's token does not sign in at all, and a device whose token was given
// such a role is signed out at its next start. axe stays clean on a counter's views
// (test/ui/accessibility.test.ts runs it there).
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIGNIN_ROLES, STOCKTAKES_PATH, roleMessages } from '../../shared/index.ts';
import { launchChromium } from '../support/browser.ts';
import { call } from '../support/stocktake-fixtures.ts';
import { type TestServer, exampleCatalogue } from '../support/test-server.ts';
import { signedInPage, startUiServer, openSettings } from '../support/ui-harness.ts';

let browser: Browser;
let server: TestServer;
let sessionId: number;

beforeAll(async () => {
  [browser, server] = await Promise.all([launchChromium(), startUiServer(exampleCatalogue())]);
  // A session a manager started, for the counters to count into.
  sessionId = (
    await call<{ id: number }>(server, 'POST', STOCKTAKES_PATH, server.tokens.north!, { name: 'Shelf A', warehouse_name: 'Main' }, 201)
  ).id;
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** Every answer of the API the page got with status 403, as `METHOD path`. */
function refusals(page: Page): string[] {
  const refused: string[] = [];
  page.on('response', (response) => {
    if (response.status() === 403) refused.push(`${response.request().method()} ${new URL(response.url()).pathname}`);
  });
  return refused;
}

describe.each([1280, 360])('roles in the scanner UI at %i px', (width) => {
  const viewport = { width, height: 800 };

  it("shows a counter the day's counting work and leaves out the history, starting, review and conflicts", async () => {
    const { page, keys } = await signedInPage(browser, server, 'north', viewport, 'counter');
    const refused = refusals(page);
    expect(await page.getByTestId('account').getAttribute('title')).toBe('Signed in as: Counter');
    await openSettings(page); // at 360 px behind the top bar's menu
    expect(await page.getByTestId('role-setting').textContent()).toBe('Signed in as: Counter');
    await page.getByTestId('settings-button').click();

    // Look up: the quantities, and no History (everyone's changes are a manager's to read).
    await keys.scan('8690000000017');
    const card = page.locator('[data-testid="lookups"] [data-barcode="8690000000017"][data-state="found"]');
    await card.waitFor();
    expect(await card.getByText('History').count()).toBe(0);

    // Stocktakes: the sessions a manager started, to count into; no start form, no review.
    await page.getByTestId('stocktake-nav').click();
    await page.getByTestId('manager-starts').waitFor();
    expect(await page.getByTestId('new-stocktake').isVisible()).toBe(false);
    const row = page.locator(`[data-testid="stocktake-row"][data-id="${sessionId}"]`);
    await row.waitFor();
    expect(await row.getByRole('link', { name: 'Review' }).count()).toBe(0);
    await row.getByRole('link', { name: 'Count' }).click();
    await page.getByTestId('count-view').waitFor();
    await keys.scan('8690000000017');
    await page.locator('[data-testid="line"][data-barcode="8690000000017"]').waitFor();
    await page.locator('[data-testid="pending"][data-pending="0"]').waitFor();
    expect(await page.getByTestId('review-button').count()).toBe(0);
    expect(
      await page
        .locator('[data-testid="line"]')
        .getByRole('button', { name: /History/ })
        .count(),
    ).toBe(0);

    // Sync: the link's status, and who decides conflicts.
    await page.goto(`${server.url}/#sync`);
    await page.getByTestId('manager-decides').waitFor();
    expect(await page.getByTestId('conflicts').count()).toBe(0);

    expect(refused).toEqual([]);
    await page.context().close();
  });

  it('shows a manager all of it', async () => {
    const { page, keys } = await signedInPage(browser, server, 'north', viewport);
    const refused = refusals(page);
    expect(await page.getByTestId('account').getAttribute('title')).toBe('Signed in as: Manager');
    await keys.scan('8690000000017');
    await page.locator('[data-testid="lookups"] [data-barcode="8690000000017"]').getByText('History').waitFor();
    await page.getByTestId('stocktake-nav').click();
    await page.getByTestId('new-stocktake').waitFor();
    expect(await page.getByTestId('manager-starts').count()).toBe(0);
    await page.locator(`[data-testid="stocktake-row"][data-id="${sessionId}"]`).getByRole('link', { name: 'Review' }).waitFor();
    await page.goto(`${server.url}/#sync`);
    await page.getByTestId('conflicts').waitFor();
    expect(refused).toEqual([]);
    await page.context().close();
  });
});

describe('tokens without a scanner UI', () => {
  it("refuses a till's token at sign-in and keeps nothing of it", async () => {
    const context = await browser.newContext({ viewport: { width: 360, height: 800 } });
    context.setDefaultTimeout(10_000);
    const page = await context.newPage();
    await page.goto(`${server.url}/`);
    await page.locator('#signin-input').fill(await server.newToken('north', 'till'));
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.locator('.signin-error').waitFor();
    expect(await page.locator('.signin-error').textContent()).toBe(roleMessages.noScannerUi('till', SIGNIN_ROLES));
    expect(await page.evaluate(() => localStorage.getItem('barcode-inventory.token'))).toBeNull();
    await context.close();
  });

  it('signs a device out at its next start once its token was given a role without a scanner UI', async () => {
    const { page } = await signedInPage(browser, server, 'north', { width: 1280, height: 800 }, 'counter');
    const key = (await page.evaluate(() => localStorage.getItem('barcode-inventory.token')))!;
    const token = (await server.store.tokens.list('north')).find((t) => key.startsWith(t.prefix) && t.role === 'counter')!;
    expect(await server.store.tokens.setRole(token.id, 'till')).toBe(true);
    await page.reload();
    await page.locator('.signin-error').waitFor();
    expect(await page.locator('.signin-error').textContent()).toBe(roleMessages.noScannerUi('till', SIGNIN_ROLES));
    expect(await page.evaluate(() => localStorage.getItem('barcode-inventory.token'))).toBeNull();
    await page.context().close();
  });
});
