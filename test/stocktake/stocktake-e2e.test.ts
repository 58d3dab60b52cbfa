// A new user's stocktake, end to end in a real Chromium against the real server: start a session, scan
// known and unknown barcodes (some repeatedly) from two pages at once, restart the server mid-count,
// review, commit with the uncounted set to zero, then read quantities and history through the API and
// next to a looked-up barcode in the UI.
import { readFileSync } from 'node:fs';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  INVENTORY_PATH,
  MAX_REVIEW_LINES,
  MAX_REVIEW_NOT_SCANNED,
  STOCKTAKES_PATH,
  STOCK_HISTORY_PATH,
  stocktakePath,
} from '../../shared/index.ts';
import { type RunningServer, startServer } from '../../server/start.ts';
import { openStore } from '../../server/store/open-store.ts';
import { BUILT_UI_DIR } from '../../server/http/static-ui.ts';
import { launchChromium } from '../support/browser.ts';
import { call, shopCatalogue } from '../support/stocktake-fixtures.ts';
import type { TestServer } from '../support/test-server.ts';
import { signedInPage, startUiServer } from '../support/ui-harness.ts';

const lineCount = (page: Page, barcode: string, testId = 'line') => page.locator(`[data-testid="${testId}"][data-barcode="${barcode}"]`);
/** Waits until the element shows `text` (the page updates asynchronously). */
const hasText = (locator: Locator, text: string) => locator.filter({ hasText: text }).waitFor();
const allSent = (page: Page) => page.locator('[data-testid="pending"][data-pending="0"]').waitFor();

