// The scanner UI in the shop's language, in a real Chromium: a browser set to Turkish, German or
// French gets every main screen (sign-in, look up, set stock, list, settings with the scanner test,
// the stocktake list, count and review, sync, an admin's People view, a shared scanner's sign-in) without an English word, with numbers in its locale;
// the language chosen in Settings applies at once and is remembered across a reload. Every screen is
// also photographed in each language at 1280 and 360 px into $SCANNER_SHOTS_DIR/languages (default
// <tmp>/scanner-shots/languages) for a person to look at, and checked not to scroll sideways.
import { mkdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVENTORY_PATH, PEOPLE_PATH, STOCKTAKES_PATH, stocktakePath } from '../../shared/index.ts';
import { launchChromium } from '../support/browser.ts';
import { call } from '../support/stocktake-fixtures.ts';
import { type TestServer, exampleCatalogue } from '../support/test-server.ts';
import { signedInPage, startUiServer, openSettings, fullPageShot } from '../support/ui-harness.ts';

const shotsDir = path.join(process.env.SCANNER_SHOTS_DIR ?? path.join(tmpdir(), 'scanner-shots'), 'languages');
const localesDir = path.resolve(import.meta.dirname, '../../renderer/src/locales');

/** The words (three letters or more) of a catalogue's messages, placeholders and plural syntax left out. */
function vocabulary(locale: string): Set<string> {
  const po = readFileSync(path.join(localesDir, `${locale}.po`), 'utf8');
  const words = new Set<string>();
  for (const [, text] of po.matchAll(/^msgstr "(.*)"$/gm)) {
    const plain = text!.replace(/\{\w+(, (plural|select)[^{}]*)?/g, ' ').replace(/\b(one|other|many|few|two|zero|plural)\b/g, ' ');
    for (const word of plain.match(/\p{L}{3,}/gu) ?? []) words.add(word.toLowerCase());
  }
  return words;
}

const english = vocabulary('en');
/** Words of the example catalogue and of commands, the same in every language. */
const data = new Set([
  'mug',
  'shirt',
  'main',
  'backroom',
  'north',
  'shelf',
  'barcode',
  'inventory',
  'account',
  'name',
  'token',
  'create',
  'signin',
  'link',
  'npx',
  'set',
  'gtin',
  'equivalence',
  'http',
  'english',
  'türkçe',
  'deutsch',
  'français',
]);

/** Every word on the page (its text and what assistive technology reads) that is English and not the language's own. */
async function englishWords(page: Page, locale: string): Promise<string[]> {
  const own = vocabulary(locale);
  const text = await page.evaluate(() => {
    const read = [...document.querySelectorAll('[aria-label], [placeholder], [title]')].flatMap((e) =>
      ['aria-label', 'placeholder', 'title'].map((a) => e.getAttribute(a) ?? ''),
    );
    const options = [...document.querySelectorAll('option')].map((o) => o.textContent ?? '');
    return [document.body.innerText, ...read, ...options].join('\n');
  });
  const words = (text.match(/\p{L}{3,}/gu) ?? []).map((w) => w.toLowerCase());
  return [...new Set(words.filter((w) => english.has(w) && !own.has(w) && !data.has(w)))];
}

let browser: Browser;
let server: TestServer;
let stocktakeId: number;

beforeAll(async () => {
  [browser, server] = await Promise.all([launchChromium(), startUiServer(exampleCatalogue())]);
  mkdirSync(shotsDir, { recursive: true });
  const token = server.tokens.north!;
  stocktakeId = (await call(server, 'POST', STOCKTAKES_PATH, token, { name: 'Shelf A', warehouse_name: 'Main' }, 201)).id;
  for (const barcode of ['8690000000017', '8690000000017', '8690000000024', '2000000000015'])
    await call(server, 'POST', stocktakePath(stocktakeId, 'scans'), token, { barcode }, 201);
  await call(server, 'POST', PEOPLE_PATH, await server.newToken('north', 'admin'), { name: 'Ayşe', role: 'counter', pin: '4711' }, 201);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const languages = [
  { browser: 'tr-TR', locale: 'tr', lookup: 'Sorgula', mug: '1.234' },
  { browser: 'de-DE', locale: 'de', lookup: 'Abfragen', mug: '1.234' },
  { browser: 'fr-FR', locale: 'fr', lookup: 'Consulter', mug: '1\u202f234' },
];

describe.each(languages)('the UI in a $browser browser', ({ browser: language, locale, lookup, mug }) => {
  it.each([1280, 360])('shows no English on the main screens at %i px', async (width) => {
    const viewport = { width, height: width === 360 ? 740 : 860 };
    const found: Record<string, string[]> = {};
    const sideways: Record<string, number> = {};
    const check = async (page: Page, screen: string) => {
      found[screen] = await englishWords(page, locale);
      sideways[screen] = await fullPageShot(page, path.join(shotsDir, `${locale}-${screen}-${page.viewportSize()!.width}.png`));
    };

    // The sign-in screen, before any account.
    const context = await browser.newContext({ viewport, locale: language });
    const signIn = await context.newPage();
    await signIn.goto(`${server.url}/`);
    await signIn.locator('#signin-input').waitFor();
    expect(await signIn.evaluate(() => document.documentElement.lang)).toBe(locale);
    await check(signIn, 'signin');
    await context.close();

    const { page, keys } = await signedInPage(browser, server, 'north', viewport, undefined, language);
    await page
      .getByRole('button', { name: new RegExp(lookup) })
      .first()
      .waitFor();
    // Numbers in the locale: the Mug's 1234 as the language writes it.
    await call(server, 'POST', INVENTORY_PATH, server.tokens.north!, [
      { barcode: '8690000000017', quantity: 1234, warehouse_name: 'Main' },
    ]);
    for (const code of ['8690000000017', '8690000000024', '4000000000006']) await keys.scan(code);
    await page.locator('[data-testid="lookups"] [data-state="unknown"]').waitFor();
    await expect.poll(() => page.locator('[data-barcode="8690000000017"] .qty').first().textContent()).toBe(mug);
    await check(page, 'lookup');

    await keys.press('F3');
    await keys.scan('8690000000024');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('quantity');
    await keys.type('4');
    await keys.press('Enter');
    await page.locator('[data-testid="outcomes"] li[data-state="saved"]').waitFor();
    await keys.scan('8690000000017');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('quantity');
    await keys.type('12a');
    await keys.press('Enter');
    await page.locator('[data-testid="outcomes"] li[data-state="rejected"]').waitFor();
    await check(page, 'set');

    await keys.press('F4');
    for (const code of ['8690000000017', '8690000000017', '8690000000024', '4000000000006']) await keys.scan(code);
    await page.locator('tr[data-barcode="4000000000006"][data-state="unknown"]').waitFor();
    await check(page, 'list');
    await page.getByTestId('send-list').click();
    await page.locator('tr[data-state="saved"]').first().waitFor();
    await check(page, 'list-sent');

    await openSettings(page);
    await page.getByTestId('start-scanner-test').click();
    await keys.scan('Yz-Qa/Mi.07', { gapMs: 2 });
    await page.getByTestId('scanner-test-result').waitFor();
    await check(page, 'settings');
    await openSettings(page);

    await page.getByTestId('stocktake-nav').click();
    await page.locator(`[data-testid="stocktake-row"][data-id="${stocktakeId}"]`).waitFor();
    await check(page, 'stocktake-list');
    await page.goto(`${server.url}/#stocktake/${stocktakeId}`);
    await page.locator('[data-testid="line"][data-barcode="8690000000017"]').waitFor();
    await page.getByTestId('unknown-line').first().waitFor();
    await page.locator('[data-testid="line"][data-barcode="8690000000017"] button[aria-expanded]').click();
    await page.locator('[data-testid="count-history"] [data-testid="history-entry"]').first().waitFor();
    await check(page, 'stocktake-count');
    await page.getByTestId('review-button').click();
    await page.getByTestId('unresolved-warning').waitFor();
    await page.getByTestId('commit-with-unresolved').check();
    await page.getByTestId('commit-button').click();
    await page.getByTestId('confirm-panel').waitFor();
    await check(page, 'stocktake-review');

    await page.goto(`${server.url}/#sync`);
    await page.getByTestId('conflicts').waitFor();
    await page.locator('.notice').first().waitFor();
    await check(page, 'sync');
    await page.context().close();

    // An admin's People view, with a person in it, and a shared scanner's sign-in screen.
    const admin = await signedInPage(browser, server, 'north', viewport, 'admin', language);
    await admin.page.goto(`${server.url}/#people`);
    await admin.page.getByTestId('people-list').locator('li').first().waitFor();
    await check(admin.page, 'people');
    await admin.page.context().close();
    const shared = await browser.newContext({ viewport, locale: language });
    const device = await shared.newPage();
    const { code } = await server.store.signIn.createCode('north', undefined, undefined, 'device');
    await device.goto(`${server.url}/#signin=${code}`);
    await device.getByTestId('person-signin').waitFor();
    await check(device, 'shared-scanner');
    await shared.close();

    expect(found).toEqual(Object.fromEntries(Object.keys(found).map((screen) => [screen, []])));
    expect(sideways, 'pixels each screen scrolls sideways').toEqual(Object.fromEntries(Object.keys(sideways).map((screen) => [screen, 0])));
  });
});

describe("the server's refusals", () => {
  it('are said in the UI’s language, by their code, not in the server’s English', async () => {
    const token = server.tokens.north!;
    const id = (await call(server, 'POST', STOCKTAKES_PATH, token, { name: 'Closed', warehouse_name: 'Main' }, 201)).id as number;
    const { page, keys } = await signedInPage(browser, server, 'north', undefined, undefined, 'tr-TR');
    await page.goto(`${server.url}/#stocktake/${id}`);
    await page.getByTestId('count-view').waitFor();
    await call(server, 'POST', stocktakePath(id, 'commit'), token, {});
    await keys.scan('8690000000017');
    await expect
      .poll(() => page.getByTestId('count-banner').textContent())
      .toBe('8690000000017 sayılmadı: Bu sayım uygulandı: artık değiştirilemez.');
    await page.context().close();
  });
});

describe('choosing the language', () => {
  it('applies at once from Settings and is remembered across a reload, whatever the browser says', async () => {
    const { page } = await signedInPage(browser, server, 'north', undefined, undefined, 'en-US');
    expect(await page.getByTestId('settings-button').textContent()).toBe('Settings');
    // The check of the screens above sees English where there is some.
    expect(await englishWords(page, 'tr')).toEqual(expect.arrayContaining(['settings', 'sign', 'out', 'ready', 'scan']));
    await openSettings(page);
    // Each language named in itself.
    expect(await page.getByTestId('language-select').locator('option').allTextContents()).toEqual([
      'English',
      'Türkçe',
      'Deutsch',
      'Français',
    ]);
    await page.getByTestId('language-select').selectOption('tr');
    await expect.poll(() => page.getByTestId('settings-button').textContent()).toBe('Ayarlar');
    expect(await page.getByTestId('banner').textContent()).toBe('Hazır: bir barkod okutun');
    await page.reload();
    await page.locator('.scanner[data-ready="true"]').waitFor();
    expect(await page.getByTestId('settings-button').textContent()).toBe('Ayarlar');
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('tr');
    await page.context().close();
  });
});
