// The one launcher of the server: `barcode-inventory serve`, `npm start` (headless) and the desktop
// shell all call launch() with their options and print what it describes; none of them opens the
// store itself. It picks the database (the real one, or the demo while the real one has no account),
// starts the server, and makes one-time sign-in links when asked.
import path from 'node:path';
import type { Logger } from 'pino';
import { parseCatalogue } from '../catalogue/import-catalogue.ts';
import { BUILT_UI_DIR, hasBuiltUi } from '../http/static-ui.ts';
import { defaultDatabaseLocation } from '../paths.ts';
import { type RunningServer, type StartOptions, DEFAULT_PORT, startServer } from '../start.ts';
import type { Account } from '../store/accounts.ts';
import type { StoreClock } from '../store/movements/movement-log.ts';
import { providerFor } from '../store/engines.ts';
import { openStore } from '../store/open-store.ts';
import type { Store } from '../store/store.ts';
import { type SyncLoops, startSyncLoops } from '../sync/sync-loop.ts';
import { type WebhookLoop, startWebhookLoop } from '../webhooks/low-stock-webhook.ts';
import demoCatalogue from './demo-catalogue.json' with { type: 'json' };
import { clockFromEnvironment } from './clock-offset.ts';
import { lanNotice } from './lan-notice.ts';
import { signInLink } from './signin-link.ts';
import { DEFAULT_SIGNIN_ROLE } from '../../shared/index.ts';

/** The demo database's file name, beside the real database. */
export const DEMO_DATABASE_NAME = 'demo.db';
/** How long the printed sign-in links work. */
const LINK_TTL_MS = 15 * 60_000;

export interface LaunchOptions extends Omit<StartOptions, 'store'> {
  /** Where the data is; default: $BARCODE_INVENTORY_DB or inventory.db in the user's data folder. */
  database?: string;
  /** While the database has no account, serve a demo database beside it instead (npm start, desktop app). */
  demo?: boolean;
  /** When the port is taken: fail (a server), or take any free port (the desktop window does not care). */
  portInUse?: 'fail' | 'any-free';
  /** Serve the scanner UI: a folder, or true for the built UI when there is one. */
  ui?: string | boolean;
  /** Print one-time sign-in links for up to this many accounts. */
  signInLinks?: number;
  logger?: Logger;
  /** Sync linked accounts in the background (docs/SYNC.md); false turns it off. */
  sync?: false | { intervalMs?: number };
  /** The store's clock; default: this computer's, moved by $BARCODE_INVENTORY_CLOCK_OFFSET_MS (for tests that skew instances). */
  clock?: StoreClock;
}

/** For tests: the pause between two sync rounds, instead of DEFAULT_SYNC_INTERVAL_MS. */
export const SYNC_INTERVAL_ENV = 'BARCODE_INVENTORY_SYNC_INTERVAL_MS';

export interface SignInOffer {
  account: string;
  warehouses_enabled: boolean;
  code: string;
}

export interface Launched {
  server: RunningServer;
  /** The database served, and whether it is the demo standing in for an empty real one. */
  database: string;
  demo: boolean;
  accounts: Account[];
  /** Lines for the terminal: where it serves, which database, the UI, sign-in links, network warnings. */
  describe(): string[];
  /** Fresh one-time codes for the local accounts (the desktop shell hands them to its own window). */
  signInOffers(ttlMs: number): Promise<SignInOffer[]>;
  close(): Promise<void>;
}

/** The real database, or the demo beside it (loaded once with both scenarios) while the real one has no account.
 * Only an engine whose database is a file in a folder can have demo.db beside it (`demoBeside`: SQLite);
 * another (PostgreSQL) is served as it is, and so is an in-memory database. */
async function chooseStore(
  location: string,
  demo: boolean,
  clock: StoreClock | undefined,
): Promise<{ store: Store; location: string; demo: boolean; accounts: Account[] }> {
  const store = await openStore(location, clock ? { clock } : {});
  const accounts = await store.accounts.list();
  if (accounts.length > 0 || !demo || location === ':memory:' || !providerFor(location).demoBeside)
    return { store, location, demo: false, accounts };
  await store.close();
  // The real database never receives demo data, whose ids could clash with a real catalogue's.
  const demoLocation = path.join(path.dirname(path.resolve(location)), DEMO_DATABASE_NAME);
  const demoStore = await openStore(demoLocation, clock ? { clock } : {});
  if ((await demoStore.accounts.list()).length === 0) await demoStore.catalogue.write(await parseCatalogue(demoCatalogue));
  return { store: demoStore, location: demoLocation, demo: true, accounts: await demoStore.accounts.list() };
}

