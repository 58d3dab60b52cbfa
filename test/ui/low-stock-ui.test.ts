// Reorder points and the low-stock list in the scanner UI (docs/REORDER.md), in a real Chromium
// against the real server: a manager scans a barcode, types its minimum and target on the stock card
// and saves (the server holds them); the card marks it low; the low-stock view lists it with what to
// order, one warehouse or all, and downloads the CSV; a counter sees the mark but no form; the card's
// history draws the stock over time. The card (with its chart) and
// the view at 1280 and 360 px are saved into $SCANNER_SHOTS_DIR, do not widen the page, and axe-core
// finds nothing serious in them.
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REORDER_POINTS_PATH } from '../../shared/index.ts';
import { launchChromium } from '../support/browser.ts';
import { type TestServer, exampleCatalogue } from '../support/test-server.ts';
import { fullPageShot, signedInPage, startUiServer } from '../support/ui-harness.ts';

const shotsDir = process.env.SCANNER_SHOTS_DIR ?? path.join(tmpdir(), 'scanner-shots');
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const MUG = '8690000000017';
const SHIRT = '8690000000024';

let browser: Browser;
let server: TestServer;

beforeAll(async () => {
  [browser, server] = await Promise.all([launchChromium(), startUiServer(exampleCatalogue())]);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function seriousViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run: (
            context: Document,
            options: object,
          ) => Promise<{ violations: { id: string; impact: string | null; nodes: { target: string[] }[] }[] }>;
        };
      }
    ).axe;
    return (await axe.run(document, { resultTypes: ['violations'] })).violations;
  });
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}) at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

const card = (page: Page, barcode: string) => page.locator(`[data-testid="lookups"] [data-barcode="${barcode}"]`).first();

async function setMinimum(page: Page, barcode: string, minimum: string, target: string): Promise<void> {
  const form = card(page, barcode).getByTestId('reorder-form');
  await form.getByTestId('reorder-minimum').fill(minimum);
  await form.getByTestId('reorder-target').fill(target);
  await form.getByTestId('reorder-minimum').press('Enter');
}

