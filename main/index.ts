// The desktop shell, kept thin: starts the embedded server on the local database through the same
// launcher as `barcode-inventory serve` and `npm start`, opens one locked-down window on it, and
// stops the server when the app quits. Everything behind the window is the served UI, tested in a browser.
import path from 'node:path';
import { BrowserWindow, app, ipcMain, session } from 'electron';
import pino from 'pino';
import { CONTENT_SECURITY_POLICY_HEADER } from '../server/http/security-headers.ts';
import { DEFAULT_PORT, type Launched, launch } from '../server/launch/launch.ts';
import { SIGNIN_OFFERS_CHANNEL } from './ipc-channels.ts';

/** Sign-in codes handed to the window live long enough for a person to pick an account. */
const OFFER_TTL_MS = 10 * 60_000;

const uiDir = path.join(import.meta.dirname, '../renderer');
const preload = path.join(import.meta.dirname, '../preload/index.cjs');
const logger = pino({ level: 'info' }, pino.destination(2));

let launched: Launched | undefined;
let window: BrowserWindow | undefined;

function isOwnPage(url: string): boolean {
  const own = launched?.server.url;
  return own !== undefined && (url === own || url.startsWith(`${own}/`));
}

function lockDown(): void {
  const ses = session.defaultSession;
  // The policy the server sends too (one definition, security-headers.ts); set here as well so the
  // window never runs without it.
  ses.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [CONTENT_SECURITY_POLICY_HEADER] } });
  });
  // No camera, microphone, notifications, geolocation…: the scanner needs none of them.
  ses.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  ses.setPermissionCheckHandler(() => false);

  app.on('web-contents-created', (_event, contents) => {
    contents.setWindowOpenHandler(() => ({ action: 'deny' }));
    contents.on('will-navigate', (event, url) => {
      if (!isOwnPage(url)) event.preventDefault();
    });
    contents.on('will-redirect', (event, url) => {
      if (!isOwnPage(url)) event.preventDefault();
    });
    contents.on('will-attach-webview', (event) => event.preventDefault());
  });

  // One-time codes for the local accounts, only for the app's own page.
  ipcMain.handle(SIGNIN_OFFERS_CHANNEL, (event) => {
    if (!launched || !isOwnPage(event.senderFrame?.url ?? '')) return [];
    return launched.signInOffers(OFFER_TTL_MS);
  });
}

function openWindow(url: string): void {
  window = new BrowserWindow({
    width: 1280,
    height: 860,
    title: 'Barcode inventory',
    show: false,
    webPreferences: {
      preload,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      spellcheck: false,
    },
  });
  window.removeMenu();
  window.once('ready-to-show', () => window?.show());
  window.on('closed', () => {
    window = undefined;
  });
  void window.loadURL(`${url}/`);
}

if (!app.requestSingleInstanceLock()) {
  // Another copy runs: it comes to the front (second-instance below), this one leaves.
  app.quit();
} else {
  app.on('second-instance', () => {
    if (!window) return;
    if (window.isMinimized()) window.restore();
    window.focus();
  });

  app
    .whenReady()
    .then(async () => {
      lockDown();
      // The port is often taken by a `barcode-inventory serve` already running: any free port does for the window.
      launched = await launch({ demo: true, port: DEFAULT_PORT, portInUse: 'any-free', ui: uiDir, logger });
      for (const line of launched.describe()) logger.info(line);
      openWindow(launched.server.url);
    })
    .catch((error: unknown) => {
      logger.fatal({ err: error }, 'could not start');
      app.exit(1);
    });

  app.on('window-all-closed', () => app.quit());

  // Quitting waits for the server: open requests finish, then the database closes.
  let stopped = false;
  app.on('will-quit', (event) => {
    if (stopped || !launched) return;
    event.preventDefault();
    void launched.close().finally(() => {
      stopped = true;
      app.quit();
    });
  });
}
