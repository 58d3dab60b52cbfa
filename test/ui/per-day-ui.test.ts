// The movements per day in the scanner UI (docs/REORDER.md, "Movements per day"), in a real Chromium
// against the real server: opened from the low-stock view, a bar per day of the period with the
// totals the API answers, one warehouse or all, 7/30/90 days; a tap on the chart (a click where the
// finger lands) or the arrows from the keyboard say a day in words under the chart, and the same for
// a point of the stock chart on a card at 360 px. Both at 1280 and 360 px are saved into
// $SCANNER_SHOTS_DIR, do not widen the page, and axe-core finds nothing serious in them.
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADJUST_PATH, INVENTORY_PATH, MOVEMENTS_PER_DAY_PATH, type MovementsPerDay } from '../../shared/index.ts';
import { seriousViolations } from '../support/axe.ts';
import { launchChromium } from '../support/browser.ts';
import { type TestServer, exampleCatalogue } from '../support/test-server.ts';
import { fullPageShot, signedInPage, startUiServer } from '../support/ui-harness.ts';

const shotsDir = process.env.SCANNER_SHOTS_DIR ?? path.join(tmpdir(), 'scanner-shots');
const MUG = '8690000000017';
const SHIRT = '8690000000024';
const DAY = 24 * 60 * 60 * 1000;

let browser: Browser;
let server: TestServer;
// The shop's last three weeks, up to 2026-03-15 at 10:00 UTC.
let now = Date.parse('2026-02-20T08:00:00Z');

