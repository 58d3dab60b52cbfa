// The scanner UI in a real Chromium against the real server and a real SQLite file: scans arrive as
// real key events at scanner speed, results are checked on screen and through the API.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVENTORY_PATH } from '../../shared/index.ts';
import { startServer } from '../../server/start.ts';
import { openStore } from '../../server/store/open-store.ts';
import { launchChromium } from '../support/browser.ts';
import type { TestServer } from '../support/test-server.ts';
import { signedInPage, startUiServer } from '../support/ui-harness.ts';

const burstItems = Array.from({ length: 20 }, (_, i) => ({
  id: 71100 + i,
  name: `Burst item ${i}`,
  barcode: `B${String(i).padStart(10, '0')}`,
  stock: [{ warehouse: 'Main', quantity: i }],
}));

const catalogue = {
  accounts: [
    {
      name: 'shop',
      warehouses_enabled: true,
      warehouses: [
        { id: 7001, name: 'Main' },
        { id: 7002, name: 'Back' },
      ],
      items: [
        {
          id: 71001,
          name: 'Mug',
          barcode: '0004006381333',
          stock: [
            { warehouse: 'Main', quantity: 5 },
            { warehouse: 'Back', quantity: 2 },
          ],
        },
        {
          id: 71002,
          name: 'T-shirt',
          variants: [{ id: 710021, name: 'S', barcode: 'ÇAY-0042/ü', stock: [{ warehouse: 'Main', quantity: 3 }] }],
        },
        { id: 71003, name: 'Pen', barcode: 'PEN-1', stock: [{ warehouse: 'Main', quantity: 0 }] },
        { id: 71004, name: 'Cap', barcode: 'CAP-7', stock: [{ warehouse: 'Main', quantity: 1 }] },
        ...burstItems,
      ],
    },
    {
      name: 'kiosk',
      warehouses_enabled: false,
      items: [
        { id: 72001, name: 'Gum', barcode: '00017', stock: [{ quantity: 9 }] },
        { id: 72002, name: 'Tea', barcode: 'TEA/42', stock: [{ quantity: 0 }] },
        { id: 72003, name: 'Mints', barcode: '00018', stock: [{ quantity: 4 }] },
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

async function readStock(account: string, barcode: string): Promise<unknown[]> {
  const res = await server.request('GET', `${INVENTORY_PATH}?barcodes=${encodeURIComponent(barcode)}`, { token: server.tokens[account]! });
  expect(res.status).toBe(200);
  return ((await res.json()) as { results: unknown[] }).results;
}

const card = (page: Page, barcode: string) => page.locator(`[data-testid="lookups"] [data-barcode="${barcode}"]`);

describe('scanner UI: look up', () => {
  it('shows a scanned barcode with nothing focused: its name and quantity per warehouse', async () => {
    const { page, keys } = await signedInPage(browser, server, 'shop');
    expect(await page.evaluate(() => document.activeElement === document.body || document.activeElement === null)).toBe(true);
    await keys.scan('0004006381333');
    const mug = card(page, '0004006381333');
    await expect.poll(() => mug.getAttribute('data-state')).toBe('found');
    expect(await mug.locator('.card-name').textContent()).toBe('Mug');
    expect(await mug.locator('[data-warehouse="Main"] .qty').textContent()).toBe('5');
    expect(await mug.locator('[data-warehouse="Back"] .qty').textContent()).toBe('2');
    expect(await page.getByTestId('banner').getAttribute('data-tone')).toBe('ok');
    await page.context().close();
  });

  it('keeps the characters of a scan exactly: leading zeros, slash, dash, non-ASCII; names the variant', async () => {
    const { page, keys } = await signedInPage(browser, server, 'shop');
    await keys.scan('ÇAY-0042/ü');
    const shirt = card(page, 'ÇAY-0042/ü');
    await expect.poll(() => shirt.getAttribute('data-state')).toBe('found');
    expect(await shirt.locator('.card-name').textContent()).toBe('T-shirt / S');
    expect(await shirt.locator('.card-barcode').textContent()).toBe('ÇAY-0042/ü');
    await page.context().close();
  });

  it('shows an unknown barcode as unknown, in the error state', async () => {
    const { page, keys } = await signedInPage(browser, server, 'shop');
    await keys.scan('99999999');
    const unknown = card(page, '99999999');
    await expect.poll(() => unknown.getAttribute('data-state')).toBe('unknown');
    expect(await unknown.locator('.card-name').textContent()).toBe('Unknown barcode');
    expect(await page.getByTestId('banner').getAttribute('data-tone')).toBe('error');
    expect(await page.getByTestId('banner').textContent()).toContain('Unknown barcode: 99999999');
    // A barcode of another account is unknown too.
    await keys.scan('00017');
    await expect.poll(() => card(page, '00017').getAttribute('data-state')).toBe('unknown');
    await page.context().close();
  });

  it("never lets a scan's Enter press the focused button", async () => {
    const { page, keys } = await signedInPage(browser, server, 'shop');
    await page.getByTestId('sign-out').focus();
    await keys.scan('PEN-1');
    await expect.poll(() => card(page, 'PEN-1').getAttribute('data-state')).toBe('found');
    // Still signed in: the Enter went to the scan, not to "Sign out".
    expect(await page.getByTestId('account').textContent()).toBe('shop');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('sign-out');
    // The same button does sign out with a person's Enter, so the check above could fail.
    await keys.press('Enter');
    await page.locator('#signin-input').waitFor();
    await page.context().close();
  });

  it('delivers 20 back-to-back scans at 1 ms per key, all of them, in order', async () => {
    const { page, keys } = await signedInPage(browser, server, 'shop');
    for (const item of burstItems) await keys.scan(item.barcode, { gapMs: 1 });
    const cards = page.locator('[data-testid="lookups"] .card');
    await expect.poll(() => cards.count()).toBe(20);
    await expect.poll(() => page.locator('[data-testid="lookups"] .card-found').count(), { timeout: 15_000 }).toBe(20);
    const shown = await cards.evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-barcode')));
    expect(shown).toEqual(burstItems.map((i) => i.barcode).reverse()); // newest first
    expect(await card(page, burstItems[7]!.barcode).locator('[data-warehouse="Main"] .qty').textContent()).toBe('7');
    await page.context().close();
  });

  it('accepts Tab as the scanner suffix, typed entry and a pasted list', async () => {
    const { page, keys } = await signedInPage(browser, server, 'shop');
    await keys.scan('CAP-7', { suffix: 'Tab' });
    await expect.poll(() => card(page, 'CAP-7').getAttribute('data-state')).toBe('found');

    await page.locator('#manual-barcode').focus();
    await keys.type('PEN-1');
    await keys.press('Enter');
    await expect.poll(() => card(page, 'PEN-1').getAttribute('data-state')).toBe('found');

    await page.locator('#pasted-barcodes').fill('0004006381333\nnope-1\nÇAY-0042/ü');
    await page.getByRole('button', { name: 'Look up all' }).click();
    await expect.poll(() => card(page, 'nope-1').getAttribute('data-state')).toBe('unknown');
    await expect.poll(() => card(page, '0004006381333').getAttribute('data-state')).toBe('found');
    await expect.poll(() => card(page, 'ÇAY-0042/ü').getAttribute('data-state')).toBe('found');
    await page.context().close();
  });

  it('follows the scan settings, remembered on the device, and the sound switch', async () => {
    const { page, keys } = await signedInPage(browser, server, 'shop');
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByLabel('Shortest scan while a field has focus (characters)').fill('6');
    await page.getByLabel('Scanner suffix').selectOption('Enter only');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByRole('button', { name: 'Sound on' }).click();
    await page.reload();
    await page.locator('.scanner[data-ready="true"]').waitFor();
    await page.getByRole('button', { name: 'Sound off' }).waitFor();

    // 5 characters at 20 ms into a focused field: shorter than 6 and slower than a scanner, so typing;
    // and Tab is no longer a suffix, so it moves the focus as usual.
    await page.locator('#manual-barcode').focus();
    await keys.scan('CAP-7', { gapMs: 20, suffix: 'Tab' });
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).not.toBe('manual-barcode');
    expect(await page.locator('#manual-barcode').inputValue()).toBe('CAP-7');
    await keys.press('Escape');
    await keys.scan('0004006381333', { suffix: 'Tab' }); // Tab is no longer a suffix
    await keys.scan('PEN-1X');
    await expect.poll(() => card(page, 'PEN-1X').getAttribute('data-state')).toBe('unknown');
    const shown = await page
      .locator('[data-testid="lookups"] .card')
      .evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-barcode')));
    expect(shown).toEqual(['PEN-1X']);
    await page.context().close();
  });
});

describe('scanner UI: set stock', () => {
  it('warehouse scenario: scan, type the quantity, Enter; saved in the chosen warehouse (checked through the API)', async () => {
    const { page, keys } = await signedInPage(browser, server, 'shop');
    expect(await page.getByTestId('warehouse-select').inputValue()).toBe('Main');
    await keys.press('F3');
    await keys.scan('0004006381333');
    const quantity = page.locator('#quantity');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('quantity');
    await keys.type('17');
    await keys.press('Enter');
    const saved = page.locator('[data-testid="outcomes"] li').first();
    await expect.poll(() => saved.getAttribute('data-state')).toBe('saved');
    expect(await saved.textContent()).toContain('Saved: 17 (was 5)');
    expect(await quantity.inputValue()).toBe('');
    expect(await readStock('shop', '0004006381333')).toEqual([
      expect.objectContaining({ warehouse_name: 'Main', quantity: 17 }),
      expect.objectContaining({ warehouse_name: 'Back', quantity: 2 }),
    ]);

    // Another warehouse, chosen with the keyboard and remembered after a reload.
    await page.getByTestId('warehouse-select').selectOption('Back');
    await page.reload();
    await page.locator('.scanner[data-ready="true"]').waitFor(); // the warehouse list has arrived
    expect(await page.getByTestId('warehouse-select').inputValue()).toBe('Back');
    await keys.press('F3');
    // The Mug is on screen again already (the work of before the reload comes back), its field
    // focused: wait for this scan's own lookup before typing, as a person waits for the card.
    const looked = page.waitForResponse((r) => r.url().includes('0004006381333'));
    await keys.scan('0004006381333');
    await looked;
    await page.locator('#quantity:enabled:focus').waitFor();
    await keys.type('40');
    await keys.press('Enter');
    await expect.poll(() => page.locator('[data-testid="outcomes"] li').first().getAttribute('data-state')).toBe('saved');
    expect(await readStock('shop', '0004006381333')).toEqual([
      expect.objectContaining({ warehouse_name: 'Main', quantity: 17 }),
      expect.objectContaining({ warehouse_name: 'Back', quantity: 40 }),
    ]);
    await page.context().close();
  });

  it('shows a bad quantity next to the row and changes nothing', async () => {
    const { page, keys } = await signedInPage(browser, server, 'shop');
    await keys.press('F3');
    await keys.scan('PEN-1');
    await expect.poll(() => page.locator('.set-target [data-state]').getAttribute('data-state')).toBe('found');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('quantity');
    await keys.type('1.5');
    await keys.press('Enter');
    const row = page.locator('[data-testid="outcomes"] li').first();
    await expect.poll(() => row.getAttribute('data-state')).toBe('rejected');
    // The API's own message is for programs; the shop worker is told what to type.
    expect(await row.textContent()).toContain('Type a whole number, such as 12 or -3.');
    expect(await readStock('shop', 'PEN-1')).toEqual([expect.objectContaining({ quantity: 0 })]);
    await page.context().close();
  });

  it('keeps a quantity typed while the item is still being looked up, and Enter then saves it once found', async () => {
    const { page, keys } = await signedInPage(browser, server, 'shop');
    // A slow network: the lookup of CAP-7 reaches the server only when the test lets it go (the
    // server itself is untouched), so the typing below happens while it is in flight, however slow
    // the machine.
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route(
      (url) => url.pathname === INVENTORY_PATH && url.searchParams.get('barcodes') === 'CAP-7',
      async (route) => {
        await released;
        await route.continue();
      },
    );
    await keys.press('F3');
    await keys.scan('CAP-7');
    // The field takes typing from the scan on, while the card still says it is looking up.
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('quantity');
    expect(await page.locator('.set-target [data-state]').getAttribute('data-state')).toBe('loading');
    await keys.type('6');
    await keys.press('Enter');
    await expect.poll(() => page.getByTestId('banner').textContent()).toBe('Looking up CAP-7: 6 is saved as soon as it is found');
    expect(await page.locator('#quantity').inputValue()).toBe('6');
    expect(await page.locator('.set-target [data-state]').getAttribute('data-state')).toBe('loading');
    release();
    const row = page.locator('[data-testid="outcomes"] li').first();
    await expect.poll(() => row.getAttribute('data-state')).toBe('saved');
    expect(await row.getAttribute('data-barcode')).toBe('CAP-7');
    expect(await readStock('shop', 'CAP-7')).toEqual([expect.objectContaining({ warehouse_name: 'Main', quantity: 6 })]);
    expect(await page.locator('#quantity').inputValue()).toBe('');
    await page.context().close();
  });

  it('asks about a quantity below 0 typed while the item is looked up, and saves it only on a second Enter', async () => {
    const { page, keys } = await signedInPage(browser, server, 'kiosk');
    // The lookup is held (as above), so Enter arrives before the item is found, on any machine.
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route(
      (url) => url.pathname === INVENTORY_PATH && url.searchParams.get('barcodes') === '00018',
      async (route) => {
        await released;
        await route.continue();
      },
    );
    const before = await readStock('kiosk', '00018');
    await keys.press('F3');
    await keys.scan('00018');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('quantity');
    await keys.type('-2');
    await keys.press('Enter');
    await expect.poll(() => page.getByTestId('banner').getAttribute('data-tone')).toBe('busy');
    release();
    await expect.poll(() => page.getByTestId('banner').getAttribute('data-tone')).toBe('warn');
    expect(await page.locator('[data-testid="outcomes"] li').count()).toBe(0);
    expect(await readStock('kiosk', '00018')).toEqual(before);
    await keys.press('Enter');
    await expect.poll(() => page.locator('[data-testid="outcomes"] li').first().getAttribute('data-state')).toBe('saved');
    expect(await readStock('kiosk', '00018')).toEqual([expect.objectContaining({ barcode: '00018', quantity: -2 })]);
    await page.context().close();
  });

  it('takes a scan that arrives while the quantity field has focus as the next barcode, not as a quantity', async () => {
    const { page, keys } = await signedInPage(browser, server, 'shop');
    await keys.press('F3');
    await keys.scan('PEN-1');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('quantity');
    await keys.scan('00040063'); // digits a quantity field would happily take
    await expect.poll(() => page.locator('.set-target [data-barcode]').getAttribute('data-barcode')).toBe('00040063');
    expect(await page.locator('#quantity').inputValue()).toBe('');
    await page.context().close();
  });

  it('no-warehouse scenario: no warehouse controls; set stock saves the single figure (checked through the API)', async () => {
    const { page, keys } = await signedInPage(browser, server, 'kiosk');
    expect(await page.getByTestId('warehouse-select').count()).toBe(0);
    await keys.scan('00017');
    const gum = card(page, '00017');
    await expect.poll(() => gum.getAttribute('data-state')).toBe('found');
    expect(await gum.locator('.qty').textContent()).toBe('9');
    expect(await gum.locator('[data-warehouse]').count()).toBe(0);

    await keys.press('F3');
    await keys.scan('00017');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('quantity');
    await keys.type('-3');
    await keys.press('Enter');
    // A quantity below 0 is asked about first and saved on the second Enter.
    await expect.poll(() => page.getByTestId('banner').getAttribute('data-tone')).toBe('warn');
    await keys.press('Enter');
    await expect.poll(() => page.locator('[data-testid="outcomes"] li').first().getAttribute('data-state')).toBe('saved');
    expect(await readStock('kiosk', '00017')).toEqual([{ item: 72001, liquid_stock: null, barcode: '00017', quantity: -3 }]);
    await page.context().close();
  });

  it('list mode: each scan counts one; unknown rows are held back; one request sets the rest, shown row by row', async () => {
    const { page, keys } = await signedInPage(browser, server, 'kiosk');
    await keys.press('F4');
    await keys.scan('TEA/42');
    await keys.scan('TEA/42');
    await keys.scan('TEA/42');
    await keys.scan('NOPE-9');
    const rows = page.locator('[data-testid="list-rows"] tbody tr');
    await expect.poll(() => rows.count()).toBe(2);
    expect(await page.getByLabel('Counted quantity of TEA/42').inputValue()).toBe('3');
    const tea = page.locator('tr[data-barcode="TEA/42"]');
    await expect.poll(() => tea.locator('.row-name strong').textContent()).toBe('Tea');
    // What sending will do, before it is sent: stock 0 becomes 3.
    expect(await tea.getByTestId('row-stock').textContent()).toBe('0 → 3');
    const nope = page.locator('tr[data-barcode="NOPE-9"]');
    await expect.poll(() => nope.getAttribute('data-state')).toBe('unknown');
    expect(await page.getByTestId('held-back').textContent()).toContain('1 unknown barcode is held back and not sent');
    expect(await page.getByTestId('send-list').textContent()).toBe('Set stock to the counted numbers (1 row)');
    await page.getByTestId('send-list').click();
    await expect.poll(() => tea.getAttribute('data-state')).toBe('saved');
    expect(await tea.textContent()).toContain('Saved: 3 (was 0)');
    expect(await nope.getAttribute('data-state')).toBe('unknown');
    expect(await readStock('kiosk', 'TEA/42')).toEqual([expect.objectContaining({ quantity: 3 })]);
    await page.context().close();
  });

  it('a quantity set in the UI survives a restart of the server', async () => {
    const { page, keys } = await signedInPage(browser, server, 'kiosk');
    await keys.press('F3');
    await keys.scan('TEA/42');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('quantity');
    await keys.type('12');
    await keys.press('Enter');
    await expect.poll(() => page.locator('[data-testid="outcomes"] li').first().getAttribute('data-state')).toBe('saved');
    await page.context().close();
    await server.close();
    const again = await startServer({ store: await openStore(server.dbFile), port: 0 });
    try {
      const res = await fetch(`${again.url}${INVENTORY_PATH}?barcodes=TEA%2F42`, {
        headers: { authorization: `Token ${server.tokens.kiosk}` },
      });
      expect(((await res.json()) as { results: unknown[] }).results).toEqual([expect.objectContaining({ quantity: 12 })]);
    } finally {
      await again.close();
    }
    await server.stop(); // already closed: removes its files
    server = await startUiServer(catalogue); // later tests get a fresh server
  });
});

describe('scanner UI: sign-in', () => {
  it('signs in once with a link, removes the code from the address bar, remembers the device, signs out', async () => {
    const context = await browser.newContext();
    context.setDefaultTimeout(10_000);
    const page = await context.newPage();
    const { code } = await server.store.signIn.createCode('shop');
    await page.goto(`${server.url}/#signin=${code}`);
    await page.getByTestId('account').filter({ hasText: 'shop' }).waitFor();
    expect(page.url()).toBe(`${server.url}/`);
    expect(await page.evaluate(() => localStorage.getItem('barcode-inventory.token'))).toMatch(/^bi_/);

    await page.reload();
    await page.getByTestId('account').filter({ hasText: 'shop' }).waitFor();

    await page.getByTestId('sign-out').click();
    await page.locator('#signin-input').waitFor();
    expect(await page.evaluate(() => localStorage.getItem('barcode-inventory.token'))).toBeNull();

    // The link worked once: opening it again is refused with a clear message.
    await page.goto(`${server.url}/#signin=${code}`);
    await page.locator('.signin-error').waitFor();
    expect(await page.locator('.signin-error').textContent()).toContain('already used, has expired');
    await context.close();
  });

  it('signs in with a pasted token or a pasted link, and refuses a bad token', async () => {
    const context = await browser.newContext();
    context.setDefaultTimeout(10_000);
    const page = await context.newPage();
    await page.goto(`${server.url}/`);
    // The server's "Invalid token." is for API clients: the person is told what was wrong with what they pasted.
    await page.locator('#signin-input').fill('bi_not-a-real-token');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.locator('.signin-error').waitFor();
    expect(await page.locator('.signin-error').textContent()).toBe(
      'This API token is not valid: it was revoked or mistyped. Create a new one on the server computer.',
    );
    await page.locator('#signin-input').fill('hello there');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.locator('.signin-error').textContent()).toContain('neither a sign-in link nor an API token');
    // The example link shows this server's own address and port, not a default one.
    expect(await page.locator('#signin-input').getAttribute('placeholder')).toContain(`${server.url}/#signin=`);

    await page.locator('#signin-input').fill(server.tokens.kiosk!);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByTestId('account').filter({ hasText: 'kiosk' }).waitFor();
    await page.getByTestId('sign-out').click();

    const { code } = await server.store.signIn.createCode('shop');
    await page.locator('#signin-input').fill(`${server.url}/#signin=${code}`);
    await page.keyboard.press('Enter');
    await page.getByTestId('account').filter({ hasText: 'shop' }).waitFor();
    await context.close();
  });
});