describe('reorder points and the low-stock list in the scanner UI', () => {
  it('sets a minimum by scan and typing, marks the card low, and lists it with what to order', async () => {
    const { page, keys } = await signedInPage(browser, server, 'north');
    await keys.scan(MUG);
    await expect.poll(() => card(page, MUG).getAttribute('data-state')).toBe('found');
    // A target below the minimum is refused on the page, and nothing is sent.
    await setMinimum(page, MUG, '6', '2');
    await expect.poll(() => card(page, MUG).getByTestId('reorder-message').textContent()).toBe('Order up to at least the minimum.');
    await setMinimum(page, MUG, '6', '20');
    await expect.poll(() => card(page, MUG).getByTestId('reorder-message').textContent()).toBe('Saved: low at 6 or less.');
    const main = card(page, MUG).locator('.qty-list li[data-warehouse="Main"] [data-testid="reorder-mark"]');
    await expect.poll(() => main.getAttribute('data-low')).toBe('true');
    expect(await main.textContent()).toBe('Low minimum 6');
    expect(await card(page, MUG).getAttribute('data-low')).toBe('true');
    // The server holds what was typed.
    const held = await server.request('GET', `${REORDER_POINTS_PATH}?barcodes=${MUG}`, { token: server.tokens.north });
    expect((await held.json()).results).toMatchObject([{ warehouse_name: 'Main', minimum: 6, target: 20, quantity: 5, low: true }]);
    // A shirt above its minimum: the minimum shows, no low mark.
    await keys.scan(SHIRT);
    await expect.poll(() => card(page, SHIRT).getAttribute('data-state')).toBe('found');
    await setMinimum(page, SHIRT, '1', '');
    const shirtMark = card(page, SHIRT).locator('[data-testid="reorder-mark"]');
    await expect.poll(() => shirtMark.getAttribute('data-low')).toBe('false');
    expect(await card(page, SHIRT).getAttribute('data-low')).toBe('false');

    await page.getByTestId('low-stock-link').click();
    expect(await page.getByTestId('low-stock-nav').getAttribute('aria-current')).toBe('page');
    const rows = page.locator('[data-testid="low-stock-table"] tbody tr');
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.first().getAttribute('data-barcode')).toBe(MUG);
    expect(await rows.first().getByTestId('suggested-order').textContent()).toBe('15');
    // Backroom has nothing low; all warehouses again shows the mug.
    await page.getByTestId('low-stock-warehouse').selectOption({ label: 'Backroom' });
    await page.getByTestId('nothing-low').waitFor();
    await page.getByTestId('low-stock-warehouse').selectOption({ label: 'All warehouses' });
    await expect.poll(() => rows.count()).toBe(1);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('low-stock-csv').click()]);
    expect(download.suggestedFilename()).toBe('low-stock.csv');
    const csv = readFileSync((await download.path())!, 'utf8')
      .trim()
      .split('\n');
    expect(csv).toEqual([
      'barcode,item_id,item_name,variant_id,variant_name,warehouse,quantity,minimum,target,suggested_order,sold_30_days',
      `${MUG},100,Mug,,,Main,5,6,20,15,0`,
    ]);
    await page.context().close();
  }, 60_000);

  it("shows a counter the low mark, but not the manager's form", async () => {
    const { page, keys } = await signedInPage(browser, server, 'north', undefined, 'counter');
    await keys.scan(MUG);
    const mark = card(page, MUG).locator('[data-testid="reorder-mark"][data-low="true"]');
    await mark.waitFor();
    expect(await card(page, MUG).getByTestId('reorder-form').count()).toBe(0);
    await page.context().close();
  }, 60_000);

  it("draws the mug's stock over time in its history: a point per movement, the table for screen readers, the periods", async () => {
    const { page, keys } = await signedInPage(browser, server, 'north');
    await keys.scan(MUG);
    await expect.poll(() => card(page, MUG).getAttribute('data-state')).toBe('found');
    await card(page, MUG).locator('[data-testid="stock-history"] summary').click();
    const chart = card(page, MUG).getByTestId('stock-chart');
    // The import's two quantities (Main 5, Backroom 0): one point each, in the SVG and in the table.
    await expect.poll(() => chart.getByTestId('chart-point').count()).toBe(2);
    expect(await chart.locator('[data-testid="chart-table"] tbody tr').count()).toBe(2);
    expect(await chart.locator('[data-testid="chart-point"]').first().locator('title').textContent()).toMatch(/: 5 · set to 5 · import$/i);
    await chart.locator('button[data-range="all"]').click();
    await expect.poll(() => chart.locator('button[data-range="all"]').getAttribute('aria-pressed')).toBe('true');
    await expect.poll(() => chart.getByTestId('chart-point').count()).toBe(2);
    await page.context().close();
  }, 60_000);

  it('shows the card and the low-stock view at 1280 and 360 px without widening the page, axe clean', async () => {
    mkdirSync(shotsDir, { recursive: true });
    for (const width of [1280, 360]) {
      const { page, keys } = await signedInPage(browser, server, 'north', { width, height: 860 });
      await keys.scan(MUG);
      await card(page, MUG).locator('[data-testid="reorder-mark"][data-low="true"]').waitFor();
      await card(page, MUG).locator('[data-testid="stock-history"] summary').click();
      await card(page, MUG).getByTestId('chart-point').first().waitFor();
      expect(await fullPageShot(page, path.join(shotsDir, `reorder-card-${width}.png`)), `card at ${width}`).toBe(0);
      expect(await seriousViolations(page), `card at ${width}`).toEqual([]);
      await page.goto(`${server.url}/#low-stock`);
      await page.locator('[data-testid="low-stock-table"] tbody tr').first().waitFor();
      expect(await fullPageShot(page, path.join(shotsDir, `low-stock-${width}.png`)), `low stock at ${width}`).toBe(0);
      expect(await seriousViolations(page), `low stock at ${width}`).toEqual([]);
      await page.context().close();
    }
  }, 90_000);
});
