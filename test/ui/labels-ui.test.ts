// Print labels in the scanner UI, in a real Chromium against the real server: the PDF the page
// downloads is rasterised by poppler's pdftoppm (installed with apt-get when missing) and read back by
// an independent decoder (ZXing), so a label printed from the UI is proven to scan. Also: a new item
// for goods without a barcode, with a code of the shop's own, printed the same way; the label panel at
// 1280 and 360 px saved into $SCANNER_SHOTS_DIR.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/browser.ts';
import { decodeImage, pdfPages } from '../support/barcode-decoder.ts';
import { type TestServer, exampleCatalogue } from '../support/test-server.ts';
import { signedInPage, startUiServer } from '../support/ui-harness.ts';

const shotsDir = process.env.SCANNER_SHOTS_DIR ?? path.join(tmpdir(), 'scanner-shots');
let dir: string;
let browser: Browser;
let server: TestServer;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'bi-labels-ui-'));
  const catalogue = exampleCatalogue() as { accounts: { items: unknown[] }[] };
  catalogue.accounts[0]!.items.push({ id: 150, name: 'Coffee mug', barcode: '4006381333931', stock: [{ warehouse: 'Main', quantity: 2 }] });
  [browser, server] = await Promise.all([launchChromium(), startUiServer(catalogue)]);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Clicks `button`, takes the PDF the page downloads, and decodes every barcode on its pages. */
async function printedCodes(page: Page, button: string): Promise<string[]> {
  const panel = page.locator('[data-testid="print-labels"]:visible');
  if ((await panel.getAttribute('open')) === null) await panel.locator('summary').click();
  const [download] = await Promise.all([page.waitForEvent('download'), page.locator(`[data-testid="${button}"]:visible`).click()]);
  expect(download.suggestedFilename()).toBe('labels.pdf');
  const file = path.join(mkdtempSync(path.join(dir, 'pdf-')), 'labels.pdf');
  await download.saveAs(file);
  const pages = await pdfPages(file, 300);
  return (await Promise.all(pages.map(decodeImage))).flat().map((found) => found.text);
}

describe('Print labels in the scanner UI', () => {
  it('prints the looked-up barcodes, and the PDF scans back', async () => {
    const { page, keys } = await signedInPage(browser, server, 'north');
    for (const barcode of ['4006381333931', '8690000000017']) {
      await keys.scan(barcode);
      await page.locator(`[data-testid="lookups"] [data-barcode="${barcode}"]`).waitFor();
    }
    expect((await printedCodes(page, 'print-labels-button')).sort()).toEqual(['4006381333931', '8690000000017']);
    await expect.poll(() => page.locator('[data-testid="label-message"]:visible').textContent()).toContain('labels.pdf');
    await page.context().close();
  }, 60_000);

  it('adds an item without a barcode with a code of the shop’s own, and prints its label', async () => {
    const { page } = await signedInPage(browser, server, 'north');
    await page.locator('[data-testid="print-labels"]:visible summary').click();
    await page.getByTestId('new-item-name').fill('Rice, loose');
    expect(await printedCodes(page, 'make-code-button')).toEqual(['2000000000015']);
    await expect
      .poll(() => page.locator('[data-testid="label-message"]:visible').textContent())
      .toBe('Added "Rice, loose" with the code 2000000000015; its label is in labels.pdf.');
    await page.context().close();
  }, 60_000);

  it('shows the label panel at 1280 and 360 px without widening the page', async () => {
    mkdirSync(shotsDir, { recursive: true });
    for (const width of [1280, 360]) {
      const { page, keys } = await signedInPage(browser, server, 'north', { width, height: 860 });
      await keys.scan('4006381333931');
      await page.locator('[data-testid="lookups"] [data-barcode="4006381333931"]').waitFor();
      await page.locator('[data-testid="print-labels"]:visible summary').click();
      await page.screenshot({ path: path.join(shotsDir, `labels-${width}.png`), fullPage: true });
      const wide = await page.evaluate(() =>
        [...document.querySelectorAll('body *')]
          .filter((element) => element.getBoundingClientRect().right > window.innerWidth + 0.5)
          .map((element) => element.tagName),
      );
      expect(wide, `wider than ${width} px`).toEqual([]);
      await page.context().close();
    }
  }, 60_000);
});
