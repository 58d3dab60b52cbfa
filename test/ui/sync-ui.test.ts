// Sync in the scanner UI, in a real Chromium against real servers (issue 13, "Done when"): a laptop
// linked to the till counts a stocktake while cut off from it, the till sells meanwhile, the link
// comes back, and both UIs show count − sales with a history that explains each step; the indicator
// goes offline → N waiting → in sync on the way. Then a conflict (quantities set without knowing of
// each other) is found from the indicator and resolved with the keyboard alone.
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ADJUST_PATH, INVENTORY_PATH, SYNC_CONFLICTS_PATH, type Conflict } from '../../shared/index.ts';
import { launchChromium } from '../support/browser.ts';
import { type LinkedPair, startLinkedPair } from '../support/linked-ui.ts';
import { call } from '../support/stocktake-fixtures.ts';
import type { TestServer } from '../support/test-server.ts';
import { type VirtualKeyboard, signedInPage } from '../support/ui-harness.ts';

const MUG = '8690000000017'; // 5 in Main in the example catalogue

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

const indicator = (page: Page) => page.getByTestId('sync-indicator');
/** Waits until the indicator shows `state` (and, when given, that many waiting and conflicts). */
const indicatorShows = (page: Page, state: string, extra: { pending?: number; conflicts?: number } = {}) =>
  page
    .locator(
      `[data-testid="sync-indicator"][data-state="${state}"]` +
        (extra.pending === undefined ? '' : `[data-pending="${extra.pending}"]`) +
        (extra.conflicts === undefined ? '' : `[data-conflicts="${extra.conflicts}"]`),
    )
    .waitFor();

const sell = (till: TestServer, reference: string) =>
  call(till, 'POST', ADJUST_PATH, till.tokens.north!, [{ barcode: MUG, delta: -1, warehouse_name: 'Main', reason: 'sale', reference }]);
const setOn = (server: TestServer, token: string, quantity: number, reference: string) =>
  call(server, 'POST', INVENTORY_PATH, token, [{ barcode: MUG, quantity, warehouse_name: 'Main', reference }]);

/** Looks the mug up in the scanner and opens its history: the quantity in Main and the steps, newest first. */
async function mugOnScreen(page: Page, keys: VirtualKeyboard, expected: { quantity: string; steps: string[] }): Promise<void> {
  await page.getByTestId('scanner-nav').click();
  await page.locator('.scanner[data-ready="true"]').waitFor();
  await keys.press('F2');
  await keys.scan(MUG);
  const card = page.locator(`[data-testid="lookups"] article[data-barcode="${MUG}"][data-state="found"]`).first();
  await expect.poll(() => card.locator('[data-warehouse="Main"] .qty').textContent()).toBe(expected.quantity);
  await card.getByText('History').click();
  const steps = () =>
    card
      .locator('[data-testid="history-entry"]')
      .evaluateAll((entries) =>
        entries
          .filter((e) => e.querySelector('.h-where')?.textContent === 'Main')
          .map((e) => `${e.getAttribute('data-kind')} ${e.getAttribute('data-value')}`),
      );
  await expect.poll(steps).toEqual(expected.steps);
}

