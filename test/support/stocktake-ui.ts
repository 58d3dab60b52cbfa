// Helpers of the stocktake end-to-end test: a built UI, a signed-in page, and scans typed at scanner
// speed with exact key timestamps (CDP Input.dispatchKeyEvent), so the page's scan detector sees a
// scan however loaded the machine is. The keys are real, trusted input events.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { BUILT_UI_DIR } from '../../server/http/static-ui.ts';
import { createSignInCode } from '../../server/store/signin-codes.ts';
import type { Database } from '../../server/store/database.ts';

const root = path.resolve(import.meta.dirname, '../..');

function newest(file: string): number {
  const stat = statSync(file, { throwIfNoEntry: false });
  if (!stat) return 0;
  return stat.isDirectory() ? Math.max(0, ...readdirSync(file).map((name) => newest(path.join(file, name)))) : stat.mtimeMs;
}

/** Builds the UI into out/renderer when it is missing or older than its sources. */
export function ensureBuiltUi(): string {
  const built = statSync(path.join(BUILT_UI_DIR, 'index.html'), { throwIfNoEntry: false })?.mtimeMs ?? 0;
  if (built < Math.max(...['renderer', 'shared', 'electron.vite.config.ts'].map((p) => newest(path.join(root, p))))) {
    const cli = path.join(root, 'node_modules/electron-vite/bin/electron-vite.js');
    const result = spawnSync(process.execPath, [cli, 'build'], { cwd: root, encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`electron-vite build failed:\n${result.stdout}\n${result.stderr}`);
  }
  return BUILT_UI_DIR;
}

export interface Scanner {
  scan(code: string): Promise<void>;
}

/** Opens the UI in a fresh browser context (its own storage: another terminal) signed in to `account`. */
export async function signedInTerminal(browser: Browser, db: Database, url: string, account: string): Promise<{ page: Page; scanner: Scanner }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  context.setDefaultTimeout(15_000);
  const page = await context.newPage();
  await page.goto(`${url}/#signin=${createSignInCode(db, account).code}`);
  await page.getByTestId('account').filter({ hasText: account }).waitFor();
  const cdp = await context.newCDPSession(page);
  let clock = Date.now();
  const key = async (k: string, gapMs: number) => {
    clock += gapMs;
    const timestamp = clock / 1000;
    if (k === 'Enter') {
      const common = { key: 'Enter', code: 'Enter', windowsVirtualKeyCode: 13, nativeVirtualKeyCode: 13, timestamp };
      await cdp.send('Input.dispatchKeyEvent', { type: 'keyDown', ...common, text: '\r', unmodifiedText: '\r' });
      await cdp.send('Input.dispatchKeyEvent', { type: 'keyUp', ...common });
    } else {
      await cdp.send('Input.dispatchKeyEvent', { type: 'keyDown', key: k, text: k, unmodifiedText: k, timestamp });
      await cdp.send('Input.dispatchKeyEvent', { type: 'keyUp', key: k, timestamp });
    }
  };
  return {
    page,
    scanner: {
      async scan(code) {
        let gap = 1000; // a pause first: a new burst
        for (const ch of code) {
          await key(ch, gap);
          gap = 2;
        }
        await key('Enter', 2);
      },
    },
  };
}
