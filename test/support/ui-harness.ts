// Helpers of the end-to-end tests: the real server serving the built UI, a signed-in page, and a
// keyboard whose key times are set exactly (CDP Input.dispatchKeyEvent's `timestamp` becomes
// KeyboardEvent.timeStamp), so scanner-speed bursts and human-speed typing are the same on a loaded
// machine as on an idle one. The keys themselves are real, trusted input events.
import type { Browser, CDPSession, Page } from 'playwright-core';
import { BUILT_UI_DIR } from '../../server/http/static-ui.ts';
import { INVENTORY_PATH, type SignInRole } from '../../shared/index.ts';
import type { StoreClock } from '../../server/store/movements/movement-log.ts';
import { type TestServer, startTestServer } from './test-server.ts';

export function startUiServer(catalogue: unknown, options: { clock?: StoreClock } = {}): Promise<TestServer> {
  return startTestServer(catalogue, { uiDir: BUILT_UI_DIR, ...options });
}

/** Named keys as Chromium expects them from CDP. */
const NAMED_KEYS: Record<string, { code: string; keyCode: number; text?: string }> = {
  Enter: { code: 'Enter', keyCode: 13, text: '\r' },
  Tab: { code: 'Tab', keyCode: 9 },
  Escape: { code: 'Escape', keyCode: 27 },
  Backspace: { code: 'Backspace', keyCode: 8 },
  F2: { code: 'F2', keyCode: 113 },
  F3: { code: 'F3', keyCode: 114 },
  F4: { code: 'F4', keyCode: 115 },
  Space: { code: 'Space', keyCode: 32, text: ' ' },
  ArrowDown: { code: 'ArrowDown', keyCode: 40 },
  ArrowUp: { code: 'ArrowUp', keyCode: 38 },
};

/** One key as a keyboard reports it: the character (or key name), its position, and modifiers. */
export interface KeyStroke {
  key: string;
  /** KeyboardEvent.code; none by default (as many virtual keyboards send). */
  code?: string;
  shift?: boolean;
  ctrl?: boolean;
}

export interface VirtualKeyboard {
  /** Types `text` then `suffix`, `gapMs` apart (scanner speed by default). */
  scan(text: string, options?: { gapMs?: number; suffix?: 'Enter' | 'Tab' }): Promise<void>;
  /** Types like a person: `gapMs` (default 250 ms) between keys. */
  type(text: string, options?: { gapMs?: number }): Promise<void>;
  /** One named key (Enter, Tab, Escape, Space, arrows, F2…) after a human pause. */
  press(key: string, options?: { gapMs?: number }): Promise<void>;
  /** Key strokes with positions and modifiers (a scanner on another layout, Ctrl+] for GS1), then the suffix. */
  strokes(strokes: readonly KeyStroke[], options?: { gapMs?: number; suffix?: 'Enter' | 'Tab' | null }): Promise<void>;
}

/**
 * `anchored`: each scan's first key is stamped with the real time it is sent, and the others follow
 * it at the scan's gaps, so key times never run ahead of the page's own clock, as a real scanner's
 * keys do while the page is busy; for tests that compare key times with the page's clock, such as
 * scanning while the page loads.
 */
