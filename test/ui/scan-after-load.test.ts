// The first scan after a page load, many times over, in a real Chromium: keys typed while the page
// is still starting (before the app listens) are kept by renderer/public/early-keys.js and handed to
// the scan capture, so the scan arrives whole, in the scanner and in a stocktake's count view. Keys
// sent while the new page has not even started its scripts cannot be seen by any page; such a scan
// is refused with "scan it again", never taken cut short. However long the app takes to start, a scan
// made meanwhile is kept; one made on the sign-in screen is not.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_PATH, STOCKTAKES_PATH, stocktakePath } from '../../shared/index.ts';
import { launchChromium } from '../support/browser.ts';
import { call } from '../support/stocktake-fixtures.ts';
import { type TestServer, exampleCatalogue } from '../support/test-server.ts';
import { startUiServer, virtualKeyboard } from '../support/ui-harness.ts';

const LOADS = 20;
const BARCODE = '8690000000017';

let browser: Browser;
let server: TestServer;

beforeAll(async () => {
  [browser, server] = await Promise.all([launchChromium(), startUiServer(exampleCatalogue())]);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** A fresh device already signed in as north (its token stored), as after a restart of the app. */
async function device(): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  await context.addInitScript((token) => localStorage.setItem('barcode-inventory.token', token), server.tokens.north!);
  return { context, page: await context.newPage() };
}

describe('the first scan after a page load', () => {
  it(`arrives whole in the scanner, ${LOADS} fresh loads out of ${LOADS}`, async () => {
    const seen: string[] = [];
    for (let i = 0; i < LOADS; i++) {
      const { context, page } = await device();
      const keys = await virtualKeyboard(page, { anchored: true });
      // Right after the load event: the app is still signing in and has not mounted its capture.
      await page.goto(`${server.url}/`, { waitUntil: i % 2 === 0 ? 'load' : 'domcontentloaded' });
      await keys.scan(BARCODE);
      const card = page.locator('[data-testid="lookups"] .card').first();
      await expect.poll(() => card.getAttribute('data-state'), { timeout: 10_000 }).toBe('found');
      seen.push(
        ...(await page.locator('[data-testid="lookups"] .card').evaluateAll((cards) => cards.map((c) => c.getAttribute('data-barcode')!))),
      );
      await context.close();
    }
    expect(seen).toEqual(Array.from({ length: LOADS }, () => BARCODE));
  }, 120_000);

  it('arrives whole in a stocktake count view opened by a reload: nothing lands in the unknown queue', async () => {
    const { id } = await call(server, 'POST', STOCKTAKES_PATH, server.tokens.north!, { warehouse_name: 'Main', name: 'After load' }, 201);
    const loads = 8;
    for (let i = 0; i < loads; i++) {
      const { context, page } = await device();
      const keys = await virtualKeyboard(page, { anchored: true });
      await page.goto(`${server.url}/#stocktake/${id}`, { waitUntil: 'load' });
      await keys.scan(BARCODE);
      await page.locator(`[data-testid="line"][data-barcode="${BARCODE}"][data-counted="${i + 1}"]`).waitFor({ timeout: 10_000 });
      await page.locator('[data-testid="pending"][data-pending="0"]').waitFor();
      await context.close();
    }
    const lines = await call(server, 'GET', stocktakePath(id, 'lines'), server.tokens.north!);
    expect(lines).toEqual([expect.objectContaining({ barcode: BARCODE, known: true, counted: loads })]);
  }, 60_000);

  it('made while the app starts slowly (its sign-in check takes 4.5 s): kept, and taken when it is ready', async () => {
    // An old shop PC or a cold Electron start: the app shows the scanner seconds after the page loaded.
    const { context, page } = await device();
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(`**${ACCOUNT_PATH}`, async (route) => {
      await held;
      await route.continue();
    });
    const keys = await virtualKeyboard(page, { anchored: true });
    await page.goto(`${server.url}/`, { waitUntil: 'load' });
    await keys.scan(BARCODE);
    await new Promise((resolve) => setTimeout(resolve, 4500));
    release();
    const card = page.locator('[data-testid="lookups"] .card').first();
    await expect.poll(() => card.getAttribute('data-state'), { timeout: 10_000 }).toBe('found');
    expect(
      await page.locator('[data-testid="lookups"] .card').evaluateAll((cards) => cards.map((c) => c.getAttribute('data-barcode'))),
    ).toEqual([BARCODE]);
    await context.close();
  }, 60_000);

  it('made on the sign-in screen: not taken by the scanner that comes after signing in', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    const page = await context.newPage();
    const keys = await virtualKeyboard(page, { anchored: true });
    await page.goto(`${server.url}/`, { waitUntil: 'load' });
    await page.locator('#signin-input').waitFor();
    await keys.scan(BARCODE); // nothing focused: the keys are kept, as while the app starts
    await page.locator('#signin-input').fill(server.tokens.north!);
    await page.locator('#signin-input').press('Enter');
    await page.locator('.scanner[data-ready="true"]').waitFor();
    await keys.scan('4006381333931'); // the capture listens: the next scan is the first card
    await page.locator('[data-testid="lookups"] .card').first().waitFor();
    expect(
      await page.locator('[data-testid="lookups"] .card').evaluateAll((cards) => cards.map((c) => c.getAttribute('data-barcode'))),
    ).toEqual(['4006381333931']);
    await context.close();
  }, 60_000);

  it('sent before the page could listen at all: refused or not seen, never taken cut short', async () => {
    const outcomes: string[] = [];
    for (let i = 0; i < 10; i++) {
      const { context, page } = await device();
      const keys = await virtualKeyboard(page, { anchored: true });
      await page.goto(`${server.url}/`, { waitUntil: 'commit' });
      await keys.scan(BARCODE);
      await page.locator('.scanner[data-ready="true"]').waitFor();
      // Give the app a moment to answer whatever reached it.
      await page.waitForFunction(() => document.querySelector('[data-testid="banner"]')?.getAttribute('data-tone') !== 'busy');
      await page.waitForTimeout(300);
      const cards = await page
        .locator('[data-testid="lookups"] .card')
        .evaluateAll((all) => all.map((c) => c.getAttribute('data-barcode')));
      const text = (await page.getByTestId('banner').textContent()) ?? '';
      outcomes.push(cards.length > 0 ? `scan ${cards.join(',')}` : text.includes('scan it again') ? 'refused' : 'not seen');
      await context.close();
    }
    for (const outcome of outcomes) expect(['scan 8690000000017', 'refused', 'not seen']).toContain(outcome);
  }, 60_000);
});
