// Screenshots of every view made from the shipped example catalogue (examples/catalogue.json), at a
// shop PC's 1280 px and a phone's 390 px: docs/screenshot-scanning.png for the README and
// docs/screenshot-sync.png for docs/UI.md (written when missing or with UPDATE_DOCS_SCREENSHOTS=1, so
// a test run leaves the checkout as it found it: their bytes differ a little on every run), and the whole set in $SCANNER_SHOTS_DIR (default:
// <tmp>/scanner-shots) for a person to look at. Each view is also checked not to scroll sideways, the
// complaint that made the set necessary. The sync views come from a laptop linked to a till
// (test/support/linked-ui.ts): the indicator in each state, and the conflicts view.
import { existsSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVENTORY_PATH, STOCKTAKES_PATH, stocktakePath } from '../../shared/index.ts';
import { launchChromium } from '../support/browser.ts';
import { type LinkedPair, startLinkedPair } from '../support/linked-ui.ts';
import { call } from '../support/stocktake-fixtures.ts';
import { type TestServer, exampleCatalogue } from '../support/test-server.ts';
import { signedInPage, startUiServer, openSettings, fullPageShot } from '../support/ui-harness.ts';
import { inRepo } from '../support/paths.ts';

const shotsDir = process.env.SCANNER_SHOTS_DIR ?? path.join(tmpdir(), 'scanner-shots');
const readmeShot = inRepo('docs', 'screenshot-scanning.png');
const syncShot = inRepo('docs', 'screenshot-sync.png');

let browser: Browser;
let server: TestServer;
let stocktakeId: number;

