// Backups of a SQLite database: consistent copies through SQLite's online backup API (safe while
// the server runs and writes), restoring one (the current file is saved first, the restored pages
// written into the open file so a running server sees them), and the checks of a file.
import { existsSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { badRequest } from '../../errors.ts';
import { type ConsistencyReport, describeProblems } from '../consistency.ts';
import type { RestoreOptions, RestoreResult } from '../engine-provider.ts';
import { makePrivateDirectory, preparePrivateFile } from '../private-files.ts';
import { createStore } from '../store.ts';
import type { TokenInfo } from '../tokens.ts';
import { BUSY_TIMEOUT_MS } from './pragmas.ts';
import { SqliteEngine } from './sqlite-engine.ts';

/** Copy every page in one step: the copy is one consistent snapshot even while the server writes. */
const ALL_PAGES = 0x7fffffff;

function openExisting(file: string, readonly: boolean): BetterSqlite3.Database {
  if (!existsSync(file)) throw badRequest(`No database at ${file}.`);
  let sqlite: BetterSqlite3.Database;
  try {
    sqlite = new BetterSqlite3(file, { readonly, fileMustExist: true });
    sqlite.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    sqlite.prepare('SELECT count(*) FROM sqlite_master').get(); // fails here on a file that is not SQLite
  } catch (error) {
    throw badRequest(`${file} cannot be opened as a SQLite database: ${(error as Error).message}`);
  }
  return sqlite;
}

/** Copies `source` to `target` (which must not exist) with the online backup API, then checks the copy. */
export async function backupDatabase(source: string, target: string): Promise<ConsistencyReport> {
  if (path.resolve(source) === path.resolve(target)) throw badRequest('The backup file must not be the database itself.');
  if (existsSync(target)) throw badRequest(`${target} already exists; choose a new file name (nothing was written).`);
  makePrivateDirectory(path.dirname(path.resolve(target)));
  // Written under a temporary name and renamed when complete, so a failed backup (a full USB
  // stick) never leaves a file that looks like a backup.
  const partial = `${target}.partial-${process.pid}`;
  const sqlite = openExisting(source, true);
  try {
    preparePrivateFile(partial); // a copy of the database is as private as the database
    await sqlite.backup(partial, { progress: () => ALL_PAGES });
    renameSync(partial, target);
  } catch (error) {
    rmSync(partial, { force: true });
    rmSync(`${partial}-journal`, { force: true });
    throw badRequest(`The backup to ${target} failed, nothing was kept: ${(error as Error).message}`);
  } finally {
    sqlite.close();
  }
  return checkFile(target);
}

/** Runs the store's checks on a file, read-only. */
export async function checkFile(file: string): Promise<ConsistencyReport> {
  openExisting(file, true).close(); // a clear message for a missing file or one that is not SQLite
  const store = createStore(await SqliteEngine.open(file, { readonly: true }));
  try {
    return await store.check();
  } finally {
    await store.close();
  }
}

/** The tokens of a database file, read-only. */
async function tokensOf(file: string): Promise<TokenInfo[]> {
  const store = createStore(await SqliteEngine.open(file, { readonly: true }));
  try {
    return await store.tokens.list();
  } finally {
    await store.close();
  }
}

/** Tokens revoked in `current` that the backup holds unrevoked: restoring it alone would make them valid again. */
async function revokedSinceBackup(backup: string, current: string): Promise<TokenInfo[]> {
  if (!existsSync(current)) return [];
  const inBackup = new Map((await tokensOf(backup)).map((t) => [t.id, t]));
  return (await tokensOf(current)).filter((t) => {
    const then = inBackup.get(t.id);
    return t.revokedAt !== null && then !== undefined && then.prefix === t.prefix && then.revokedAt === null;
  });
}

/**
 * Replaces the database at `target` with the backup: the backup is checked first, the current
 * database is copied aside (returned path), then the backup's pages are written into `target`
 * through the backup API, so a server that has the file open sees the restored data. Tokens revoked
 * since the backup was taken are named, and stay revoked unless `keepRevocations` says otherwise.
 */
export async function restoreDatabase(
  backup: string,
  target: string,
  options: RestoreOptions = { keepRevocations: () => true },
): Promise<RestoreResult> {
  const report = await checkFile(backup);
  if (!report.ok) throw badRequest(`${backup} fails its checks (${describeProblems(report)}); nothing was restored.`);
  const revokedSince = await revokedSinceBackup(backup, target);
  const keptRevocations = revokedSince.length > 0 && (await options.keepRevocations(revokedSince));
  let savedCurrentAs: string | null = null;
  if (existsSync(target)) {
    savedCurrentAs = `${target}.before-restore-${new Date().toISOString().replace(/[:.]/g, '-')}.db`;
    await backupDatabase(target, savedCurrentAs);
  }
  preparePrivateFile(target);
  const source = openExisting(backup, true);
  try {
    await source.backup(target, { progress: () => ALL_PAGES });
  } finally {
    source.close();
  }
  if (keptRevocations) {
    const store = createStore(await SqliteEngine.open(target));
    try {
      for (const token of revokedSince) await store.tokens.reapplyRevocation(token.id, token.prefix, token.revokedAt!);
    } finally {
      await store.close();
    }
  }
  return { savedCurrentAs, revokedSince, keptRevocations };
}