export async function virtualKeyboard(page: Page, { anchored = false }: { anchored?: boolean } = {}): Promise<VirtualKeyboard> {
  const cdp: CDPSession = await page.context().newCDPSession(page);
  let clock = Date.now(); // ms; only the differences between keys matter
  // A group of keys (a scan, a word typed, a key pressed) never starts behind the real time: after a
  // reload the page's clock starts anew, and keys stamped before the page existed are not input to it.
  // Within a group the gaps stay exact; before it, a longer pause than asked is still a pause.
  const next = (gapMs: number, startsGroup: boolean) =>
    anchored && startsGroup ? Date.now() : startsGroup ? Math.max(clock + gapMs, Date.now()) : clock + gapMs;
  const send = async (key: string, gapMs: number, startsScan = false) => {
    clock = next(gapMs, startsScan);
    const timestamp = clock / 1000;
    const named = NAMED_KEYS[key];
    if (named) {
      const common = {
        key: key === 'Space' ? ' ' : key,
        code: named.code,
        windowsVirtualKeyCode: named.keyCode,
        nativeVirtualKeyCode: named.keyCode,
        timestamp,
      };
      await cdp.send('Input.dispatchKeyEvent', {
        type: named.text ? 'keyDown' : 'rawKeyDown',
        ...common,
        ...(named.text ? { text: named.text, unmodifiedText: named.text } : {}),
      });
      await cdp.send('Input.dispatchKeyEvent', { type: 'keyUp', ...common });
    } else {
      await cdp.send('Input.dispatchKeyEvent', { type: 'keyDown', key, text: key, unmodifiedText: key, timestamp });
      await cdp.send('Input.dispatchKeyEvent', { type: 'keyUp', key, timestamp });
    }
  };
  const stroke = async ({ key, code, shift = false, ctrl = false }: KeyStroke, gapMs: number, startsScan: boolean) => {
    clock = next(gapMs, startsScan);
    const timestamp = clock / 1000;
    const modifiers = (ctrl ? 2 : 0) | (shift ? 8 : 0);
    const common = { key, modifiers, timestamp, ...(code ? { code } : {}) };
    // A character typed with Ctrl types no text (as Ctrl+] for a scanner's FNC1).
    if (ctrl) await cdp.send('Input.dispatchKeyEvent', { type: 'rawKeyDown', ...common });
    else await cdp.send('Input.dispatchKeyEvent', { type: 'keyDown', text: key, unmodifiedText: key, ...common });
    await cdp.send('Input.dispatchKeyEvent', { type: 'keyUp', ...common });
  };
  return {
    async strokes(strokes, { gapMs = 1, suffix = 'Enter' } = {}) {
      let first = true;
      for (const s of strokes) {
        await stroke(s, first ? 1000 : gapMs, first);
        first = false;
      }
      if (suffix) await send(suffix, gapMs);
    },
    async scan(text, { gapMs = 1, suffix = 'Enter' } = {}) {
      let first = true;
      for (const ch of text) {
        await send(ch, first ? 1000 : gapMs, first); // a pause before the scan: it starts a new run
        first = false;
      }
      await send(suffix, gapMs);
    },
    async type(text, { gapMs = 250 } = {}) {
      let first = !anchored;
      for (const ch of text) {
        await send(ch, gapMs, first);
        first = false;
      }
    },
    async press(key, { gapMs = 250 } = {}) {
      await send(key, gapMs, !anchored);
    },
  };
}

/** Opens the UI through a fresh one-time sign-in link of `account` (a manager's unless `role` says) and waits until it is signed in. */
export async function signedInPage(
  browser: Browser,
  server: TestServer,
  account: string,
  viewport: { width: number; height: number } = { width: 1280, height: 860 },
  role?: SignInRole,
  /** The browser's language (navigator.languages), e.g. "tr-TR"; Chromium's own (en-US) by default. */
  locale?: string,
): Promise<{ page: Page; keys: VirtualKeyboard }> {
  const context = await browser.newContext({ viewport, ...(locale ? { locale } : {}) });
  context.setDefaultTimeout(10_000); // a failing step names itself well before the test's own timeout
  const page = await context.newPage();
  const { code } = await server.store.signIn.createCode(account, undefined, undefined, role);
  await page.goto(`${server.url}/#signin=${code}`);
  await page.getByTestId('account').filter({ hasText: account }).waitFor();
  await page.locator('.scanner[data-ready="true"]').waitFor(); // the warehouse list has arrived
  return { page, keys: await virtualKeyboard(page) };
}

/**
 * Holds the page's stock lookups whose barcode list `names` says (exactly one barcode, or a test of
 * the list as sent) until the returned function is called: a test then decides what happens while
 * a lookup is in flight instead of racing it.
 */
export async function holdLookup(page: Page, names: string | ((barcodes: string) => boolean)): Promise<() => void> {
  const held = typeof names === 'string' ? (barcodes: string) => barcodes === names : names;
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(
    (url) => url.pathname === INVENTORY_PATH && held(url.searchParams.get('barcodes') ?? ''),
    async (route) => {
      await released;
      await route.continue();
    },
  );
  return release;
}

/** On a phone-sized page the top bar's controls (Settings, Sign out) are behind Menu: opens it; nothing at 1280 px. */
export async function openTopBarMenu(page: Page): Promise<void> {
  const menu = page.getByTestId('topbar-menu');
  if ((await menu.isVisible()) && (await menu.getAttribute('aria-expanded')) === 'false') await menu.click();
}

/** Opens Settings from the top bar. */
export async function openSettings(page: Page): Promise<void> {
  await openTopBarMenu(page);
  await page.getByTestId('settings-button').click();
}

/** Saves a full-page picture of what `page` shows to `file`; answers how many pixels the page scrolls sideways (it should not). */
export async function fullPageShot(page: Page, file: string): Promise<number> {
  await page.evaluate(() => document.fonts.ready);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  await page.screenshot({ path: file, fullPage: true, animations: 'disabled' });
  return Math.max(0, overflow);
}
