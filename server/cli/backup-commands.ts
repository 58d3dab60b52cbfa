// `backup`, `restore` and `check`: consistent copies of the database through SQLite's online backup
// API (safe while the server runs and writes), restoring one (the current file is saved first), and
// the integrity checks. Registered on the main program by server/cli/main.ts.
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import type { Command } from 'commander';
import { DB_ENV_VAR, defaultDatabaseFile } from '../paths.ts';
import { type ConsistencyReport, checkConsistency } from '../store/consistency.ts';
import { BUSY_TIMEOUT_MS } from '../store/sqlite-pragmas.ts';

/** A failure the user can fix: main.ts prints the message alone and exits 1. */
export class BackupError extends Error {}

/** Copy every page in one step: the copy is one consistent snapshot even while the server writes. */
const ALL_PAGES = 0x7fffffff;

function openExisting(file: string, readonly: boolean): BetterSqlite3.Database {
  if (!existsSync(file)) throw new BackupError(`No database at ${file}.`);
  let sqlite: BetterSqlite3.Database;
  try {
    sqlite = new BetterSqlite3(file, { readonly, fileMustExist: true });
    sqlite.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    sqlite.prepare('SELECT count(*) FROM sqlite_master').get(); // fails here on a file that is not SQLite
  } catch (error) {
    throw new BackupError(`${file} cannot be opened as a SQLite database: ${(error as Error).message}`);
  }
  return sqlite;
}

/** Copies `source` to `target` (which must not exist) with the online backup API, then checks the copy. */
export async function backupDatabase(source: string, target: string): Promise<ConsistencyReport> {
  if (path.resolve(source) === path.resolve(target)) throw new BackupError('The backup file must not be the database itself.');
  if (existsSync(target)) throw new BackupError(`${target} already exists; choose a new file name (nothing was written).`);
  mkdirSync(path.dirname(path.resolve(target)), { recursive: true });
  // Written under a temporary name and renamed when complete, so a failed backup (a full USB
  // stick) never leaves a file that looks like a backup.
  const partial = `${target}.partial-${process.pid}`;
  const sqlite = openExisting(source, true);
  try {
    await sqlite.backup(partial, { progress: () => ALL_PAGES });
    renameSync(partial, target);
  } catch (error) {
    rmSync(partial, { force: true });
    rmSync(`${partial}-journal`, { force: true });
    throw new BackupError(`The backup to ${target} failed, nothing was kept: ${(error as Error).message}`);
  } finally {
    sqlite.close();
  }
  return checkFile(target);
}

/** Runs the checks on a file, read-only. */
export function checkFile(file: string): ConsistencyReport {
  const sqlite = openExisting(file, true);
  try {
    return checkConsistency(sqlite);
  } finally {
    sqlite.close();
  }
}

/**
 * Replaces the database at `target` with the backup: the backup is checked first, the current
 * database is copied aside (returned path), then the backup's pages are written into `target`
 * through the backup API, so a server that has the file open sees the restored data.
 */
export async function restoreDatabase(backup: string, target: string): Promise<{ savedCurrentAs: string | null }> {
  const report = checkFile(backup);
  if (!report.ok) throw new BackupError(`${backup} fails its checks (${describeProblems(report)}); nothing was restored.`);
  let savedCurrentAs: string | null = null;
  if (existsSync(target)) {
    savedCurrentAs = `${target}.before-restore-${new Date().toISOString().replace(/[:.]/g, '-')}.db`;
    await backupDatabase(target, savedCurrentAs);
  } else {
    mkdirSync(path.dirname(path.resolve(target)), { recursive: true });
  }
  const source = openExisting(backup, true);
  try {
    await source.backup(target, { progress: () => ALL_PAGES });
  } finally {
    source.close();
  }
  return { savedCurrentAs };
}

function describeProblems(report: ConsistencyReport): string {
  const problems: string[] = [];
  if (!(report.integrity.length === 1 && report.integrity[0] === 'ok')) problems.push(`integrity_check: ${report.integrity.slice(0, 5).join('; ')}`);
  if (report.foreignKeyProblems > 0) problems.push(`${report.foreignKeyProblems} foreign key problem(s)`);
  if (report.historyMismatches > 0) problems.push(`${report.historyMismatches} stock figure(s) disagree with their history`);
  return problems.join(', ');
}

function describeReport(file: string, report: ConsistencyReport): string {
  const counts = `${report.stockRows} stock figure(s), ${report.historyRows} history entr${report.historyRows === 1 ? 'y' : 'ies'}`;
  return report.ok ? `${file}: ok (integrity_check ok, foreign keys ok, history agrees with stock; ${counts}).` : `${file}: PROBLEMS: ${describeProblems(report)} (${counts}).`;
}

export function registerBackupCommands(program: Command): void {
  const dbHelp = `SQLite database file (default: $${DB_ENV_VAR} or ${defaultDatabaseFile({})})`;

  program
    .command('backup')
    .description('Write a consistent copy of the database to a new file; safe while the server runs.')
    .argument('<out>', 'backup file to create (must not exist)')
    .option('--db <file>', dbHelp)
    .action(async (out: string, options: { db?: string }) => {
      const source = options.db ?? defaultDatabaseFile();
      const report = await backupDatabase(source, out);
      console.log(`Backed up ${source} to ${out}.`);
      console.log(describeReport(out, report));
      if (!report.ok) process.exitCode = 1;
    });

  program
    .command('restore')
    .description('Replace the database with a backup. The backup is checked first and the current database is saved beside it.')
    .argument('<backup>', 'backup file made by `backup`')
    .option('--db <file>', dbHelp)
    .action(async (backup: string, options: { db?: string }) => {
      const target = options.db ?? defaultDatabaseFile();
      const { savedCurrentAs } = await restoreDatabase(backup, target);
      if (savedCurrentAs) console.log(`Saved the current database as ${savedCurrentAs}.`);
      console.log(`Restored ${backup} into ${target}.`);
      console.log(describeReport(target, checkFile(target)));
    });

  program
    .command('check')
    .description('Check the database: SQLite integrity_check, foreign keys, and that the stock history agrees with the stock.')
    .option('--db <file>', dbHelp)
    .action((options: { db?: string }) => {
      const file = options.db ?? defaultDatabaseFile();
      const report = checkFile(file);
      console.log(describeReport(file, report));
      if (!report.ok) process.exitCode = 1;
    });
}
