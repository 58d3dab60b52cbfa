// What the scanner view takes as a scan, in a real Chromium against the real server: short internal
// codes, control characters, slow keys, GS1 element strings (separator as Ctrl+] or a substitute),
// a US-set scanner on a German PC (by key position), the scanner test in Settings, GTIN equivalence,
// and each mode's own status banner.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVENTORY_PATH } from '../../shared/index.ts';
import { launchChromium } from '../support/browser.ts';
import type { TestServer } from '../support/test-server.ts';
import { type KeyStroke, holdLookup, signedInPage, startUiServer } from '../support/ui-harness.ts';

const catalogue = {
  accounts: [
    {
      name: 'shop',
      warehouses_enabled: true,
      warehouses: [{ id: 8001, name: 'Main' }],
      items: [
        { id: 81001, name: 'Mug', barcode: '4006381333931', stock: [{ warehouse: 'Main', quantity: 5 }] },
        { id: 81002, name: 'Pen', barcode: '111', stock: [{ warehouse: 'Main', quantity: 7 }] },
        { id: 81003, name: 'Shelf label', barcode: 'Zy-7/9.i', stock: [{ warehouse: 'Main', quantity: 2 }] },
        { id: 81004, name: 'Notebook', barcode: '0012345678905', stock: [{ warehouse: 'Main', quantity: 4 }] },
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

const card = (page: Page, barcode: string) => page.locator(`[data-testid="lookups"] [data-barcode="${barcode}"]`);
const banner = (page: Page) => page.getByTestId('banner');
const focusedId = (page: Page) => page.evaluate(() => document.activeElement?.id ?? '');

/** What a US-set scanner's keys are called on a German PC: Y and Z swapped, - on ß, / on Shift+7's place. */
const GERMAN: Record<string, string> = { Z: 'Y', z: 'y', Y: 'Z', y: 'z', '-': 'ß', '/': '-', '.': '.' };
const US_POSITIONS: Record<string, [string, boolean]> = {
  Z: ['KeyZ', true],
  z: ['KeyZ', false],
  Y: ['KeyY', true],
  y: ['KeyY', false],
  '-': ['Minus', false],
  '/': ['Slash', false],
  '.': ['Period', false],
  i: ['KeyI', false],
  Q: ['KeyQ', true],
  a: ['KeyA', false],
  M: ['KeyM', true],
  ']': ['BracketRight', false],
  C: ['KeyC', true],
};
function usScannerOnGermanPc(text: string): KeyStroke[] {
  return [...text].map((ch) => {
    const [code, shift] = US_POSITIONS[ch] ?? (/\d/.test(ch) ? [`Digit${ch}`, false] : [`Key${ch.toUpperCase()}`, ch !== ch.toLowerCase()]);
    return { key: GERMAN[ch] ?? ch, code, shift };
  });
}

describe('what counts as a scan', () => {
  it('takes a short internal code (3 characters) as a scan, also while the quantity field has focus', async () => {
    const { page, keys } = await signedInPage(browser, server, 'shop');
    await keys.scan('111');
    await expect.poll(() => card(page, '111').getAttribute('data-state')).toBe('found');
    await keys.press('F3');
    await keys.scan('4006381333931');
    await expect.poll(() => focusedId(page)).toBe('quantity');
    await keys.scan('111'); // into the focused quantity field, at scanner speed: the next item, not a quantity
    await expect.poll(() => page.locator('.set-target [data-barcode]').getAttribute('data-barcode')).toBe('111');
    await expect.poll(() => page.locator('.set-target [data-state]').getAttribute('data-state')).toBe('found');
    expect(await page.locator('#quantity').inputValue()).toBe('');
    await page.context().close();
  });

  it('refuses a scan with a NUL in it, and says why', async () => {
    const { page, keys } = await signedInPage(browser, server, 'shop');
    await keys.scan('40063\u00008133');
    await expect.poll(() => banner(page).getAttribute('data-tone')).toBe('error');
    expect(await banner(page).textContent()).toContain('Ignored a scan with a control character (40063⟨NUL⟩8133)');
    expect(await page.locator('[data-testid="lookups"] .card').count()).toBe(0);
    await page.context().close();
  });

  it('says why keys typed with nothing focused did nothing', async () => {
    const { page, keys } = await signedInPage(browser, server, 'shop');
    await keys.type('4006');
    await keys.press('Enter');
    await expect.poll(() => banner(page).textContent()).toContain('4 keys came too slowly for a scan');
    expect(await banner(page).textContent()).toContain('use the “Type a barcode” field');
    await page.context().close();
  });
});

describe('GS1', () => {
  it('reads a GS1-128 scan with FNC1 as Ctrl+]: the GTIN finds the EAN-13 item, batch, expiry and serial on the card', async () => {
    const { page, keys } = await signedInPage(browser, server, 'shop');
    const gs: KeyStroke = { key: ']', code: 'BracketRight', ctrl: true };
    const text = (t: string): KeyStroke[] => [...t].map((key) => ({ key }));
    await keys.strokes([...text('010400638133393110L-42'), gs, ...text('17270331'), ...text('21SN9')]);
    const found = page.locator('[data-testid="lookups"] .card').first();
    await expect.poll(() => found.getAttribute('data-state')).toBe('found');
    expect(await found.getAttribute('data-catalogue-barcode')).toBe('4006381333931');
    expect(await found.locator('.card-name').textContent()).toBe('Mug');
    expect(await found.locator('[data-gs1="batch"] dd').textContent()).toBe('L-42');
    expect(await found.locator('[data-gs1="expiry"] dd').textContent()).toBe('Mar 31, 2027');
    expect(await found.locator('[data-gs1="serial"] dd').textContent()).toBe('SN9');
    await page.context().close();
  });

  it('fills Set stock with the count of (37), adds it in List, and takes a substitute separator from Settings', async () => {
    const { page, keys } = await signedInPage(browser, server, 'shop');
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByLabel('GS1 separator sent instead of GS (optional)').fill('~');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await keys.press('F3');
    await keys.scan('0204006381333931~3712');
    await expect.poll(() => page.locator('#quantity').inputValue()).toBe('12');
    expect(await banner(page).textContent()).toContain('the scan says 12');
    await keys.press('F4');
    // The GS1 scan's lookup answers only after the plain scan of the same product: both count on
    // one row all the same (the GTIN forms are one product), however fast the second scan comes.
    const release = await holdLookup(page, (barcodes) => barcodes.split(',').includes('04006381333931'));
    await keys.scan('0204006381333931~3712');
    await keys.scan('4006381333931');
    const counted = page.locator('[data-testid="list-rows"] input[aria-label^="Counted quantity of"]');
    await expect.poll(() => counted.evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).value))).toEqual(['13']);
    release();
    await expect.poll(() => page.getByLabel('Counted quantity of 4006381333931').inputValue()).toBe('13');
    expect(await counted.count()).toBe(1);
    await page.context().close();
  });

  it('refuses a scan that says it is GS1 but does not add up (wrong check digit)', async () => {
    const { page, keys } = await signedInPage(browser, server, 'shop');
    await keys.scan('0104006381333932\u001d10A');
    await expect.poll(() => banner(page).textContent()).toContain("Not a readable GS1 code (the GTIN's check digit is wrong)");
    await page.context().close();
  });
});

describe('keyboard layouts', () => {
  it('reads a US-set scanner on a German PC by key position, and as typed when set to this PC’s layout', async () => {
    const { page, keys } = await signedInPage(browser, server, 'shop');
    const strokes = usScannerOnGermanPc('Zy-7/9.i');
    expect(strokes.map((s) => s.key).join('')).toBe('Yzß7-9.i'); // what the German layout makes of the keys
    await keys.strokes(strokes);
    await expect.poll(() => card(page, 'Zy-7/9.i').getAttribute('data-state')).toBe('found');

    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByTestId('reading-select').selectOption('characters');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await keys.strokes(strokes);
    await expect.poll(() => card(page, 'Yzß7-9.i').getAttribute('data-state')).toBe('unknown');
    await page.context().close();
  });

  it('Settings → Test your scanner learns the layout and the prefix, and scans follow at once', async () => {
    const { page, keys } = await signedInPage(browser, server, 'shop');
    await page.getByTestId('settings-button').click();
    await page.getByTestId('test-barcode').waitFor();
    expect(await page.getByTestId('test-barcode').getByRole('img').getAttribute('aria-label')).toBe('Test barcode: Yz-Qa/Mi.07');
    await page.getByTestId('start-scanner-test').click();
    await page.getByTestId('scanner-test-waiting').waitFor();
    await keys.strokes(usScannerOnGermanPc(']C0Yz-Qa/Mi.07'), { gapMs: 3 });
    const result = page.getByTestId('scanner-test-result');
    await expect.poll(() => result.getAttribute('data-reading')).toBe('positions');
    expect(await result.getAttribute('data-prefix')).toBe(']C0');
    const said = await result.textContent();
    expect(said).toContain('Your scanner types as a US keyboard, and this computer uses another layout');
    expect(said).toContain('It sends “]C0” before each code');
    expect(said).toContain('It ends each scan with Enter.');
    expect(said).toContain('Its keys came 3 ms apart');
    // Nothing else reacted to the test scan.
    expect(await page.locator('[data-testid="lookups"] .card').count()).toBe(0);
    await page.getByTestId('apply-scanner-test').click();
    await page.getByTestId('scanner-test-applied').waitFor();
    await page.getByRole('button', { name: 'Cancel' }).click();
    await keys.strokes(usScannerOnGermanPc(']C0Zy-7/9.i'));
    await expect.poll(() => card(page, 'Zy-7/9.i').getAttribute('data-state')).toBe('found');
    await page.context().close();
  });
});

describe('GTIN equivalence in the UI', () => {
  it('off: the UPC-A form is unknown; on: it finds the EAN-13 item, and Settings says which applies', async () => {
    const { page, keys } = await signedInPage(browser, server, 'shop');
    await keys.scan('012345678905');
    await expect.poll(() => card(page, '012345678905').getAttribute('data-state')).toBe('unknown');
    await page.context().close();

    await server.store.accounts.setGtinEquivalence('shop', true);
    try {
      const again = await signedInPage(browser, server, 'shop');
      await again.keys.scan('012345678905');
      const found = card(again.page, '012345678905');
      await expect.poll(() => found.getAttribute('data-state')).toBe('found');
      expect(await found.locator('.card-name').textContent()).toBe('Notebook');
      expect(await found.locator('.card-barcode').textContent()).toBe('0012345678905');
      expect(await found.locator('.card-scanned').textContent()).toBe('Scanned as 012345678905');
      // Set stock by the other form writes the catalogue's item.
      await again.keys.press('F3');
      await again.keys.scan('00012345678905');
      await expect.poll(() => focusedId(again.page)).toBe('quantity');
      await again.keys.type('9');
      await again.keys.press('Enter');
      await expect.poll(() => again.page.locator('[data-testid="outcomes"] li').first().getAttribute('data-state')).toBe('saved');
      const res = await server.request('GET', `${INVENTORY_PATH}?barcodes=0012345678905`, { token: server.tokens.shop! });
      expect(((await res.json()) as { results: { quantity: number }[] }).results[0]!.quantity).toBe(9);
      await again.page.getByTestId('settings-button').click();
      expect(await again.page.getByTestId('gtin-setting').textContent()).toContain('GTIN matching is on for this account');
      await again.page.context().close();
    } finally {
      await server.store.accounts.setGtinEquivalence('shop', false);
    }
  });
});

describe('each mode has its own status line', () => {
  it("a Look up error is not shown in Set stock; it is still Look up's when coming back", async () => {
    const { page, keys } = await signedInPage(browser, server, 'shop');
    await keys.scan('NOPE-1');
    await expect.poll(() => banner(page).textContent()).toBe('Unknown barcode: NOPE-1');
    await keys.press('F3');
    await expect.poll(() => banner(page).getAttribute('data-tone')).toBe('idle');
    expect(await banner(page).textContent()).toBe('Scan the item whose stock you counted');
    // An unknown barcode in Set stock: no quantity can be saved for it.
    await keys.scan('NOPE-2');
    await expect.poll(() => page.locator('.set-target [data-state]').getAttribute('data-state')).toBe('unknown');
    expect(await page.getByRole('button', { name: 'Save' }).isDisabled()).toBe(true);
    expect(await page.locator('#quantity').isDisabled()).toBe(true);
    await keys.press('F2');
    expect(await banner(page).textContent()).toBe('Unknown barcode: NOPE-1');
    await page.context().close();
  });
});