beforeAll(async () => {
  [browser, server] = await Promise.all([launchChromium(), startUiServer(exampleCatalogue())]);
  mkdirSync(shotsDir, { recursive: true });
  // A stocktake of Main with a count, a difference and an unknown barcode, made through the API.
  const token = server.tokens.north!;
  stocktakeId = (await call(server, 'POST', STOCKTAKES_PATH, token, { name: 'Shelf A', warehouse_name: 'Main' }, 201)).id;
  for (const barcode of ['8690000000017', '8690000000017', '8690000000017', '8690000000024', '2000000000015']) {
    await call(server, 'POST', stocktakePath(stocktakeId, 'scans'), token, { barcode }, 201);
  }
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const widths = [1280, 390] as const;

/** Saves a full-page picture of what `page` shows and checks it does not scroll sideways. */
async function shoot(page: Page, name: string, width: number): Promise<void> {
  expect(await fullPageShot(page, path.join(shotsDir, `${name}-${width}.png`)), `${name} at ${width} px scrolls sideways`).toBe(0);
}

describe.each(widths)('views at %i px', (width) => {
  const open = async () => {
    const opened = await signedInPage(browser, server, 'north', { width, height: width === 390 ? 844 : 860 });
    return opened;
  };

  it('scanning (Look up): two known items and an unknown barcode', async () => {
    const { page, keys } = await open();
    // One after another, so the banner always ends on the last one and the picture is the same each run.
    for (const [barcode, state] of [
      ['4000000000006', 'unknown'],
      ['8690000000024', 'found'],
      ['8690000000017', 'found'],
    ] as const) {
      await keys.scan(barcode);
      await expect.poll(() => page.locator(`[data-testid="lookups"] [data-barcode="${barcode}"]`).getAttribute('data-state')).toBe(state);
    }
    await expect.poll(() => page.getByTestId('banner').textContent()).toBe('Mug: 5 in Main');
    await shoot(page, 'scanning', width);
    if (width === 1280 && (!existsSync(readmeShot) || process.env.UPDATE_DOCS_SCREENSHOTS))
      await page.screenshot({ path: readmeShot, animations: 'disabled' });
    await page.context().close();
  });

  it('set stock: an item found, the quantity typed, one saved before', async () => {
    const { page, keys } = await open();
    await keys.press('F3');
    await keys.scan('8690000000024');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('quantity');
    await keys.type('4');
    await keys.press('Enter');
    await page.locator('[data-testid="outcomes"] li[data-state="saved"]').waitFor();
    await keys.scan('8690000000017');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('quantity');
    await keys.type('7');
    // The quantity field is on screen without scrolling, also on a phone.
    const box = await page.locator('#quantity').boundingBox();
    expect(box!.y + box!.height).toBeLessThanOrEqual(page.viewportSize()!.height);
    await shoot(page, 'set', width);
    await page.context().close();
  });

  it('list: counted rows with the stock they will set, an unknown row held back', async () => {
    const { page, keys } = await open();
    await keys.press('F4');
    for (const barcode of ['8690000000017', '8690000000017', '8690000000024', '4000000000006']) await keys.scan(barcode);
    await page.locator('tr[data-barcode="4000000000006"][data-state="unknown"]').waitFor();
    await expect.poll(() => page.locator('tr[data-barcode="8690000000024"] .row-name strong').textContent()).toBe('T-shirt / S');
    await shoot(page, 'list', width);
    await page.context().close();
  });

  it('settings: the scanner test after a scan of its barcode', async () => {
    const { page, keys } = await open();
    await openSettings(page);
    await page.getByTestId('start-scanner-test').click();
    await keys.scan('Yz-Qa/Mi.07', { gapMs: 2 });
    await page.getByTestId('scanner-test-result').waitFor();
    await shoot(page, 'settings', width);
    await page.context().close();
  });

  it('stocktake: the sessions, the count and the review', async () => {
    const { page } = await open();
    await page.getByTestId('stocktake-nav').click();
    await page.locator(`[data-testid="stocktake-row"][data-id="${stocktakeId}"]`).waitFor();
    await shoot(page, 'stocktake-list', width);
    await page.goto(`${server.url}/#stocktake/${stocktakeId}`);
    await page.locator('[data-testid="line"][data-barcode="8690000000017"][data-counted="3"]').waitFor();
    await page.getByTestId('unknown-line').first().waitFor();
    await shoot(page, 'stocktake-count', width);
    await page.getByTestId('review-button').click();
    await page.getByTestId('unresolved-warning').waitFor();
    // The T-shirt was set to 4 in Set stock after it was counted: the review says the commit keeps that.
    expect(
      await page.locator('[data-testid="review-line"][data-barcode="8690000000024"] [data-testid="review-line-result"]').textContent(),
    ).toBe('Set again after the count: the commit leaves 4');
    await shoot(page, 'stocktake-review', width);
    await page.context().close();
  });
});

describe.each(widths)('sync views at %i px', (width) => {
  let pair: LinkedPair;
  beforeAll(async () => {
    pair = await startLinkedPair();
  });
  afterAll(async () => {
    await pair?.stop();
  });
  const state = (page: Page, selector: string) => page.locator(`[data-testid="sync-indicator"]${selector}`).waitFor();
  const setMug = (on: 'laptop' | 'till', quantity: number, reference: string) => {
    const server = on === 'laptop' ? pair.laptop.server : pair.till;
    const token = on === 'laptop' ? pair.laptop.token : pair.till.tokens.north!;
    return call(server, 'POST', INVENTORY_PATH, token, [{ barcode: '8690000000017', quantity, warehouse_name: 'Main', reference }]);
  };

  it('the indicator in each state, and the conflicts view', async () => {
    const { page, keys } = await signedInPage(browser, pair.laptop.server, 'north', { width, height: width === 390 ? 844 : 860 });
    await keys.scan('8690000000017');
    await page.locator('[data-testid="lookups"] [data-state="found"]').waitFor();
    await state(page, '[data-state="in_sync"][data-pending="0"]');
    await shoot(page, 'sync-in-sync', width);

    pair.proxy.cutNow();
    await setMug('laptop', 4, 'shelf recount');
    await state(page, '[data-state="offline"][data-pending="1"]');
    await shoot(page, 'sync-offline', width);

    const push = pair.holdNextPush();
    await setMug('till', 9, 'office');
    pair.proxy.heal();
    await state(page, '[data-state="waiting"][data-pending="1"]');
    await shoot(page, 'sync-waiting', width);
    push.release();

    await state(page, '[data-state="in_sync"][data-conflicts="1"]');
    await shoot(page, 'sync-conflict', width);

    await page.getByTestId('sync-indicator').click();
    await page.locator('[data-testid="conflict"][data-resolved="false"]').waitFor();
    await shoot(page, 'sync-view', width);
    // Its address and times differ on every run: docs/ gets it when missing or when asked, not on every test run.
    if (width === 1280 && (!existsSync(syncShot) || process.env.UPDATE_DOCS_SCREENSHOTS))
      await page.screenshot({ path: syncShot, animations: 'disabled' });
    await page.context().close();
  });
});

describe.each(widths)('the clock warning at %i px', (width) => {
  let pair: LinkedPair;
  beforeAll(async () => {
    pair = await startLinkedPair({ tillClockAheadMs: 7 * 60_000 });
  });
  afterAll(async () => {
    await pair?.stop();
  });

  it('the indicator and the Sync view when the upstream’s clock is 7 minutes ahead', async () => {
    const { page } = await signedInPage(browser, pair.laptop.server, 'north', { width, height: width === 390 ? 844 : 860 });
    await page.locator('[data-testid="sync-indicator"][data-state="in_sync"]').filter({ hasText: 'Check the clock' }).waitFor();
    await shoot(page, 'sync-clock', width);
    await page.getByTestId('sync-indicator').click();
    await page.getByTestId('clock-warning').waitFor();
    await shoot(page, 'sync-clock-view', width);
    await page.context().close();
  });
});
