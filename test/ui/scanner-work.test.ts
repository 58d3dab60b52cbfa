// Nothing a shop worker typed is lost or misread, in a real Chromium against the real server: the
// List says what sending will do (set, or add) and shows the result row by row; an unsent list and
// Set stock's typed quantity survive a reload; a send cut off by a reload is finished once, never
// twice; a typed but unconfirmed quantity is saved by the next scan (or kept when it is not a
// number); numbers and dates follow the browser's locale.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVENTORY_PATH, STOCK_HISTORY_PATH } from '../../shared/index.ts';
import { launchChromium } from '../support/browser.ts';
import type { TestServer } from '../support/test-server.ts';
import { holdLookup, signedInPage, startUiServer, virtualKeyboard } from '../support/ui-harness.ts';

const catalogue = {
  accounts: [
    {
      name: 'shop',
      warehouses_enabled: true,
      warehouses: [
        { id: 9001, name: 'Main' },
        { id: 9002, name: 'Back' },
      ],
      items: [
        { id: 91001, name: 'Mug', barcode: 'MUG-1', stock: [{ warehouse: 'Main', quantity: 9 }] },
        { id: 91002, name: 'Cap', barcode: 'CAP-1', stock: [{ warehouse: 'Main', quantity: 4 }] },
        { id: 91003, name: 'Bowl', barcode: 'BOWL-1', stock: [{ warehouse: 'Main', quantity: 1 }] },
        { id: 91004, name: 'Jug', barcode: 'JUG-1', stock: [{ warehouse: 'Main', quantity: 1234 }] },
      ],
    },
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

async function quantityOf(barcode: string, warehouse = 'Main'): Promise<number | undefined> {
  const res = await server.request('GET', `${INVENTORY_PATH}?barcodes=${encodeURIComponent(barcode)}`, { token: server.tokens.shop! });
  const { results } = (await res.json()) as { results: { warehouse_name: string; quantity: number }[] };
  return results.find((r) => r.warehouse_name === warehouse)?.quantity;
}

/** Sets a quantity through the API, so each test starts from a known stock. */
async function setStock(barcode: string, quantity: number): Promise<void> {
  const res = await server.request('POST', INVENTORY_PATH, {
    token: server.tokens.shop!,
    body: [{ barcode, quantity, warehouse_name: 'Main' }],
  });
  expect(res.status).toBe(200);
}

const row = (page: Page, barcode: string) => page.locator(`[data-testid="list-rows"] tr[data-barcode="${barcode}"]`);
const reloadSignedIn = async (page: Page) => {
  await page.reload();
  await page.locator('.scanner[data-ready="true"]').waitFor();
  return virtualKeyboard(page);
};

describe('List: says what it will do, and does exactly that', () => {
  it('"Set Main to …" shows the stock beside the count; a mixed result is green and red per row', async () => {
    await setStock('MUG-1', 9);
    await setStock('CAP-1', 4);
    const { page, keys } = await signedInPage(browser, server, 'shop');
    await keys.press('F4');
    for (const code of ['MUG-1', 'MUG-1', 'CAP-1']) await keys.scan(code);
    await expect.poll(() => row(page, 'MUG-1').getByTestId('row-stock').textContent()).toBe('9 → 2');
    expect(await page.getByTestId('send-list').textContent()).toBe('Set Main to the counted numbers (2 rows)');
    // A letter typed into one count: that row is refused (before sending), the other is saved.
    await page.getByLabel('Counted quantity of CAP-1').fill('3x');
    await page.getByTestId('send-list').click();
    await expect.poll(() => row(page, 'MUG-1').getAttribute('data-state')).toBe('saved');
    expect(await row(page, 'MUG-1').textContent()).toContain('Saved: 2 (was 9)');
    expect(await row(page, 'CAP-1').getAttribute('data-state')).toBe('rejected');
    expect(await row(page, 'CAP-1').textContent()).toContain('Type a whole number, such as 12 or -3.');
    expect(await page.getByTestId('banner').getAttribute('data-tone')).toBe('warn');
    expect(await page.getByTestId('banner').textContent()).toBe('Saved 1 of 2 rows; 1 needs correcting (red)');
    expect(await quantityOf('MUG-1')).toBe(2);
    expect(await quantityOf('CAP-1')).toBe(4);
    // Corrected and sent again: only the corrected row goes.
    await page.getByLabel('Counted quantity of CAP-1').fill('3');
    expect(await page.getByTestId('send-list').textContent()).toBe('Set Main to the counted numbers (1 row)');
    await page.getByTestId('send-list').click();
    await expect.poll(() => row(page, 'CAP-1').getAttribute('data-state')).toBe('saved');
    expect(await quantityOf('CAP-1')).toBe(3);
    await page.getByTestId('clear-saved').click();
    await expect.poll(() => page.locator('[data-testid="list-rows"]').count()).toBe(0);
    await page.context().close();
  });

  it('"Add the counted numbers" adds them to stock (an adjustment, recorded in the history)', async () => {
    await setStock('BOWL-1', 1);
    const { page, keys } = await signedInPage(browser, server, 'shop');
    await keys.press('F4');
    await page.getByTestId('list-action-add').check();
    for (const code of ['BOWL-1', 'BOWL-1', 'BOWL-1']) await keys.scan(code);
    await expect.poll(() => row(page, 'BOWL-1').getByTestId('row-stock').textContent()).toBe('1 +3 → 4');
    expect(await page.getByTestId('send-list').textContent()).toBe('Add the counted numbers to Main (1 row)');
    await page.getByTestId('send-list').click();
    await expect.poll(() => row(page, 'BOWL-1').getAttribute('data-state')).toBe('saved');
    expect(await row(page, 'BOWL-1').textContent()).toContain('Saved: 4 (was 1)');
    expect(await quantityOf('BOWL-1')).toBe(4);
    const history = await server.request('GET', `${STOCK_HISTORY_PATH}?barcode=BOWL-1&limit=1`, { token: server.tokens.shop! });
    expect(((await history.json()) as { results: { old_quantity: number; new_quantity: number }[] }).results[0]).toMatchObject({
      old_quantity: 1,
      new_quantity: 4,
    });
    await page.context().close();
  });
});

describe('unsent work survives a reload', () => {
  it('an unsent list comes back after a reload, with its choice of set or add', async () => {
    const { page, keys } = await signedInPage(browser, server, 'shop');
    await keys.press('F4');
    await page.getByTestId('list-action-add').check();
    for (const code of ['MUG-1', 'MUG-1', 'NOT-KNOWN']) await keys.scan(code);
    await expect.poll(() => row(page, 'NOT-KNOWN').getAttribute('data-state')).toBe('unknown');
    await reloadSignedIn(page);
    // The page comes back in List, the mode it was in, with the rows as they were.
    await expect.poll(() => page.getByLabel('Counted quantity of MUG-1').inputValue()).toBe('2');
    expect(await row(page, 'NOT-KNOWN').getAttribute('data-state')).toBe('unknown');
    expect(await page.getByTestId('list-action-add').isChecked()).toBe(true);
    expect(await page.getByTestId('banner').textContent()).toBe('Your unsent list is back (2 rows).');
    await page.context().close();
  });

  it('a send cut off by a reload is finished after it, once: the same Idempotency-Key is never applied twice', async () => {
    await setStock('JUG-1', 10);
    const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    const page = await context.newPage();
    const { code } = await server.store.signIn.createCode('shop');
    // The state the page stores when it starts sending "add 5 to JUG-1", as a crash would leave it.
    const inFlight = {
      rows: [{ id: 1, barcode: 'JUG-1', quantity: '5', name: 'Jug', known: true, stock: { Main: 10 }, state: 'pending' }],
      action: 'add',
      inFlight: { key: 'list-send-test-0001', action: 'add', warehouse: 'Main', rows: [{ id: 1, barcode: 'JUG-1', quantity: '5' }] },
    };
    await context.addInitScript((state) => {
      if (!sessionStorage.getItem('seeded')) {
        localStorage.setItem('barcode-inventory.list.shop', state);
        localStorage.setItem('barcode-inventory.mode.shop', 'list');
      }
    }, JSON.stringify(inFlight));
    await page.goto(`${server.url}/#signin=${code}`);
    await expect.poll(() => row(page, 'JUG-1').getAttribute('data-state')).toBe('saved');
    expect(await quantityOf('JUG-1')).toBe(15);
    // The answer was lost (the page closed before storing it): the same send comes back after a reload.
    await page.evaluate((state) => localStorage.setItem('barcode-inventory.list.shop', state), JSON.stringify(inFlight));
    await page.evaluate(() => sessionStorage.setItem('seeded', '1'));
    await page.reload();
    await expect.poll(() => row(page, 'JUG-1').getAttribute('data-state')).toBe('saved');
    expect(await row(page, 'JUG-1').textContent()).toContain('Saved: 15');
    expect(await quantityOf('JUG-1')).toBe(15); // not 20
    await context.close();
  });

  it('Set stock: a typed quantity and its item come back after a reload', async () => {
    const { page, keys } = await signedInPage(browser, server, 'shop');
    await keys.press('F3');
    await keys.scan('CAP-1');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('quantity');
    await keys.type('17');
    const again = await reloadSignedIn(page);
    await expect.poll(() => page.locator('#quantity').inputValue()).toBe('17');
    expect(await page.locator('.set-target [data-barcode]').getAttribute('data-barcode')).toBe('CAP-1');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('quantity');
    await again.press('Enter');
    await expect.poll(() => page.locator('[data-testid="outcomes"] li').first().getAttribute('data-state')).toBe('saved');
    expect(await quantityOf('CAP-1')).toBe(17);
    await page.context().close();
  });
});

describe('Set stock never drops a typed quantity', () => {
  it('scanning the next item saves the quantity typed for the one on screen', async () => {
    await setStock('MUG-1', 9);
    const { page, keys } = await signedInPage(browser, server, 'shop');
    await keys.press('F3');
    await keys.scan('MUG-1');
    await expect.poll(() => page.locator('.set-target [data-state]').getAttribute('data-state')).toBe('found');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('quantity');
    await keys.type('6'); // no Enter
    await keys.scan('CAP-1');
    const saved = page.locator('[data-testid="outcomes"] li[data-barcode="MUG-1"]');
    await expect.poll(() => saved.getAttribute('data-state')).toBe('saved');
    expect(await saved.textContent()).toContain('Saved: 6 (was 9) (typed without Enter; saved when the next item was scanned)');
    await expect.poll(() => page.locator('.set-target [data-barcode]').getAttribute('data-barcode')).toBe('CAP-1');
    expect(await quantityOf('MUG-1')).toBe(6);
    await page.context().close();
  });

  it('…also when the item on screen is still being looked up: its quantity is saved once it is found', async () => {
    await setStock('MUG-1', 9);
    const { page, keys } = await signedInPage(browser, server, 'shop');
    // MUG-1's lookup is held until the test lets it go: the next scan comes while it is in flight.
    const release = await holdLookup(page, 'MUG-1');
    await keys.press('F3');
    await keys.scan('MUG-1');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('quantity');
    expect(await page.locator('.set-target [data-state]').getAttribute('data-state')).toBe('loading');
    await keys.type('7'); // no Enter
    await keys.scan('CAP-1');
    await expect.poll(() => page.locator('.set-target [data-state]').getAttribute('data-state')).toBe('found');
    expect(await page.locator('.set-target [data-barcode]').getAttribute('data-barcode')).toBe('CAP-1');
    expect(await quantityOf('MUG-1')).toBe(9); // not yet: MUG-1 is not found yet
    release();
    const saved = page.locator('[data-testid="outcomes"] li[data-barcode="MUG-1"]');
    await expect.poll(() => saved.getAttribute('data-state')).toBe('saved');
    expect(await saved.textContent()).toContain('Saved: 7 (was 9) (typed without Enter; saved when the next item was scanned)');
    expect(await quantityOf('MUG-1')).toBe(7);
    expect(await page.locator('.set-target [data-barcode]').getAttribute('data-barcode')).toBe('CAP-1');
    await page.context().close();
  });

  it('…and says so when what was typed during a lookup cannot be saved: not a number, or not in the catalogue', async () => {
    await setStock('MUG-1', 9);
    const { page, keys } = await signedInPage(browser, server, 'shop');
    const banner = page.getByTestId('banner');
    await keys.press('F3');
    for (const [barcode, typed, expected] of [
      [
        'MUG-1',
        '6a',
        'Mug: “6a” (typed before the next scan) is not saved: Type a whole number, such as 12 or -3. Scan it again to set its stock.',
      ],
      ['NOPE-9', '5', 'NOPE-9: “5” (typed before the next scan) is not saved: this barcode is not in the catalogue.'],
    ] as const) {
      const release = await holdLookup(page, barcode);
      await keys.scan(barcode);
      await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('quantity');
      await keys.type(typed); // no Enter
      await keys.scan('CAP-1');
      await expect.poll(() => page.locator('.set-target [data-barcode]').getAttribute('data-barcode')).toBe('CAP-1');
      await expect.poll(() => page.locator('.set-target [data-state]').getAttribute('data-state')).toBe('found');
      release();
      await expect.poll(() => banner.textContent()).toBe(expected);
      expect(await banner.getAttribute('data-tone')).toBe('error');
    }
    expect(await quantityOf('MUG-1')).toBe(9);
    expect(await page.locator('[data-testid="outcomes"] li').count()).toBe(0);
    await page.context().close();
  });

  it('a typed text that is not a number keeps its item and says so; the next scan waits for it', async () => {
    const { page, keys } = await signedInPage(browser, server, 'shop');
    await keys.press('F3');
    await keys.scan('MUG-1');
    // The item on screen, found (typed while it is still looked up, the text goes with the next
    // scan instead: the test above).
    await expect.poll(() => page.locator('.set-target [data-state]').getAttribute('data-state')).toBe('found');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('quantity');
    await keys.type('6a');
    await keys.scan('CAP-1');
    await expect.poll(() => page.getByTestId('banner').getAttribute('data-tone')).toBe('error');
    expect(await page.getByTestId('banner').textContent()).toBe(
      'Mug: “6a” is not saved: Type a whole number, such as 12 or -3. Correct it and press Enter, or clear the field, then scan again.',
    );
    expect(await page.locator('.set-target [data-barcode]').getAttribute('data-barcode')).toBe('MUG-1');
    expect(await page.locator('#quantity').inputValue()).toBe('6a');
    await page.context().close();
  });

  it('coming back to Set stock puts the cursor in the quantity field again', async () => {
    const { page, keys } = await signedInPage(browser, server, 'shop');
    await keys.press('F3');
    await keys.scan('MUG-1');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('quantity');
    await keys.press('F2');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id ?? '')).not.toBe('quantity');
    await keys.press('F3');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('quantity');
    await page.context().close();
  });
});