beforeAll(async () => {
  [browser, server] = await Promise.all([launchChromium(), startUiServer(exampleCatalogue(), { clock: { now: () => now } })]);
  const write = async (path: string, rows: unknown[]) => {
    const res = await server.request('POST', path, { token: server.tokens.north, body: rows });
    expect(res.status).toBe(200);
  };
  for (let d = 0; d < 23; d++) {
    now = Date.parse('2026-02-21T09:00:00Z') + d * DAY;
    await write(ADJUST_PATH, [
      { barcode: MUG, warehouse_name: 'Main', delta: -1 - (d % 4) },
      { barcode: SHIRT, warehouse_name: 'Main', delta: -(d % 2) - 1 },
    ]);
    if (d % 5 === 0) await write(ADJUST_PATH, [{ barcode: MUG, warehouse_name: 'Main', delta: 20, reason: 'delivery' }]);
    if (d === 12) await write(INVENTORY_PATH, [{ barcode: MUG, warehouse_name: 'Backroom', quantity: 6 }]);
  }
  now = Date.parse('2026-03-15T10:00:00Z');
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** What the API answers for the page's period and the browser's clock. */
async function expected(page: Page, query: string): Promise<MovementsPerDay> {
  const offset = -(await page.evaluate(() => new Date().getTimezoneOffset()));
  const res = await server.request('GET', `${MOVEMENTS_PER_DAY_PATH}?${query}&utc_offset=${offset}`, { token: server.tokens.north });
  return (await res.json()) as MovementsPerDay;
}

const totals = (page: Page) =>
  page
    .getByTestId('per-day-totals')
    .locator('dd')
    .evaluateAll((dds) => dds.map((dd) => [dd.getAttribute('data-kind'), dd.textContent]));

/** The totals as the view writes them (en-US, a real minus sign). */
const shownTotals = ({ totals: t }: MovementsPerDay) => [
  ['sales', String(t.sales.quantity)],
  ['receipts', String(t.receipts.quantity)],
  ['counts', String(t.counts.movements)],
  ['sets', String(t.sets.movements)],
  ['net', t.net > 0 ? `+${t.net}` : t.net < 0 ? `−${-t.net}` : '0'],
];

/** A click where a finger would tap: the middle of the chart's `fraction` of its width. */
async function tapAt(svg: Locator, fraction: number): Promise<void> {
  const box = (await svg.boundingBox())!;
  await svg.click({ position: { x: box.width * fraction, y: box.height / 2 } });
}

describe('movements per day in the scanner UI', () => {
  it('opens from the low-stock view with a bar per day and the totals of the period, per warehouse and period', async () => {
    const { page } = await signedInPage(browser, server, 'north');
    await page.goto(`${server.url}/#low-stock`);
    await page.getByTestId('per-day-link').click();
    expect(await page.getByTestId('per-day-nav').getAttribute('aria-current')).toBe('page');
    const bars = page.getByTestId('per-day-bar');
    await expect.poll(() => bars.count()).toBe(30);
    const month = await expected(page, 'days=30');
    // The import of 20 February (three quantities set) is in the month too.
    await expect.poll(() => totals(page)).toEqual(shownTotals(month));
    expect(month.totals.sets.movements).toBe(4);
    expect(await page.locator('[data-testid="per-day-table"] tbody tr').count()).toBe(30);
    // The Backroom alone: nothing but its quantities set (by the import, and on the 5th of March).
    await page.getByTestId('per-day-warehouse').selectOption({ label: 'Backroom' });
    const backroom = await expected(page, 'days=30&warehouse=11');
    expect(backroom.totals).toMatchObject({ sales: { movements: 0 }, receipts: { movements: 0 }, sets: { movements: 2 }, net: 6 });
    await expect.poll(() => totals(page)).toEqual(shownTotals(backroom));
    await page.getByTestId('per-day-warehouse').selectOption({ label: 'All warehouses' });
    await page.locator('button[data-days="7"]').click();
    await expect.poll(() => bars.count()).toBe(7);
    const week = await expected(page, 'days=7');
    await expect.poll(() => totals(page)).toEqual(shownTotals(week));
    await page.context().close();
  }, 60_000);

  it('is not offered to a counter, who may read the low-stock list but not the history', async () => {
    const { page } = await signedInPage(browser, server, 'north', undefined, 'counter');
    await page.goto(`${server.url}/#low-stock`);
    await page.getByTestId('low-stock-csv').waitFor();
    expect(await page.getByTestId('per-day-link').count()).toBe(0);
    await page.context().close();
  }, 60_000);

  it('says a day in words when the chart is tapped, and steps through the days from the keyboard', async () => {
    const { page } = await signedInPage(browser, server, 'north', { width: 360, height: 800 });
    await page.goto(`${server.url}/#per-day`);
    await page.locator('button[data-days="7"]').click();
    await expect.poll(() => page.getByTestId('per-day-bar').count()).toBe(7);
    const week = await expected(page, 'days=7');
    const details = page.getByTestId('chart-details');
    expect(await details.textContent()).toMatch(/^Click or tap the chart/);
    // The last of seven bands is the right end of the chart.
    await tapAt(page.getByTestId('per-day-svg'), 0.97);
    await expect.poll(() => details.getAttribute('data-picked')).toBe('6');
    const last = week.days[6]!;
    expect(await details.textContent()).toContain(
      `sold ${last.sales.quantity} (${last.sales.movements} sale${last.sales.movements === 1 ? '' : 's'})`,
    );
    // From the keyboard: the previous-day arrow, with Enter.
    await page.getByTestId('chart-previous').focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => details.getAttribute('data-picked')).toBe('5');
    const before = week.days[5]!;
    expect(await details.textContent()).toMatch(
      new RegExp(`net change ${before.net > 0 ? '\\+' : before.net < 0 ? '−' : ''}${Math.abs(before.net)}$`),
    );
    await page.context().close();
  }, 60_000);

  it("says a stock chart point's who, what and why at 360 px when tapped or stepped to", async () => {
    const { page, keys } = await signedInPage(browser, server, 'north', { width: 360, height: 800 });
    await keys.scan(MUG);
    const card = page.locator(`[data-testid="lookups"] [data-barcode="${MUG}"]`).first();
    await expect.poll(() => card.getAttribute('data-state')).toBe('found');
    await card.locator('[data-testid="stock-history"] summary').click();
    const chart = card.getByTestId('stock-chart');
    await chart.getByTestId('chart-point').first().waitFor();
    const details = chart.getByTestId('chart-details');
    // The latest movement is at the right end: the last sale, in Main.
    await tapAt(chart.getByTestId('chart-svg'), 0.99);
    await expect.poll(() => details.textContent()).toMatch(/^Main: .*: \d+ · −\d+ · /);
    await chart.getByTestId('chart-picked').waitFor();
    mkdirSync(shotsDir, { recursive: true });
    expect(await fullPageShot(page, path.join(shotsDir, 'stock-chart-tapped-360.png'))).toBe(0);
    // The arrows reach the same points from the keyboard.
    await chart.getByTestId('chart-previous').focus();
    await page.keyboard.press('Enter');
    const picked = Number(await details.getAttribute('data-picked'));
    await chart.getByTestId('chart-next').focus();
    await page.keyboard.press('Enter');
    await expect.poll(async () => Number(await details.getAttribute('data-picked'))).toBe(picked + 1);
    await page.context().close();
  }, 60_000);

  it('shows the movements per day at 1280 and 360 px without widening the page, axe clean', async () => {
    mkdirSync(shotsDir, { recursive: true });
    for (const width of [1280, 360]) {
      const { page } = await signedInPage(browser, server, 'north', { width, height: 860 });
      await page.goto(`${server.url}/#per-day`);
      await expect.poll(() => page.getByTestId('per-day-bar').count()).toBe(30);
      await tapAt(page.getByTestId('per-day-svg'), 0.9);
      await expect.poll(() => page.getByTestId('chart-details').getAttribute('data-picked')).not.toBe('');
      expect(await fullPageShot(page, path.join(shotsDir, `per-day-${width}.png`)), `per day at ${width}`).toBe(0);
      expect(await seriousViolations(page), `per day at ${width}`).toEqual([]);
      await page.context().close();
    }
    // German's longer words at a phone's width.
    const { page } = await signedInPage(browser, server, 'north', { width: 360, height: 860 }, undefined, 'de-DE');
    await page.goto(`${server.url}/#per-day`);
    await expect.poll(() => page.getByTestId('per-day-bar').count()).toBe(30);
    await tapAt(page.getByTestId('per-day-svg'), 0.9);
    await expect.poll(() => page.getByTestId('chart-details').textContent()).toContain('Nettoänderung');
    expect(await fullPageShot(page, path.join(shotsDir, 'per-day-360-de.png')), 'per day at 360 in German').toBe(0);
    expect(await seriousViolations(page), 'per day at 360 in German').toEqual([]);
    await page.context().close();
  }, 90_000);
});
