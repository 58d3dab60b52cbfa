// Accessibility in a real Chromium: axe-core (injected into the page through playwright) finds no
// serious or critical violation on any view at 1280 and 360 px; and every control is reachable with
// Tab and the day's work can be done with the keyboard alone (shop PCs often have no mouse at the
// counter).
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVENTORY_PATH, STOCKTAKES_PATH } from '../../shared/index.ts';
import { seriousViolations } from '../support/axe.ts';
import { launchChromium } from '../support/browser.ts';
import { type LinkedPair, startLinkedPair } from '../support/linked-ui.ts';
import { call } from '../support/stocktake-fixtures.ts';
import { type TestServer, exampleCatalogue } from '../support/test-server.ts';
import { type VirtualKeyboard, signedInPage, startUiServer, openSettings } from '../support/ui-harness.ts';

let browser: Browser;
let server: TestServer;

beforeAll(async () => {
  [browser, server] = await Promise.all([launchChromium(), startUiServer(exampleCatalogue())]);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const focusedId = (page: Page) => page.evaluate(() => document.activeElement?.id ?? '');

describe.each([1280, 360])('axe-core at %i px', (width) => {
  const open = () => signedInPage(browser, server, 'north', { width, height: 800 });

  it('finds nothing serious on the scanner views: look up, set stock, list, settings', async () => {
    const { page, keys } = await open();
    const found: Record<string, string[]> = {};
    for (const code of ['8690000000017', '0109501101530003\u001d10L1', 'NOT-THERE']) await keys.scan(code);
    await page.locator('[data-testid="lookups"] [data-state="unknown"]').nth(1).waitFor();
    await page.locator('[data-testid="lookups"] [data-barcode="8690000000017"]').getByText('History').click();
    await page.locator('[data-testid="history-entry"], [data-testid="stock-history"] p').first().waitFor();
    found.lookup = await seriousViolations(page);

    await keys.press('F3');
    await keys.scan('8690000000024');
    await expect.poll(() => focusedId(page)).toBe('quantity');
    await keys.type('3');
    await keys.press('Enter');
    await page.locator('[data-testid="outcomes"] li').first().waitFor();
    await keys.scan('NOT-THERE');
    await page.locator('.set-target [data-state="unknown"]').waitFor();
    found.set = await seriousViolations(page);

    await keys.press('F4');
    for (const code of ['8690000000017', '8690000000024', 'NOT-THERE']) await keys.scan(code);
    await page.locator('tr[data-state="unknown"]').waitFor();
    await page.getByLabel('Counted quantity of 8690000000024').fill('x');
    await page.getByTestId('send-list').click();
    await page.locator('tr[data-state="saved"]').waitFor();
    found.list = await seriousViolations(page);

    await openSettings(page);
    await page.getByTestId('start-scanner-test').click();
    await keys.scan('Yz-Qa/Mi.07', { gapMs: 2 });
    await page.getByTestId('scanner-test-result').waitFor();
    found.settings = await seriousViolations(page);
    expect(found).toEqual({ lookup: [], set: [], list: [], settings: [] });
    await page.context().close();
  });

  it('finds nothing serious on the stocktake views: sessions, count, review with its warning and confirmation', async () => {
    const { page, keys } = await open();
    const found: Record<string, string[]> = {};
    await page.getByTestId('stocktake-nav').click();
    await page.getByTestId('new-stocktake').waitFor();
    found.sessions = await seriousViolations(page);
    await page.getByTestId('stocktake-name').fill(`Axe ${width}`);
    await page.getByTestId('create-stocktake').click();
    await page.getByTestId('count-view').waitFor();
    for (const code of ['8690000000017', '8690000000017', 'NOT-THERE']) await keys.scan(code);
    await page.getByTestId('unknown-line').waitFor();
    await page.locator('[data-testid="pending"][data-pending="0"]').waitFor();
    found.count = await seriousViolations(page);
    await page.getByTestId('review-button').click();
    await page.getByTestId('unresolved-warning').waitFor();
    await page.getByTestId('commit-with-unresolved').check();
    await page.getByTestId('commit-button').click();
    await page.getByTestId('confirm-panel').waitFor();
    found.review = await seriousViolations(page);
    expect(found).toEqual({ sessions: [], count: [], review: [] });
    await page.context().close();
  });

  it("finds nothing serious on a counter's views, which leave out what the role may not do: look up, stocktakes, count, sync", async () => {
    const { id } = await call<{ id: number }>(
      server,
      'POST',
      STOCKTAKES_PATH,
      server.tokens.north!,
      { name: `Counter ${width}`, warehouse_name: 'Main' },
      201,
    );
    const { page, keys } = await signedInPage(browser, server, 'north', { width, height: 800 }, 'counter');
    const found: Record<string, string[]> = {};
    await keys.scan('8690000000017');
    await page.locator('[data-testid="lookups"] [data-state="found"]').waitFor();
    found.lookup = await seriousViolations(page);
    await page.getByTestId('stocktake-nav').click();
    await page.getByTestId('manager-starts').waitFor();
    found.sessions = await seriousViolations(page);
    await page.locator(`[data-testid="stocktake-row"][data-id="${id}"]`).getByRole('link', { name: 'Count' }).click();
    await page.getByTestId('count-view').waitFor();
    await keys.scan('8690000000017');
    await page.locator('[data-testid="pending"][data-pending="0"]').waitFor();
    found.count = await seriousViolations(page);
    await page.goto(`${server.url}/#sync`);
    await page.getByTestId('manager-decides').waitFor();
    found.sync = await seriousViolations(page);
    expect(found).toEqual({ lookup: [], sessions: [], count: [], sync: [] });
    await page.context().close();
  });

  it('finds nothing serious on the sign-in screen', async () => {
    const context = await browser.newContext({ viewport: { width, height: 800 } });
    const page = await context.newPage();
    await page.goto(`${server.url}/`);
    await page.locator('#signin-input').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
  });
});

describe.each([1280, 360])('axe-core on the sync views at %i px', (width) => {
  let pair: LinkedPair;
  beforeAll(async () => {
    pair = await startLinkedPair();
  });
  afterAll(async () => {
    await pair?.stop();
  });

  it('finds nothing serious on the indicator in each state and the conflicts view, before and after resolving; Tab reaches every control', async () => {
    const { page, keys } = await signedInPage(browser, pair.laptop.server, 'north', { width, height: 800 });
    const found: Record<string, string[]> = {};
    const shows = (selector: string) => page.locator(`[data-testid="sync-indicator"]${selector}`).waitFor();
    const setMug = (server: TestServer, token: string, quantity: number) =>
      call(server, 'POST', INVENTORY_PATH, token, [{ barcode: '8690000000017', quantity, warehouse_name: 'Main' }]);
    await shows('[data-state="in_sync"]');
    found.inSync = await seriousViolations(page);
    pair.proxy.cutNow();
    await setMug(pair.laptop.server, pair.laptop.token, 4);
    await shows('[data-state="offline"][data-pending="1"]');
    found.offline = await seriousViolations(page);
    await setMug(pair.till, pair.till.tokens.north!, 9);
    pair.proxy.heal();
    await shows('[data-state="in_sync"][data-conflicts="1"]');
    found.conflict = await seriousViolations(page);
    await page.getByTestId('sync-indicator').click();
    await page.locator('[data-testid="conflict"][data-resolved="false"]').waitFor();
    found.conflictsView = await seriousViolations(page);
    // Every control of the sync view (the indicator, Sync now, both "Keep", the typed quantity, Save) is one Tab away.
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    const controls = await labelControls(page);
    expect(new Set(await tabCycle(page, keys)), 'sync view').toEqual(new Set(controls));
    await page.getByTestId('keep-value').first().click();
    await page.locator('[data-testid="conflict"][data-resolved="true"]').waitFor();
    await page.getByTestId('conflict-message').waitFor();
    found.resolved = await seriousViolations(page);
    // A problem in words beside Sync now, its detail opened.
    pair.proxy.cutNow();
    await page.locator('[data-testid="sync-summary"][data-state="offline"]').waitFor();
    await page.getByTestId('sync-problem-detail').locator('summary').click();
    found.problem = await seriousViolations(page);
    expect(found).toEqual({ inSync: [], offline: [], conflict: [], conflictsView: [], resolved: [], problem: [] });
    await page.context().close();
  });
});

/** Presses Tab until the focus comes back around; the controls it visited, in order. */
async function tabCycle(page: Page, keys: VirtualKeyboard): Promise<string[]> {
  const visited: string[] = [];
  for (let i = 0; i < 60; i++) {
    await keys.press('Tab', { gapMs: 60 });
    const id = await page.evaluate(() => document.activeElement?.getAttribute('data-a11y') ?? '');
    if (id !== '' && visited.includes(id)) break;
    if (id !== '') visited.push(id);
  }
  return visited;
}

/** Names every visible control of the page (data-a11y), and returns the names. */
function labelControls(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const isShownInDetails = (el: HTMLElement) => {
      const closed = el.closest('details:not([open])');
      return closed === null || closed.querySelector(':scope > summary')?.contains(el) === true;
    };
    const controls = [...document.querySelectorAll<HTMLElement>('a[href], button, input, select, textarea, summary')].filter(
      (el) =>
        !(el as HTMLButtonElement).disabled &&
        el.getClientRects().length > 0 &&
        getComputedStyle(el).visibility !== 'hidden' &&
        // Inside a closed <details> only its summary is shown (Chromium still gives the rest boxes).
        isShownInDetails(el),
    );
    return controls.map((el, i) => {
      const label = el.getAttribute('aria-label') ?? (el as HTMLInputElement).labels?.[0]?.textContent ?? el.textContent ?? '';
      const name = `${el.tagName.toLowerCase()}#${i}:${label.trim().slice(0, 30)}`;
      el.setAttribute('data-a11y', name);
      return name;
    });
  });
}

