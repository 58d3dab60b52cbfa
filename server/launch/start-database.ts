// Which database `npm start` and the desktop app open (docs/UI.md, "First start"). The real database
// is used as soon as it holds an account. While it is empty, a separate demo database beside it is
// used, loaded once with examples/demo-catalogue.json (both scenarios), so a newcomer sees the
// scanner work at once and the real database never receives demo data (whose ids could clash with
// a real catalogue's).
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import demoCatalogue from '../../examples/demo-catalogue.json' with { type: 'json' };
import { importCatalogue, parseCatalogue } from '../catalogue/import-catalogue.ts';
import { defaultDatabaseFile } from '../paths.ts';
import { type Account, listAccounts } from '../store/accounts.ts';
import { Database } from '../store/database.ts';

export const DEMO_DATABASE_NAME = 'demo.db';

export interface StartDatabase {
  dbFile: string;
  /** True when the demo database stands in for an empty real one. */
  demo: boolean;
  accounts: Account[];
}

async function accountsOf(dbFile: string): Promise<Account[]> {
  const db = await Database.open(dbFile);
  try {
    return listAccounts(db);
  } finally {
    db.close();
  }
}

export async function chooseStartDatabase(options: { dbFile?: string; demo?: boolean } = {}): Promise<StartDatabase> {
  const dbFile = options.dbFile ?? defaultDatabaseFile();
  mkdirSync(path.dirname(path.resolve(dbFile)), { recursive: true });
  const accounts = await accountsOf(dbFile);
  if (accounts.length > 0 || options.demo === false) return { dbFile, demo: false, accounts };

  const demoFile = path.join(path.dirname(path.resolve(dbFile)), DEMO_DATABASE_NAME);
  const db = await Database.open(demoFile);
  try {
    if (listAccounts(db).length === 0) importCatalogue(db, parseCatalogue(demoCatalogue));
    return { dbFile: demoFile, demo: true, accounts: listAccounts(db) };
  } finally {
    db.close();
  }
}
