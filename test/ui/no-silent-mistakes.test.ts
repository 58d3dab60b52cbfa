// Mistakes a person at the shelf would not notice, each reproduced in a real Chromium against the real
// server and each now said or prevented (issue 29, "No silent mistakes", items 1, 3, 4, 5, 6, 9, 10
// and 11; items 2, 7, 8 and 12 have their tests beside the code they concern).
import type { Page } from 'playwright-core';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADJUST_PATH, INVENTORY_PATH, STOCKTAKES_PATH, stocktakePath } from '../../shared/index.ts';
import { launchChromium } from '../support/browser.ts';
import { call } from '../support/stocktake-fixtures.ts';
import { type TestServer, exampleCatalogue } from '../support/test-server.ts';
import { signedInPage, startUiServer } from '../support/ui-harness.ts';

let browser: Browser;
let server: TestServer;

beforeAll(async () => {
  [browser, server] = await Promise.all([launchChromium(), startUiServer(exampleCatalogue())]);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const token = () => server.tokens.north!;
const mugInMain = async () =>
  (
    (await call(server, 'GET', `${INVENTORY_PATH}?barcodes=8690000000017`, token())) as {
      results: { warehouse_name: string; quantity: number }[];
    }
  ).results.find((r) => r.warehouse_name === 'Main')!.quantity;
const setMug = (quantity: number) =>
  call(server, 'POST', INVENTORY_PATH, token(), [{ barcode: '8690000000017', quantity, warehouse_name: 'Main' }]);
const banner = (page: Page) => page.getByTestId('banner').textContent();

async function newStocktake(name: string): Promise<number> {
  return (await call(server, 'POST', STOCKTAKES_PATH, token(), { name, warehouse_name: 'Main' }, 201)).id as number;
}

describe('1: spaces around a typed barcode', () => {
  it('Look up finds the item the server finds', async () => {
    const { page } = await signedInPage(browser, server, 'north');
    await page.locator('#manual-barcode').fill(' 8690000000017 ');
    await page.locator('#manual-barcode').press('Enter');
    await page.locator('[data-testid="lookups"] [data-state="found"]').waitFor();
    expect(await page.locator('[data-testid="lookups"] .card-name').first().textContent()).toBe('Mug');
    await page.context().close();
  });

  it("a stocktake's Barcode field counts the item, not an unknown line that looks like it", async () => {
    const id = await newStocktake('Spaces');
    const { page } = await signedInPage(browser, server, 'north');
    await page.goto(`${server.url}/#stocktake/${id}`);
    await page.getByTestId('manual-barcode').fill(' 8690000000017 ');
    await page.getByTestId('manual-barcode').press('Enter');
    await page.locator('[data-testid="line"][data-barcode="8690000000017"][data-counted="1"]').waitFor();
    expect(await page.getByTestId('unknown-line').count()).toBe(0);
    await page.context().close();
  });
});

describe('3: a stocktake count of 1e9, and an amount too large', () => {
  it('refuses "1e9" as a count, as Set stock does, and says a too-large amount once, in the banner', async () => {
    const id = await newStocktake('Counts');
    await call(server, 'POST', stocktakePath(id, 'scans'), token(), { barcode: '8690000000017' }, 201);
    const { page } = await signedInPage(browser, server, 'north');
    await page.goto(`${server.url}/#stocktake/${id}`);
    const line = page.locator('[data-testid="line"][data-barcode="8690000000017"]');
    await line.waitFor();
    await page.getByRole('button', { name: 'Edit the count of 8690000000017' }).click();
    await page.getByTestId('edit-count').fill('1e9');
    await page.getByTestId('edit-count').press('Enter');
    await expect.poll(() => page.getByTestId('count-banner').textContent()).toBe('A count is a whole number of at least 0, such as 12.');
    expect(await line.getAttribute('data-counted')).toBe('1');

    await page.getByTestId('manual-barcode').fill('8690000000017');
    await page.getByTestId('manual-amount').fill('2000000');
    await page.getByTestId('manual-amount').press('Enter');
    await expect.poll(() => page.getByTestId('count-banner').textContent()).toContain('An amount is at most 1,000,000');
    expect(await page.getByTestId('stocktake-problem').count()).toBe(0);
    expect(await line.getAttribute('data-counted')).toBe('1');
    await page.context().close();
  });
});

describe('4 and 5: Set stock', () => {
  it('a refused quantity is replaced by what is typed next, not appended to', async () => {
    await setMug(5);
    const { page, keys } = await signedInPage(browser, server, 'north');
    await keys.press('F3');
    await keys.scan('8690000000017');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('quantity');
    await keys.type('12a');
    await keys.press('Enter');
    await page.locator('[data-testid="outcomes"] li[data-state="rejected"]').waitFor();
    await keys.type('7');
    expect(await page.locator('#quantity').inputValue()).toBe('7');
    await keys.press('Enter');
    await page.locator('[data-testid="outcomes"] li[data-state="saved"]').waitFor();
    expect(await mugInMain()).toBe(7);
    await page.context().close();
  });

  it('a count below 0 is asked about first, and saved only when Enter confirms it', async () => {
    await setMug(5);
    const { page, keys } = await signedInPage(browser, server, 'north');
    await keys.press('F3');
    await keys.scan('8690000000017');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('quantity');
    await keys.type('-5');
    await keys.press('Enter');
    await expect
      .poll(() => banner(page))
      .toBe('Mug: save −5? A shelf cannot hold less than 0. Press Enter again to save −5, or correct it.');
    expect(await page.getByTestId('banner').getAttribute('data-tone')).toBe('warn');
    expect(await mugInMain()).toBe(5);
    await keys.press('Enter');
    await page.locator('[data-testid="outcomes"] li[data-state="saved"]').waitFor();
    expect(await mugInMain()).toBe(-5);
    await page.context().close();
  });
});

describe('6: the review', () => {
  it('shows counted − books, and beside it what the commit will change', async () => {
    await setMug(3);
    const id = await newStocktake('Review');
    await call(server, 'POST', stocktakePath(id, 'scans'), token(), { barcode: '8690000000017', amount: 3 }, 201);
    // A sale at the till after the count: books 2, counted 3; the commit leaves 3 − 1 = 2, changing nothing.
    await call(server, 'POST', ADJUST_PATH, token(), [{ barcode: '8690000000017', delta: -1, warehouse_name: 'Main' }]);
    const { page } = await signedInPage(browser, server, 'north');
    await page.goto(`${server.url}/#stocktake/${id}/review`);
    const line = page.locator('[data-testid="review-line"][data-barcode="8690000000017"]');
    await line.waitFor();
    expect(await page.locator('[data-testid="review-lines"] th').allTextContents()).toEqual([
      'Item',
      'On the books',
      'Counted',
      'Counted − books',
      'Commit changes stock by',
      'Commit',
    ]);
    expect(await line.getByTestId('review-line-difference').textContent()).toBe('+1');
    expect(await line.getByTestId('review-line-change').textContent()).toBe('0');
    await page.context().close();
  });
});

describe('9: the sign-in screen', () => {
  it('has a favicon, and shows this server’s address as the example link', async () => {
    const icon = await fetch(`${server.url}/favicon.ico`);
    expect([icon.status, icon.headers.get('content-type')]).toEqual([200, expect.stringMatching(/icon/)]);
    const context = await browser.newContext({ viewport: { width: 360, height: 740 } });
    const page = await context.newPage();
    await page.goto(`${server.url}/`);
    expect(await page.locator('#signin-input').getAttribute('placeholder')).toContain(`${server.url}/#signin=`);
    // The button is whole at 360 px: one line of text.
    const button = await page.getByRole('button', { name: 'Sign in' }).boundingBox();
    expect(button!.height).toBeLessThan(50);
    await context.close();
  });
});

describe('10: a phone at 360 × 740', () => {
  it('leaves the screen to the work: a short top bar, the first card and the list rows above the fold', async () => {
    await setMug(5);
    const { page, keys } = await signedInPage(browser, server, 'north', { width: 360, height: 740 });
    const bar = await page.locator('.topbar').boundingBox();
    expect(bar!.height).toBeLessThan(100);
    await keys.scan('8690000000017');
    const card = page.locator('[data-testid="lookups"] [data-state="found"]').first();
    await card.waitFor();
    expect((await card.boundingBox())!.y).toBeLessThan(740 - 100);

    await keys.press('F4');
    for (const code of ['8690000000017', '8690000000024', '8690000000017', '8690000000024', '8690000000017', '8690000000024'])
      await keys.scan(code);
    const firstRow = page.locator('[data-testid="list-rows"] tbody tr').first();
    await expect.poll(() => page.locator('tr[data-barcode="8690000000024"] [data-testid="row-stock"]').textContent()).toContain('→ 3');
    expect((await firstRow.boundingBox())!.y).toBeLessThan(740 - 60);
    await page.context().close();
  });
});

describe('11: polish', () => {
  it('List: columns keep their widths through a send, a saved row shows no stale stock, and "your list is back" goes with the list', async () => {
    await setMug(5);
    const { page, keys } = await signedInPage(browser, server, 'north');
    await keys.press('F4');
    for (const code of ['8690000000017', '8690000000024', '8690000000017']) await keys.scan(code);
    await expect.poll(() => page.locator('tr[data-barcode="8690000000017"] [data-testid="row-stock"]').textContent()).toBe('5 → 2');
    const widths = () =>
      page.locator('[data-testid="list-rows"] th').evaluateAll((ths) => ths.map((th) => Math.round(th.getBoundingClientRect().width)));
    const before = await widths();
    await page.getByTestId('send-list').click();
    await page.locator('tr[data-barcode="8690000000017"][data-state="saved"]').waitFor();
    expect(await widths()).toEqual(before);
    expect(await page.locator('tr[data-barcode="8690000000017"] [data-testid="row-stock"]').textContent()).toBe('');

    // Rows left unsent, a reload: the list is back; cleared, the banner no longer says it is.
    await keys.scan('8690000000024');
    await page.locator('tr[data-barcode="8690000000024"][data-state="pending"]').waitFor();
    await page.reload();
    await page.locator('.scanner[data-ready="true"]').waitFor();
    await expect.poll(() => banner(page)).toBe('Your unsent list is back (1 row).');
    await page.getByRole('button', { name: 'Clear list' }).click();
    await page.locator('.confirm-inline').getByRole('button', { name: 'Clear list' }).click();
    await expect.poll(() => banner(page)).toBe('Scan items to count them');
    await page.context().close();
  });

  it('the counting page names the item in an undo and over the history it opens', async () => {
    const id = await newStocktake('Names');
    const { page, keys } = await signedInPage(browser, server, 'north');
    await page.goto(`${server.url}/#stocktake/${id}`);
    await page.getByTestId('count-view').waitFor();
    await keys.scan('8690000000017');
    await page.locator('[data-testid="line"][data-barcode="8690000000017"][data-counted="1"]').waitFor();
    await page.locator('[data-testid="pending"][data-pending="0"]').waitFor();
    await page.getByRole('button', { name: 'History of Mug' }).click();
    expect(await page.getByTestId('count-history').locator('h3').textContent()).toContain('History of Mug');
    await page.getByTestId('undo').click();
    await expect.poll(() => page.getByTestId('count-banner').textContent()).toBe('Undone: Mug −1');
    await page.context().close();
  });
});