describe('sync in the scanner UI', () => {
  let pair: LinkedPair;
  beforeEach(async () => {
    pair = await startLinkedPair();
  });
  afterEach(async () => {
    await pair?.stop();
  });

  it('a count made on a cut-off laptop and the till’s sales meanwhile end up as count − sales on both, step by step', async () => {
    const { till, laptop, proxy } = pair;
    const onLaptop = await signedInPage(browser, laptop.server, 'north');
    const onTill = await signedInPage(browser, till, 'north');
    const { page, keys } = onLaptop;

    // Linked: the laptop says it is in sync; the till follows nobody and shows no indicator.
    await indicatorShows(page, 'in_sync', { pending: 0, conflicts: 0 });
    expect(await indicator(page).textContent()).toBe('In sync');
    await onTill.page.locator('header.topbar[data-sync="unlinked"]').waitFor();
    expect(await indicator(onTill.page).count()).toBe(0);

    // The link goes down: offline since …, and scanning goes on.
    proxy.cutNow();
    await indicatorShows(page, 'offline', { pending: 0 });
    expect(await indicator(page).textContent()).toMatch(/^Offline since \S/);

    // The laptop counts the mug on the shelf: 3, with the scanner (keys at scanner speed).
    await page.getByTestId('stocktake-nav').click();
    await page.getByTestId('stocktake-name').fill('Mugs');
    await page.getByTestId('stocktake-warehouse').selectOption('Main');
    await page.getByTestId('create-stocktake').click();
    await page.getByTestId('count-view').waitFor();
    for (let i = 0; i < 3; i++) await keys.scan(MUG);
    await page.locator('[data-testid="pending"][data-pending="0"]').waitFor();
    await page.locator(`[data-testid="line"][data-barcode="${MUG}"][data-counted="3"]`).waitFor();

    // Meanwhile the till sells two, after the count.
    await sell(till, 'receipt 1');
    await sell(till, 'receipt 2');

    // The laptop commits the count, still cut off: the movement waits on the laptop.
    await page.getByTestId('review-button').click();
    await page.getByTestId('review-view').waitFor();
    await page.getByTestId('commit-button').click();
    await page.getByTestId('confirm-commit').click();
    await page.locator('[data-testid="commit-result"][data-applied="1"][data-failed="0"]').waitFor();
    await indicatorShows(page, 'offline', { pending: 1 });
    expect(await indicator(page).textContent()).toMatch(/^Offline since .+ · 1 waiting$/);

    // The link comes back; the laptop reaches the till and sends the count (its answer held a moment): 1 waiting.
    const push = pair.holdNextPush();
    proxy.heal();
    await indicatorShows(page, 'waiting', { pending: 1 });
    expect(await indicator(page).textContent()).toBe('1 change waiting');
    push.release();
    await indicatorShows(page, 'in_sync', { pending: 0, conflicts: 0 });

    // Both sides: 3 counted, then the two sales → 1; the history says so, newest first.
    const steps = ['adjust -1', 'adjust -1', 'count 3', 'set 5'];
    await mugOnScreen(page, keys, { quantity: '1', steps });
    await mugOnScreen(onTill.page, onTill.keys, { quantity: '1', steps });
    const history = onTill.page.locator(`[data-testid="lookups"] article[data-barcode="${MUG}"] [data-testid="stock-history"]`).first();
    const text = await history.textContent();
    // The count came from the laptop: the till names who counted, the computer by its label, and the stocktake by both ids.
    expect(text).toMatch(/5 → 3\s*Counted 3 · Stocktake \(stocktake:\d+@[a-z0-9]+\) · by the scanner \(sign-in link\) · on Laptop 2/);
    expect(text).toMatch(/3 → 2\s*−1 · App or till \(receipt 1\): sale · by test/);
    expect(text).toMatch(/2 → 1\s*−1 · App or till \(receipt 2\): sale · by test/);
    await page.context().close();
    await onTill.page.context().close();
  }, 120_000);

  it('keeps out of the way: the focus stays in the quantity field and nothing moves while the state changes', async () => {
    const { laptop, proxy } = pair;
    const { page, keys } = await signedInPage(browser, laptop.server, 'north');
    await indicatorShows(page, 'in_sync');
    await keys.press('F3');
    await keys.scan(MUG);
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('quantity');
    await keys.type('7');
    const box = async () => JSON.stringify(await page.locator('#quantity').boundingBox());
    const before = await box();
    proxy.cutNow();
    await indicatorShows(page, 'offline');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('quantity');
    expect(await box()).toBe(before);
    await keys.press('Enter');
    await page.locator('[data-testid="outcomes"] li[data-state="saved"]').waitFor();
    await indicatorShows(page, 'offline', { pending: 1 });
    proxy.heal();
    await indicatorShows(page, 'in_sync', { pending: 0 });
    expect(await box()).toBe(before);
    await page.context().close();
  }, 60_000);

  it('lists a conflict from the indicator and resolves it with the keyboard: a new quantity, resolved on both sides', async () => {
    const { till, laptop, proxy } = pair;
    const { page, keys } = await signedInPage(browser, laptop.server, 'north');
    await indicatorShows(page, 'in_sync');

    // Both set the mug without knowing of each other: 4 on the laptop, then 9 at the till, then 7 on
    // the laptop again, still not knowing of the 9: one conflict of two changes made unseen.
    proxy.cutNow();
    await indicatorShows(page, 'offline');
    await setOn(laptop.server, laptop.token, 4, 'shelf recount');
    await setOn(till, till.tokens.north!, 9, 'office');
    await setOn(laptop.server, laptop.token, 7, 'shelf again');
    proxy.heal();
    await indicatorShows(page, 'in_sync', { conflicts: 1 });
    expect(await indicator(page).textContent()).toBe('In sync1 conflict');
    // The till follows nobody, but the conflict is its too: it shows that alone, to be decided there as well.
    const onTill = await signedInPage(browser, till, 'north');
    await indicatorShows(onTill.page, 'unlinked', { conflicts: 1 });
    expect(await indicator(onTill.page).textContent()).toBe('1 conflict');
    // There, the laptop's side is named by the label its owner chose at `sync link`.
    await indicator(onTill.page).click();
    await expect
      .poll(() =>
        onTill.page
          .locator(`[data-testid="conflict"][data-barcode="${MUG}"] [data-testid="conflict-side"] td:nth-child(2)`)
          .allTextContents(),
      )
      .toEqual(['Laptop 2', 'this computer']);
    await onTill.page.getByTestId('scanner-nav').click();

    // From the indicator (Tab to it, Enter) to the conflicts: the latest value and what it overrode,
    // where and how each was recorded, and how many changes were made unseen.
    const tabTo = async (selector: string) => {
      for (let i = 0; i < 40; i++) {
        if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return;
        await keys.press('Tab', { gapMs: 60 });
      }
      throw new Error(`Tab never reached ${selector}`);
    };
    await tabTo('[data-testid="sync-indicator"]');
    await keys.press('Enter');
    const conflict = page.locator(`[data-testid="conflict"][data-barcode="${MUG}"][data-resolved="false"]`);
    await conflict.waitFor();
    const sides = await conflict
      .getByTestId('conflict-side')
      .evaluateAll((rows) =>
        rows.map((r) => [
          r.getAttribute('data-kept'),
          r.getAttribute('data-value'),
          ...[...r.querySelectorAll('td')].slice(1).map((td) => td.textContent),
        ]),
      );
    // When each was recorded, to the second ("Nov 25, 2026, 9:53:07 PM").
    const toTheSecond = expect.stringMatching(/^\w{3} \d{1,2}, \d{4}, \d{1,2}:\d{2}:\d{2}\s[AP]M$/);
    expect(sides).toEqual([
      ['true', '7', 'this computer', toTheSecond, 'Set · App or till (shelf again) · by sync test'],
      ['false', '9', `the upstream (${proxy.url})`, toTheSecond, 'Set · App or till (office) · by test'],
    ]);
    expect(await conflict.getByTestId('conflict-group').textContent()).toMatch(/^2 changes made without seeing each other since /);
    expect(await conflict.getByTestId('conflict-quantity').textContent()).toBe('Now 7 in Main');
    expect(await conflict.getByTestId('keep-value').allTextContents()).toEqual(['Keep 7', 'Keep 9']);

    // Neither: the person counts 6 and types it.
    await tabTo(`[data-testid="conflict"][data-barcode="${MUG}"] [data-testid="conflict-counted"]`);
    await keys.type('6', { gapMs: 120 });
    await keys.press('Enter');
    await page.locator(`[data-testid="conflict"][data-barcode="${MUG}"][data-resolved="true"]`).waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('conflict-message');
    expect(await page.getByTestId('conflict-message').textContent()).toMatch(/^Saved 6: resolved here/);
    await page.locator('[data-testid="conflicts"][data-open="0"]').waitFor();
    await indicatorShows(page, 'in_sync', { conflicts: 0, pending: 0 });

    // The till learns it with the sync: 6, and no open conflict there either.
    await expect.poll(async () => (await call<Conflict[]>(till, 'GET', SYNC_CONFLICTS_PATH, till.tokens.north!)).length).toBe(0);
    const read = await call<{ results: { warehouse_name: string; quantity: number }[] }>(
      till,
      'GET',
      `${INVENTORY_PATH}?barcodes=${MUG}`,
      till.tokens.north!,
    );
    expect(read.results.find((r) => r.warehouse_name === 'Main')!.quantity).toBe(6);
    await onTill.page.locator('header.topbar[data-sync="unlinked"]').waitFor();
    await expect.poll(() => indicator(onTill.page).count()).toBe(0);
    await page.context().close();
    await onTill.page.context().close();
  }, 120_000);

  it('says what is wrong in a shop worker’s words, with the technical detail one click away', async () => {
    const { till, laptop, proxy } = pair;
    const { page } = await signedInPage(browser, laptop.server, 'north');
    await indicatorShows(page, 'in_sync');
    await indicator(page).click();
    const summary = page.getByTestId('sync-summary');
    await page.locator('[data-testid="sync-summary"][data-state="in_sync"]').waitFor();
    expect(await page.getByTestId('sync-now').textContent()).toBe('Sync now');

    // The till stops answering: its name and "not answering", and the English detail only behind Details.
    proxy.cutNow();
    await page.locator('[data-testid="sync-summary"][data-state="offline"][data-problem="upstream_unreachable"]').waitFor();
    const words = page.getByTestId('sync-problem-words');
    expect(await words.textContent()).toMatch(new RegExp(`^${escape(proxy.url)} is not answering\\. Scanning and counting go on here`));
    const detail = page.getByTestId('sync-problem-detail').locator('code');
    expect(await detail.isVisible()).toBe(false);
    await page.getByTestId('sync-problem-detail').getByText('Details').click();
    expect(await detail.textContent()).toMatch(/^The upstream .* cannot be reached: /);

    // The till answers but refuses the laptop's key: an error in words, not "catching up".
    const key = (await till.store.tokens.list('north')).find((t) => t.role === 'sync')!;
    await till.store.tokens.revoke(key.id);
    proxy.heal();
    await page.locator('[data-testid="sync-summary"][data-state="error"][data-problem="token_refused"]').waitFor();
    expect(await summary.textContent()).toBe(
      `${proxy.url} no longer accepts this computer’s sync key. Ask whoever set up sync to link it again.`,
    );
    await page.context().close();
  }, 60_000);

  it('runs a round at once with Sync now and says what it did', async () => {
    const { laptop, loops } = pair;
    const { page } = await signedInPage(browser, laptop.server, 'north');
    await indicatorShows(page, 'in_sync');
    // The background loop is stopped: only the button can send the change made here.
    await loops.stop();
    await setOn(laptop.server, laptop.token, 8, 'shelf');
    await indicator(page).click();
    await page.locator('[data-testid="sync-summary"][data-state="waiting"]').waitFor();
    await page.getByTestId('sync-now').click();
    await page.locator('[data-testid="sync-summary"][data-state="in_sync"]').waitFor();
    expect(await page.getByTestId('sync-now-done').textContent()).toBe('Synced: 1 sent, 0 received.');
    await indicatorShows(page, 'in_sync', { pending: 0 });
    await page.context().close();
  }, 60_000);
});

/** `text` as a regular expression matching itself. */
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('a till whose clock is wrong', () => {
  let pair: LinkedPair;
  beforeAll(async () => {
    pair = await startLinkedPair({ tillClockAheadMs: 7 * 60_000 });
  });
  afterAll(async () => {
    await pair?.stop();
  });

  it('says to check the clock, in the indicator and in the Sync view', async () => {
    const { page } = await signedInPage(browser, pair.laptop.server, 'north');
    await indicatorShows(page, 'in_sync');
    await expect.poll(() => indicator(page).textContent()).toBe('In syncCheck the clock');
    await indicator(page).click();
    expect(await page.getByTestId('clock-warning').textContent()).toBe(
      "The upstream's clock is 7 minutes ahead of this computer's. Set both clocks right: quantities stay correct, but times shown will look wrong.",
    );
    await page.context().close();
  });
});
