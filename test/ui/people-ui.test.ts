// Shared scanners in a real Chromium at a shop PC's 1280 px and a phone's 360 px (docs/UI.md, "Shared
// scanners"): a device signed in as a shared scanner asks for a badge; a badge scanned signs its person
// in and the top bar names them; a badge scanned in the middle of a stocktake count switches person and
// is never counted, looked up or sent anywhere but the person sign-in; a PIN signs in too; the role of
// the person decides what is shown; an admin adds a person and gets a badge to print, and revokes a lost
// badge in one click; a badge on a device that is no shared scanner is refused with the reason. axe
// stays clean on each of these screens. Screenshots go to $PEOPLE_SHOTS_DIR (default <tmp>/people-shots).
import { existsSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_PATH, PEOPLE_PATH, PERSON_SIGNIN_PATH, STOCKTAKES_PATH } from '../../shared/index.ts';
import { activateLocale } from '../../renderer/src/common/i18n.ts';
import { peopleTexts, scanTexts } from '../../renderer/src/common/texts.ts';
import { seriousViolations } from '../support/axe.ts';
import { decodeImage, pdfPages } from '../support/barcode-decoder.ts';
import { launchChromium } from '../support/browser.ts';
import { call } from '../support/stocktake-fixtures.ts';
import { type TestServer, exampleCatalogue } from '../support/test-server.ts';
import { type VirtualKeyboard, openTopBarMenu, signedInPage, startUiServer, virtualKeyboard } from '../support/ui-harness.ts';

const SHOTS = process.env.PEOPLE_SHOTS_DIR ?? path.join(tmpdir(), 'people-shots');
const DOCS = path.resolve(import.meta.dirname, '../../docs');

/** docs/UI.md's pictures of shared scanners, at 1280 px: written when missing or with UPDATE_DOCS_SCREENSHOTS=1. */
async function docsShot(page: Page, width: number, name: string): Promise<void> {
  const file = path.join(DOCS, name);
  if (width === 1280 && (!existsSync(file) || process.env.UPDATE_DOCS_SCREENSHOTS)) await page.screenshot({ path: file, fullPage: true });
}

let browser: Browser;
let server: TestServer;
let admin: string;
let sessionId: number;
const badges: Record<string, string> = {};
const ids: Record<string, number> = {};