describe('keyboard alone', () => {
  it('reaches every control of the scanner and the stocktake views with Tab', async () => {
    const { page, keys } = await signedInPage(browser, server, 'north');
    await keys.scan('8690000000017');
    await page.locator('[data-testid="lookups"] [data-state="found"]').waitFor();
    for (const view of ['lookup', 'list', 'stocktake']) {
      if (view === 'list') {
        await keys.press('F4');
        await keys.scan('8690000000024');
        await page.locator('tr[data-barcode="8690000000024"] .row-name strong', { hasText: 'T-shirt' }).waitFor();
      }
      if (view === 'stocktake') {
        await page.goto(`${server.url}/#stocktake`);
        await page.getByTestId('new-stocktake').waitFor();
      }
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      const controls = await labelControls(page);
      // Radio buttons of one group are one Tab stop (arrow keys move within it).
      const expected = controls.filter((c) => !c.includes(':Add the counted number'));
      expect(new Set(await tabCycle(page, keys)), view).toEqual(new Set(expected));
    }
    await page.context().close();
  });

  it('does the day’s work with keys only: list with "add", settings, a stocktake from start to commit', async () => {
    const { page, keys } = await signedInPage(browser, server, 'north');
    const stock = async (barcode: string) => {
      const res = await server.request('GET', `${INVENTORY_PATH}?barcodes=${barcode}`, { token: server.tokens.north! });
      return ((await res.json()) as { results: { warehouse_name: string; quantity: number }[] }).results.find(
        (r) => r.warehouse_name === 'Main',
      )!.quantity;
    };
    const tabTo = async (selector: string) => {
      for (let i = 0; i < 40; i++) {
        if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return;
        await keys.press('Tab', { gapMs: 60 });
      }
      throw new Error(`Tab never reached ${selector}`);
    };

    // List: count, choose "add" with the arrow key, send with Enter.
    const before = await stock('8690000000024');
    await keys.press('F4');
    await keys.scan('8690000000024');
    await keys.scan('8690000000024');
    await page.locator('tr[data-barcode="8690000000024"] .row-name strong', { hasText: 'T-shirt' }).waitFor();
    await tabTo('[data-testid="list-action-set"]');
    await keys.press('ArrowDown');
    expect(await page.getByTestId('list-action-add').isChecked()).toBe(true);
    await tabTo('[data-testid="send-list"]');
    await keys.press('Enter');
    await page.locator('tr[data-barcode="8690000000024"][data-state="saved"]').waitFor();
    expect(await stock('8690000000024')).toBe(before + 2);

    // Settings: open, change a value, save, all with keys.
    await tabTo('[data-testid="settings-button"]');
    await keys.press('Enter');
    await expect.poll(() => page.evaluate(() => document.activeElement?.closest('.settings') !== null)).toBe(true);
    await tabTo('[data-testid="reading-select"]');
    await keys.press('ArrowDown');
    await tabTo('.settings button[type="submit"]');
    await keys.press('Enter');
    await expect
      .poll(() => page.evaluate(() => JSON.parse(localStorage.getItem('barcode-inventory.settings') ?? '{}').reading))
      .toBe('characters');

    // A stocktake: start it, count, review, commit with the unknown barcode left out, confirm.
    await tabTo('[data-testid="stocktake-nav"]');
    await keys.press('Enter');
    await page.getByTestId('new-stocktake').waitFor();
    await tabTo('[data-testid="stocktake-name"]');
    await keys.type('Keys only', { gapMs: 120 });
    await tabTo('[data-testid="create-stocktake"]');
    await keys.press('Enter');
    await page.getByTestId('count-view').waitFor();
    await keys.scan('8690000000017');
    await keys.scan('NOT-THERE');
    await page.locator('[data-testid="pending"][data-pending="0"]').waitFor();
    await page.getByTestId('unknown-line').waitFor();
    await tabTo('[data-testid="review-button"]');
    await keys.press('Enter');
    await page.getByTestId('unresolved-warning').waitFor();
    await tabTo('[data-testid="commit-with-unresolved"]');
    await keys.press('Space');
    await tabTo('[data-testid="commit-button"]');
    await keys.press('Enter');
    await tabTo('[data-testid="confirm-commit"]');
    await keys.press('Enter');
    await page.locator('[data-testid="review-view"][data-status="committed"]').waitFor();
    expect(await stock('8690000000017')).toBe(1);
    await page.context().close();
  });
});