describe('the browser locale', () => {
  it('writes numbers and dates as a German browser does', async () => {
    await setStock('JUG-1', 1234);
    const context = await browser.newContext({ locale: 'de-DE', timezoneId: 'Europe/Berlin', viewport: { width: 1280, height: 860 } });
    const page = await context.newPage();
    const { code } = await server.store.signIn.createCode('shop');
    await page.goto(`${server.url}/#signin=${code}`);
    await page.locator('.scanner[data-ready="true"]').waitFor();
    const keys = await virtualKeyboard(page);
    await keys.scan('0104006381333931\u001d17270331');
    await keys.scan('JUG-1');
    const jug = page.locator('[data-testid="lookups"] [data-barcode="JUG-1"]');
    await expect.poll(() => jug.getAttribute('data-state')).toBe('found');
    expect(await jug.locator('[data-warehouse="Main"] .qty').textContent()).toBe('1.234');
    expect(await page.locator('[data-gs1="expiry"] dd').textContent()).toBe('31.03.2027');
    await jug.getByText('Verlauf').click(); // the UI speaks German in a German browser
    const when = await jug.locator('[data-testid="history-entry"] .h-when').first().textContent();
    expect(when).toMatch(/^\d{2}\.\d{2}\.\d{4}, \d{2}:\d{2}$/);
    await context.close();
  });
});