beforeAll(async () => {
  await activateLocale('en'); // the texts below, as the English UI shows them
  mkdirSync(SHOTS, { recursive: true });
  [browser, server] = await Promise.all([launchChromium(), startUiServer(exampleCatalogue())]);
  admin = await server.newToken('north', 'admin');
  for (const [name, role, pin] of [
    ['Ayşe', 'counter', '4711'],
    ['Bora', 'manager', '2580'],
  ] as const) {
    const made = await call<{ person: { id: number }; badge: string }>(server, 'POST', PEOPLE_PATH, admin, { name, role, pin }, 201);
    badges[name] = made.badge;
    ids[name] = made.person.id;
  }
  sessionId = (await call<{ id: number }>(server, 'POST', STOCKTAKES_PATH, admin, { name: 'Shelf A', warehouse_name: 'Main' }, 201)).id;
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** Every request the page sends that carries a badge, as `METHOD path`: only the person sign-in may. */
function badgeRequests(page: Page): string[] {
  const seen: string[] = [];
  page.on('request', (request) => {
    const carried = `${request.url()} ${request.postData() ?? ''}`;
    if (/BADGE-/i.test(carried)) seen.push(`${request.method()} ${new URL(request.url()).pathname}`);
  });
  return seen;
}

/** A page signed in as a shared scanner of north, showing "Scan your badge". */
async function sharedScanner(viewport: { width: number; height: number }): Promise<{ page: Page; keys: VirtualKeyboard }> {
  const context = await browser.newContext({ viewport });
  context.setDefaultTimeout(10_000);
  const page = await context.newPage();
  const { code } = await server.store.signIn.createCode('north', undefined, undefined, 'device');
  await page.goto(`${server.url}/#signin=${code}`);
  await page.getByTestId('person-signin').waitFor();
  return { page, keys: await virtualKeyboard(page) };
}

const chip = (page: Page) => page.getByTestId('person-chip');

describe.each([1280, 360])('shared scanners at %i px', (width) => {
  const viewport = { width, height: 800 };
  const shot = (page: Page, name: string) => page.screenshot({ path: path.join(SHOTS, `${name}-${width}.png`), fullPage: true });

  it('signs a person in by badge, switches person by the next badge in the middle of a count, and never counts a badge', async () => {
    const { page, keys } = await sharedScanner(viewport);
    const carried = badgeRequests(page);
    await page.getByText(peopleTexts.scanBadge).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, 'badge-signin');
    await docsShot(page, width, 'screenshot-badge-signin.png');

    // A barcode before anyone signed in: nothing is looked up, the screen says to scan a badge.
    await keys.scan('8690000000017');
    await page.getByTestId('person-signin-message').filter({ hasText: peopleTexts.notABadge }).waitFor();

    // Ayşe's badge: she is signed in as a counter, and the top bar names her.
    await keys.scan(badges['Ayşe']!);
    await chip(page)
      .filter({ hasText: peopleTexts.personChip('Ayşe') })
      .waitFor();
    await page.locator('.scanner[data-ready="true"]').waitFor();
    expect(await page.getByTestId('people-nav').count()).toBe(0); // a counter manages no people
    await keys.scan('8690000000017');
    await page.locator('[data-testid="lookups"] [data-barcode="8690000000017"][data-state="found"]').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    // The top bar keeps one row of controls at a shop PC's width with the person in it.
    if (width === 1280) {
      const bar = await page.locator('header.topbar').boundingBox();
      expect(bar!.height).toBeLessThan(80);
    }
    await shot(page, 'signed-in-person');

    // Counting: a scan counts; Bora's badge in the middle switches to Bora and is no line of the count.
    await page.goto(`${server.url}/#stocktake/${sessionId}`);
    await page.getByTestId('count-view').waitFor();
    await keys.scan('8690000000017');
    await page.locator('[data-testid="line"][data-barcode="8690000000017"]').waitFor();
    await keys.scan(badges['Bora']!);
    await chip(page)
      .filter({ hasText: peopleTexts.personChip('Bora') })
      .waitFor();
    await page.getByTestId('count-view').waitFor();
    await shot(page, 'person-switch');
    await keys.scan('8690000000017');
    await page.locator('[data-testid="pending"][data-pending="0"]').waitFor();
    const lines = await call<{ barcode: string; counted: number }[]>(server, 'GET', `${STOCKTAKES_PATH}${sessionId}/lines/`, admin);
    expect(lines.map((l) => l.barcode)).toEqual(['8690000000017']);
    // Who counted: both people's scans reached the session (the line has two).
    expect(lines[0]!.counted).toBeGreaterThanOrEqual(2);

    // Who counted: the review names both, as the manager Bora sees it.
    await page.goto(`${server.url}/#stocktake/${sessionId}/review`);
    await page
      .locator('[data-testid="review-line"][data-barcode="8690000000017"] [data-testid="counted-by"]')
      .filter({ hasText: 'Ayşe' })
      .filter({ hasText: 'Bora' })
      .waitFor();
    await shot(page, 'review-counted-by');
    // Who set: Bora sets the mug's stock; its history says "by Bora".
    await page.goto(`${server.url}/#`);
    await page.locator('.scanner[data-ready="true"]').waitFor();
    await keys.press('F3');
    await keys.scan('8690000000017');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id ?? '')).toBe('quantity');
    await keys.type('6');
    await keys.press('Enter');
    await page.locator('[data-testid="outcomes"] li').first().waitFor();
    await keys.press('F2');
    await keys.scan('8690000000017');
    await page.locator('[data-testid="lookups"] [data-barcode="8690000000017"]').first().getByText('History').click();
    await page.locator('[data-testid="history-entry"][data-actor="Bora"]').first().waitFor();
    expect(await page.locator('[data-testid="history-entry"][data-actor="Bora"]').first().textContent()).toContain('by Bora');
    await shot(page, 'history-by');

    // Ayşe's sign-in ended when Bora's began.
    expect(await server.probe.all('SELECT id FROM api_tokens WHERE person_id = ? AND revoked_at IS NULL', ids['Ayşe'])).toEqual([]);
    expect(carried.every((request) => request === `POST ${PERSON_SIGNIN_PATH}`)).toBe(true);
    expect(carried.length).toBe(2);
    await page.context().close();
  });

  it("signs the person out after the account's idle minutes without a key or a touch", async () => {
    // The page's clock is a test clock: a minute passes at once, for the page only.
    const context = await browser.newContext({ viewport });
    context.setDefaultTimeout(10_000);
    const page = await context.newPage();
    await page.clock.install();
    const { code } = await server.store.signIn.createCode('north', undefined, undefined, 'device');
    await call(server, 'PATCH', ACCOUNT_PATH, admin, { person_idle_minutes: 1 });
    try {
      await page.goto(`${server.url}/#signin=${code}`);
      await page.getByTestId('person-signin').waitFor();
      const keys = await virtualKeyboard(page);
      // The test clock stamps each key (Event.timeStamp) with its own time when the page reads it,
      // not with the keyboard's: on a loaded machine a pause of over 50 ms between two keys split the
      // badge, and its chip never showed (a CI run). Paused while the badge is typed, its keys come at
      // one instant, as a scanner's nearly do. The page's clock runs on while the pause travels to it,
      // so it pauses a few seconds ahead of the time read (pauseAt cannot go back: 1 ms ahead failed
      // on a loaded machine); nothing of the idle minute happens in those seconds.
      await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 5_000);
      await keys.scan(badges['Ayşe']!);
      await page.clock.resume();
      await chip(page).filter({ hasText: 'Ayşe' }).waitFor();
      // Half a minute, a key, another half minute: still signed in (the key counted as use).
      await page.clock.fastForward(30_000);
      await keys.press('F2');
      await page.clock.fastForward(40_000);
      expect(await chip(page).count()).toBe(1);
      await page.clock.fastForward(30_000);
      await page
        .getByTestId('person-signin-message')
        .filter({ hasText: peopleTexts.idleSignedOut(1) })
        .waitFor();
      // Signed out on the server too: her sign-in on this device is revoked.
      await expect
        .poll(() => server.probe.all('SELECT id FROM api_tokens WHERE person_id = ? AND revoked_at IS NULL', ids['Ayşe']))
        .toEqual([]);
    } finally {
      await call(server, 'PATCH', ACCOUNT_PATH, admin, { person_idle_minutes: 10 });
      await context.close();
    }
  });

  it('signs in with a PIN, signs the person out to the badge screen, and survives a reload while signed in', async () => {
    const { page } = await sharedScanner(viewport);
    await page.getByTestId('pin-person').selectOption({ label: 'Ayşe' });
    await page.getByTestId('pin-input').fill('0000');
    await page.getByRole('button', { name: peopleTexts.pinSignIn }).click();
    await page.getByTestId('person-signin-message').filter({ hasText: 'Wrong PIN' }).waitFor();
    await page.getByTestId('pin-input').fill('4711');
    await page.getByRole('button', { name: peopleTexts.pinSignIn }).click();
    await chip(page).filter({ hasText: 'Ayşe' }).waitFor();
    await page.reload();
    await chip(page).filter({ hasText: 'Ayşe' }).waitFor();
    await openTopBarMenu(page);
    await page.getByTestId('sign-out').click();
    await page.getByTestId('person-signin').waitFor();
    await page.context().close();
  });

  it('lets an admin add a person and print the badge, revoke a lost badge in one click; a badge is no barcode on a device that is not shared', async () => {
    const { page, keys } = await signedInPage(browser, server, 'north', viewport, 'admin');
    // Not a shared scanner: a badge is refused with the reason, and not looked up.
    const carried = badgeRequests(page);
    await keys.scan(badges['Bora']!);
    await page.getByTestId('banner').filter({ hasText: scanTexts.badgeNotShared }).waitFor();
    expect(carried).toEqual([]);

    const zeynep = width === 1280 ? 'Zeynep' : 'Zeynep Kaya';
    await page.getByTestId('people-nav').click();
    await page.getByTestId('people-list').waitFor();
    await page.getByTestId('person-name').fill(zeynep);
    await page.getByTestId('person-pin').fill('1234');
    const answer = page.waitForResponse((response) => response.url().endsWith(PEOPLE_PATH) && response.request().method() === 'POST');
    await page.getByTestId('person-add').click();
    await page.getByTestId('badge-card').waitFor();
    // The card scans as the badge the server made (read by an independent decoder, ZXing): on a shop
    // PC's screen as on paper; a phone's screen is too narrow for its bars, and the card is for printing.
    const made = (await (await answer).json()) as { badge: string };
    if (width === 1280) {
      const card = await page.getByTestId('badge-card').locator('svg').screenshot();
      expect(await decodeImage(card)).toEqual([{ format: 'Code128', text: made.badge }]);
      // Printed (what Print badge prints: the card alone, 85 mm wide), read at a printer's 300 dpi.
      const pdf = path.join(SHOTS, `badge-print-${width}.pdf`);
      await page.pdf({ path: pdf, format: 'A4' });
      const pages = await pdfPages(pdf, 300);
      expect(pages).toHaveLength(1);
      expect(await decodeImage(pages[0]!)).toEqual([{ format: 'Code128', text: made.badge }]);
    }
    // The badge is drawn as bars only: its text is nowhere in the page.
    expect(await page.content()).not.toMatch(/BADGE-\d{24}/);
    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, 'badge-page');
    await docsShot(page, width, 'screenshot-people.png');

    const row = page.getByTestId('person').filter({ hasText: zeynep });
    await row.getByTestId('badge-lost').click();
    await page
      .getByTestId('people-notice')
      .filter({ hasText: peopleTexts.badgeLostDone(zeynep) })
      .waitFor();
    await row.filter({ hasText: `${peopleTexts.badge}: ${peopleTexts.no}` }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.context().close();
  });
});