export async function launch(options: LaunchOptions = {}): Promise<Launched> {
  const {
    database = defaultDatabaseLocation(),
    demo = false,
    portInUse = 'fail',
    ui = false,
    signInLinks = 0,
    sync = {},
    clock = clockFromEnvironment(),
    ...start
  } = options;
  const chosen = await chooseStore(database, demo, clock);
  const uiDir = ui === true ? (hasBuiltUi(BUILT_UI_DIR) ? BUILT_UI_DIR : undefined) : ui || undefined;
  let server: RunningServer;
  try {
    server = await startServer({ ...start, store: chosen.store, ...(uiDir ? { uiDir } : {}) });
  } catch (error) {
    if (portInUse !== 'any-free' || (error as NodeJS.ErrnoException).code !== 'EADDRINUSE') {
      await chosen.store.close();
      throw error;
    }
    try {
      server = await startServer({ ...start, store: chosen.store, port: 0, ...(uiDir ? { uiDir } : {}) });
    } catch (again) {
      await chosen.store.close();
      throw again;
    }
  }
  const links: { account: Account; url: string }[] = [];
  for (const account of chosen.accounts.slice(0, signInLinks)) {
    const { code } = await chosen.store.signIn.createCode(account.name, LINK_TTL_MS);
    links.push({ account, url: signInLink(server.url, code) });
  }
  const host = start.host ?? server.host;
  const intervalFromEnv = Number(process.env[SYNC_INTERVAL_ENV]);
  const loops: SyncLoops | undefined =
    sync === false
      ? undefined
      : startSyncLoops(chosen.store, {
          ...(sync.intervalMs !== undefined
            ? { intervalMs: sync.intervalMs }
            : Number.isFinite(intervalFromEnv) && intervalFromEnv > 0
              ? { intervalMs: intervalFromEnv }
              : {}),
          ...(start.logger ? { logger: start.logger } : {}),
        });
  const webhooks: WebhookLoop = startWebhookLoop(chosen.store, start.logger ? { logger: start.logger } : {});
  const followed = await chosen.store.sync.links();

  return {
    server,
    database: chosen.location,
    demo: chosen.demo,
    accounts: chosen.accounts,
    describe() {
      const lines = [`barcode-inventory is serving ${server.url}/api/v1/ (database: ${chosen.location})`];
      if (chosen.demo)
        lines.push(
          `Demo data: your database ${database} has no account yet (import a catalogue to use your own: npx barcode-inventory import <file>).`,
        );
      else if (chosen.accounts.length === 0)
        lines.push('No accounts yet: import a catalogue (npx barcode-inventory import <file>), then restart.');
      if (uiDir) {
        lines.push(`Scanner UI: ${server.url}/`);
        for (const { account, url } of links) {
          lines.push(
            `Sign in as ${account.name} (${account.warehousesEnabled ? 'with' : 'without'} warehouses) as a ${DEFAULT_SIGNIN_ROLE}, link works once for ${LINK_TTL_MS / 60_000} minutes: ${url}`,
          );
        }
        if (chosen.accounts.length > links.length)
          // The command as it must be pasted: this database and this server's address, not the defaults.
          lines.push(
            `Sign in${links.length > 0 ? ' as another account' : ''}: npx barcode-inventory signin-link --account <name> [--role counter|manager|admin] --database ${shellWord(chosen.location)} --url ${server.url}`,
          );
      }
      for (const link of followed)
        lines.push(`Account ${link.account} follows ${link.upstreamUrl}: syncing in the background (npx barcode-inventory sync status).`);
      const notice = lanNotice(host, server.port, server.url.startsWith('https:'));
      if (notice) lines.push(notice);
      if (server.discovery)
        lines.push(`Announcing "${server.discovery.name}" as _barcode-inventory._tcp over mDNS (--no-announce turns it off).`);
      return lines;
    },
    async signInOffers(ttlMs) {
      const offers: SignInOffer[] = [];
      for (const account of await chosen.store.accounts.list()) {
        const { code } = await chosen.store.signIn.createCode(account.name, ttlMs);
        offers.push({ account: account.name, warehouses_enabled: account.warehousesEnabled, code });
      }
      return offers;
    },
    close: async () => {
      await loops?.stop();
      await webhooks.stop();
      await server.close();
    },
  };
}

export { DEFAULT_PORT };

/** A path or URL as one shell word: quoted when it holds anything a shell would split or expand. */
function shellWord(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`;
}