describe('stocktake in the browser', () => {
  let server: TestServer;
  let restarted: RunningServer | undefined;
  let browser: Browser;
  beforeAll(async () => {
    server = await startUiServer(shopCatalogue(3)); // the UI is built by test/support/build-ui.ts
    browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await restarted?.close();
    await server?.stop();
  });

  it('counts from two pages through a server restart, reviews, commits, and shows the history', async () => {
    const token = server.tokens.shop!;
    // Each page has its own browser context (its own storage): another terminal. Steps wait up to 15 s:
    // scans sent while the server restarts arrive only when it is back.
    const terminal = async () => {
      const opened = await signedInPage(browser, server, 'shop');
      opened.page.context().setDefaultTimeout(15_000);
      return opened;
    };
    const a = await terminal();
    const b = await terminal();

    // Page A starts a session in Main; page B opens the same session.
    await a.page.getByTestId('stocktake-nav').click();
    await a.page.getByTestId('stocktake-name').fill('Shelf A');
    await a.page.getByTestId('stocktake-warehouse').selectOption('Main');
    await a.page.getByTestId('create-stocktake').click();
    await a.page.getByTestId('count-view').waitFor();
    const id = Number(await a.page.getByTestId('count-view').getAttribute('data-stocktake'));
    await b.page.goto(`${server.url}/#stocktake`);
    await b.page.locator(`[data-testid="stocktake-row"][data-id="${id}"] a`, { hasText: 'Count' }).click();
    await b.page.getByTestId('count-view').waitFor();

    // Both scan at once: known barcodes repeatedly, an unknown one twice.
    await Promise.all([
      (async () => {
        for (const code of ['B0001', 'B0001', 'X-404', 'B0001', 'X-404']) await a.keys.scan(code);
      })(),
      (async () => {
        for (const code of ['B0001', '0042/M', 'B0001']) await b.keys.scan(code);
      })(),
    ]);
    await allSent(a.page);
    await allSent(b.page);
    await lineCount(a.page, 'B0001').and(a.page.locator('[data-counted="5"]')).waitFor();
    await lineCount(b.page, 'B0001').and(b.page.locator('[data-counted="5"]')).waitFor(); // B sees A's scans too
    await lineCount(a.page, 'X-404', 'unknown-line').and(a.page.locator('[data-counted="2"]')).waitFor();

    // The server stops mid-count: scans wait on the device, then reach the restarted server.
    const port = server.port;
    await server.close();
    await a.keys.scan('B0002');
    await a.keys.scan('B0002');
    await b.keys.scan('B0002');
    await a.page.locator('[data-testid="pending"][data-pending="2"]').waitFor();
    await hasText(a.page.getByTestId('pending'), 'cannot be reached');
    restarted = await startServer({ store: await openStore(server.dbFile), port, uiDir: BUILT_UI_DIR });
    await allSent(a.page);
    await allSent(b.page);
    await lineCount(a.page, 'B0002').and(a.page.locator('[data-counted="3"]')).waitFor();

    // Undo on page B takes back B's own last scan (a B0002), not A's.
    await b.page.getByTestId('undo').click();
    await lineCount(b.page, 'B0002').and(b.page.locator('[data-counted="2"]')).waitFor();

    // Page A asks every two seconds only for what changed since its last answer; a line removed on
    // page B (its one scan undone) leaves page A too, which then reads every line once.
    const asked: string[] = [];
    a.page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname === stocktakePath(id, 'changes')) asked.push(url.search);
    });
    await b.keys.scan('B0000');
    await allSent(b.page);
    await lineCount(a.page, 'B0000').waitFor();
    await lineCount(a.page, 'B0002').and(a.page.locator('[data-counted="2"]')).waitFor();
    await b.page.getByTestId('undo').click();
    await lineCount(a.page, 'B0000').waitFor({ state: 'detached' });
    expect(asked.length).toBeGreaterThanOrEqual(2);
    expect(asked.filter((search) => !/^\?after=\d+\.\d+$/.test(search))).toHaveLength(1); // every line, once: after the removal

    // An edit on page A replaces the count, and page B shows it at its next refresh; B edits it back.
    const edit = async (page: Page, barcode: string, count: string) => {
      await page.getByRole('button', { name: `Edit the count of ${barcode}` }).click();
      await page.getByTestId('edit-count').fill(count);
      await lineCount(page, barcode).getByRole('button', { name: 'Save' }).click();
    };
    await edit(a.page, 'B0002', '7');
    await lineCount(a.page, 'B0002').and(a.page.locator('[data-counted="7"]')).waitFor();
    await lineCount(b.page, 'B0002').and(b.page.locator('[data-counted="7"]')).waitFor();
    await edit(b.page, 'B0002', '2');
    await lineCount(a.page, 'B0002').and(a.page.locator('[data-counted="2"]')).waitFor();
    const historyButton = lineCount(a.page, 'B0001').getByRole('button', { name: 'History' });
    await historyButton.click();
    await a.page.getByTestId('count-view').getByTestId('stock-history').waitFor();
    expect(await historyButton.getAttribute('aria-expanded')).toBe('true');
    await historyButton.click();
    await a.page.getByTestId('count-view').getByTestId('stock-history').waitFor({ state: 'detached' });

    // Review on page A: book vs counted, what was not scanned, the unknown barcode.
    await a.page.getByTestId('review-button').click();
    await a.page.getByTestId('review-view').waitFor();
    const review = async (barcode: string) => {
      const row = lineCount(a.page, barcode, 'review-line');
      return [await row.getAttribute('data-book'), await row.getAttribute('data-counted')];
    };
    expect(await review('B0001')).toEqual(['10', '5']);
    expect(await review('B0002')).toEqual(['10', '2']);
    expect(await review('0042/M')).toEqual(['4', '1']);
    expect(await a.page.getByTestId('not-scanned-line').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-barcode')))).toEqual([
      'B0000',
    ]);
    await a.page
      .locator('[data-testid="review-unknown"] tr[data-barcode="X-404"][data-resolution="pending"]')
      .filter({ hasText: '2' })
      .waitFor();
    await hasText(a.page.getByTestId('review-unknown-heading'), 'Unknown barcodes: 1 (1 not resolved)');

    // An unresolved unknown barcode holds the commit back with a warning until the person chooses.
    await hasText(a.page.getByTestId('unresolved-warning'), '1 unknown barcode is not resolved');
    expect(await a.page.getByTestId('commit-button').isDisabled()).toBe(true);
    await a.page.getByTestId('commit-with-unresolved').check();

    // Commit, setting the uncounted to zero: an explicit choice, confirmed.
    await a.page.getByTestId('zero-uncounted').check();
    await a.page.getByTestId('commit-button').click();
    await hasText(a.page.getByTestId('confirm-panel'), 'Apply 3 counts and set 1 item to 0?');
    await a.page.getByTestId('confirm-commit').click();
    await a.page.locator('[data-testid="commit-result"][data-applied="4"][data-failed="0"]').waitFor();
    await a.page.locator('[data-testid="review-view"][data-status="committed"]').waitFor();

    // The new quantities and their history, read through the API.
    const api = {
      request: (method: string, path: string, options: { token?: string } = {}) =>
        fetch(restarted!.url + path, { method, headers: { authorization: `Token ${options.token}` } }),
    };
    const read = await call(api, 'GET', `${INVENTORY_PATH}?barcodes=B0000,B0001,B0002,0042/M`, token);
    const inMain = Object.fromEntries(
      read.results
        .filter((r: { warehouse: number }) => r.warehouse === 70)
        .map((r: { barcode: string; quantity: number }) => [r.barcode, r.quantity]),
    );
    expect(inMain).toEqual({ B0000: 0, B0001: 5, B0002: 2, '0042/M': 1 });
    const history = await call(api, 'GET', `${STOCK_HISTORY_PATH}?barcode=B0001&source=stocktake`, token);
    expect(
      history.results.map((h: { old_quantity: number; new_quantity: number; reference: string }) => [
        h.old_quantity,
        h.new_quantity,
        h.reference,
      ]),
    ).toEqual([[10, 5, `stocktake:${id}`]]);

    // Counting on the other page is closed now.
    await b.keys.scan('B0001');
    await hasText(b.page.getByTestId('count-banner'), 'was not counted: This stocktake is committed');

    // The history next to a looked-up barcode in the scanner.
    await a.page.goto(`${restarted.url}/#`);
    await a.page.getByTestId('stocktake-nav').waitFor();
    await a.keys.scan('B0001');
    const card = a.page.locator('article[data-barcode="B0001"][data-state="found"]');
    await card.getByText('History').click();
    await card.locator('[data-testid="history-entry"][data-source="stocktake"]').waitFor();
    await hasText(card.getByTestId('stock-history'), '10 → 5');
  }, 120_000);
});

