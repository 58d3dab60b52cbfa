// The built desktop shell (out/main/index.js, what Electron would run) driven through a stand-in for
// the `electron` module, since Electron's binary cannot run here: it must take the single-instance
// lock, start the real server on the demo database, open one locked-down window on it, hand sign-in
// codes only to its own page, refuse navigation, new windows, webviews and permissions, set the CSP,
// and stop the server when the app quits.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { INVENTORY_PATH, SIGNIN_PATH } from '../../shared/index.ts';
import { tempDir } from '../support/test-server.ts';
import { inRepo } from '../support/paths.ts';

type Listener = (...args: unknown[]) => unknown;

/** Just enough of Electron's main-process API, recording what the shell does with it. */
const fake = vi.hoisted(() => {
  const listeners = new Map<string, Listener[]>();
  const emit = (name: string, ...args: unknown[]) => (listeners.get(name) ?? []).forEach((fn) => fn(...args));
  const state = {
    lockRequested: false,
    quits: 0,
    windows: [] as { options: Record<string, unknown>; url?: string; menuRemoved: boolean }[],
    ipc: new Map<string, Listener>(),
    onHeadersReceived: undefined as Listener | undefined,
    permissionRequest: undefined as Listener | undefined,
    permissionCheck: undefined as Listener | undefined,
    emit,
  };
  const app = {
    requestSingleInstanceLock: () => (state.lockRequested = true),
    whenReady: () => Promise.resolve(),
    on: (name: string, fn: Listener) => listeners.set(name, [...(listeners.get(name) ?? []), fn]),
    quit: () => {
      state.quits++;
      let prevented = false;
      emit('will-quit', { preventDefault: () => (prevented = true) });
      return prevented;
    },
    exit: (code: number) => {
      throw new Error(`app.exit(${code})`);
    },
  };
  class BrowserWindow {
    record: { options: Record<string, unknown>; url?: string; menuRemoved: boolean };
    constructor(options: Record<string, unknown>) {
      this.record = { options, menuRemoved: false };
      state.windows.push(this.record);
    }
    removeMenu() {
      this.record.menuRemoved = true;
    }
    once() {}
    on() {}
    loadURL(url: string) {
      this.record.url = url;
      return Promise.resolve();
    }
  }
  const session = {
    defaultSession: {
      webRequest: { onHeadersReceived: (fn: Listener) => (state.onHeadersReceived = fn) },
      setPermissionRequestHandler: (fn: Listener) => (state.permissionRequest = fn),
      setPermissionCheckHandler: (fn: Listener) => (state.permissionCheck = fn),
    },
  };
  const ipcMain = { handle: (channel: string, fn: Listener) => state.ipc.set(channel, fn) };
  return { state, module: { app, BrowserWindow, session, ipcMain } };
});

vi.mock('electron', () => ({ ...fake.module, default: fake.module }));

describe('desktop shell (built bundle, stand-in for electron)', () => {
  const temp = tempDir('bi-shell-');
  const savedDb = process.env.BARCODE_INVENTORY_DB;
  let url = '';

  beforeAll(async () => {
    process.env.BARCODE_INVENTORY_DB = path.join(temp.dir, 'inventory.db');
    const bundle = inRepo('out', 'main', 'index.js');
    await import(bundle);
    await vi.waitFor(() => expect(fake.state.windows).toHaveLength(1), { timeout: 20_000 });
    url = fake.state.windows[0]!.url!.replace(/\/$/, '');
  });

  afterAll(() => {
    if (savedDb === undefined) delete process.env.BARCODE_INVENTORY_DB;
    else process.env.BARCODE_INVENTORY_DB = savedDb;
    temp.remove();
  });

  it('takes the single-instance lock and opens one locked-down window on the embedded server', async () => {
    expect(fake.state.lockRequested).toBe(true);
    const { options, menuRemoved } = fake.state.windows[0]!;
    expect(options.webPreferences).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
    });
    expect(String((options.webPreferences as { preload: string }).preload)).toMatch(/out[/\\]preload[/\\]index\.cjs$/);
    expect(menuRemoved).toBe(true);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const page = await fetch(`${url}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root">');
  });

  it('hands sign-in codes of the local (demo) accounts to its own page only', async () => {
    const offers = fake.state.ipc.get('barcode-inventory:signin-offers')!;
    expect(await offers({ senderFrame: { url: 'https://evil.example/' } })).toEqual([]);
    const mine = (await offers({ senderFrame: { url: `${url}/` } })) as { account: string; code: string }[];
    expect(mine.map((o) => o.account)).toEqual(['demo-shop', 'demo-kiosk']);
    const res = await fetch(`${url}${SIGNIN_PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code: mine[1]!.code }),
    });
    const { token } = (await res.json()) as { token: string };
    const read = await fetch(`${url}${INVENTORY_PATH}?barcodes=ST-42`, { headers: { authorization: `Token ${token}` } });
    expect(await read.json()).toEqual({ results: [{ item: 90103, liquid_stock: null, barcode: 'ST-42', quantity: 0 }], errors: [] });
  });

  it('sets the CSP on every response and refuses every permission', () => {
    let headers: Record<string, string[]> = {};
    fake.state.onHeadersReceived!(
      { responseHeaders: { 'X-Other': ['1'] } },
      (answer: { responseHeaders: Record<string, string[]> }) => (headers = answer.responseHeaders),
    );
    expect(headers['X-Other']).toEqual(['1']);
    expect(headers['Content-Security-Policy']![0]).toContain("script-src 'self'");
    let granted: boolean | undefined;
    fake.state.permissionRequest!({}, 'media', (answer: boolean) => (granted = answer));
    expect(granted).toBe(false);
    expect(fake.state.permissionCheck!()).toBe(false);
  });

  it('denies new windows, webviews, and navigation or redirects away from the embedded server', () => {
    const handlers = new Map<string, Listener>();
    let openHandler: Listener | undefined;
    const contents = {
      setWindowOpenHandler: (fn: Listener) => (openHandler = fn),
      on: (name: string, fn: Listener) => handlers.set(name, fn),
    };
    fake.state.emit('web-contents-created', {}, contents);
    expect(openHandler!()).toEqual({ action: 'deny' });
    const tries = (name: string, to: string) => {
      let prevented = false;
      handlers.get(name)!({ preventDefault: () => (prevented = true) }, to);
      return prevented;
    };
    expect(tries('will-navigate', 'https://evil.example/')).toBe(true);
    expect(tries('will-navigate', `${url}.evil.example/`)).toBe(true);
    expect(tries('will-navigate', `${url}/#stocktake`)).toBe(false);
    expect(tries('will-redirect', 'http://127.0.0.1:1/')).toBe(true);
    expect(tries('will-attach-webview', '')).toBe(true);
  });

  it('stops the server when the last window closes: the quit waits for it, then goes on', async () => {
    fake.state.emit('window-all-closed');
    await vi.waitFor(() => expect(fake.state.quits).toBe(2), { timeout: 15_000 });
    await expect(fetch(`${url}/`)).rejects.toThrow();
  });
});