describe('stocktake review of a large catalogue in the browser', () => {
  const items = MAX_REVIEW_NOT_SCANNED + 20;
  let server: TestServer;
  let browser: Browser;
  beforeAll(async () => {
    server = await startUiServer(shopCatalogue(items));
    browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('lists the first items not scanned, says how many more there are, and offers to zero them all', async () => {
    const token = server.tokens.shop!;
    const { id } = await call<{ id: number }>(server, 'POST', STOCKTAKES_PATH, token, { warehouse_name: 'Main' }, 201);
    await call(server, 'POST', stocktakePath(id, 'scans'), token, { barcode: 'B0001' }, 201);
    const { page } = await signedInPage(browser, server, 'shop');
    await page.goto(`${server.url}/#stocktake/${id}/review`);
    await page.getByTestId('review-view').waitFor();
    await hasText(page.getByTestId('not-scanned-heading'), `Expected but not scanned: ${items} items`);
    expect(await page.getByTestId('not-scanned-line').count()).toBe(MAX_REVIEW_NOT_SCANNED);
    await hasText(page.getByTestId('not-scanned-more'), `The first ${MAX_REVIEW_NOT_SCANNED} by barcode are shown here; 20 more are not.`);
    await hasText(
      page.locator('label.check').filter({ has: page.getByTestId('zero-uncounted') }),
      `Also set the ${items} items expected but not scanned to 0`,
    );
    // What a commit does, in the words of the count semantics (docs/SYNC.md, "A count is a fact at a time").
    await hasText(
      page.locator('.commit-card'),
      "Each counted item's count becomes its stock in Main as of when it was counted; sales and changes recorded after that stay on top.",
    );
  }, 60_000);

  it('shows how far a long commit got while it runs, and where a commit cut short stopped', async () => {
    const token = server.tokens.shop!;
    const { id } = await call<{ id: number }>(server, 'POST', STOCKTAKES_PATH, token, { warehouse_name: 'Main' }, 201);
    await call(server, 'POST', stocktakePath(id, 'scans'), token, { barcode: 'B0001' }, 201);
    // The server's own commit, cut short in its third batch (as by a crash): 100 of 521 counts applied.
    const { id: tokenId } = await server.store.tokens.create('shop', 'cut short', 'manager');
    const caller = { ...(await server.store.accounts.find('shop'))!, tokenId, role: 'manager' as const };
    await expect(
      server.store.stocktakes.commit(
        caller,
        id,
        { zero_uncounted: true },
        {
          onBatch: (batch) => {
            if (batch === 3) throw new Error('power cut');
          },
        },
      ),
    ).rejects.toThrow('power cut');

    const { page } = await signedInPage(browser, server, 'shop');
    await page.goto(`${server.url}/#stocktake/${id}/review`);
    await hasText(
      page.getByTestId('commit-stopped'),
      `The commit stopped after 100 of ${items + 1} counts; resuming applies the rest, none twice.`,
    );

    // Resumed from the UI, the commit is held after its next batch: the page shows how far it got.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let releaseReview!: () => void;
    const reviewHeld = new Promise<void>((resolve) => (releaseReview = resolve));
    const { commit, review } = server.store.stocktakes;
    server.store.stocktakes.commit = (who, session, body) =>
      commit(who, session, body, { afterBatch: (batch) => (batch === 1 ? held : Promise.resolve()) });
    try {
      await page.getByTestId('commit-button').click();
      await hasText(page.getByTestId('confirm-panel'), `Apply the ${items + 1 - 100} counts not applied yet?`);
      await page.getByTestId('confirm-commit').click();
      const progress = page.getByTestId('commit-progress');
      await hasText(progress, `Committing: 150 of ${items + 1} counts done so far.`);
      expect(await progress.getAttribute('role')).toBe('status');
      // The page reads the review again after the answer; held here, as a large one takes seconds.
      server.store.stocktakes.review = async (who, session) => {
        await reviewHeld;
        return review(who, session);
      };
      release();
      await page.locator('[data-testid="commit-result"][data-applied="521"]').waitFor();
      expect(await progress.count()).toBe(0);
      // Committed: no commit button meanwhile (pressed, it would only answer the same result again).
      expect(await page.getByTestId('commit-button').count()).toBe(0);
      releaseReview();
      await page.locator('[data-testid="review-view"][data-status="committed"]').waitFor();
    } finally {
      release();
      releaseReview();
      server.store.stocktakes.commit = commit;
      server.store.stocktakes.review = review;
    }

    // 521 lines: the review lists the 500 that need a look first, says so above them, and the CSV has every one.
    await hasText(page.getByRole('heading', { level: 3 }).first(), `Counted: ${items + 1} items, ${items + 1} differ from the books`);
    await hasText(
      page.getByTestId('review-lines-more'),
      `The ${MAX_REVIEW_LINES} that need a look first are listed below (refused by the commit, then those that differ, in the order counted); ${items + 1 - MAX_REVIEW_LINES} more are not. The CSV has every line.`,
    );
    expect(await page.getByTestId('review-line').count()).toBe(MAX_REVIEW_LINES);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('download-counts').click()]);
    expect(download.suggestedFilename()).toBe(`stocktake-${id}-counts.csv`);
    const csv = readFileSync(await download.path(), 'utf8')
      .trim()
      .split(/\r?\n/);
    expect(csv).toHaveLength(1 + items + 1); // the header, then every line
    expect(csv.filter((row) => row.startsWith('B0001,'))).toHaveLength(1);

    // Its counting page (the browser's Back after the commit) says counting is closed and points to
    // the review; it neither loads the session's lines nor offers to count.
    const linesAsked: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === stocktakePath(id, 'lines')) linesAsked.push(request.url());
    });
    await page.goto(`${server.url}/#stocktake/${id}`);
    await hasText(page.getByTestId('count-view'), 'This stocktake is committed: counting is closed. See the review');
    await page.getByTestId('pending').waitFor();
    expect(await page.getByTestId('lines').count()).toBe(0);
    expect(await page.getByTestId('manual-barcode').count()).toBe(0);
    expect(await page.getByTestId('count-banner').count()).toBe(0); // no "Ready: scan to count"
    expect(linesAsked).toEqual([]);
  }, 60_000);
});
