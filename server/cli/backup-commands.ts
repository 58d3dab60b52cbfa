// `backup`, `restore` and `check` (docs/BACKUPS.md). Registered on the main program by
// server/cli/main.ts; the SQLite work is store/sqlite/backup.ts.
import type { Command } from 'commander';
import type { ConsistencyReport } from '../store/consistency.ts';
import { backupDatabase, checkFile, describeProblems, restoreDatabase } from '../store/sqlite/backup.ts';
import { databaseOf, withDatabaseOptions } from './database-option.ts';

function describeReport(file: string, report: ConsistencyReport): string {
  const counts = `${report.stockRows} stock figure(s), ${report.historyRows} history entr${report.historyRows === 1 ? 'y' : 'ies'}`;
  return report.ok ? `${file}: ok (integrity_check ok, foreign keys ok, history agrees with stock; ${counts}).` : `${file}: PROBLEMS: ${describeProblems(report)} (${counts}).`;
}

export function registerBackupCommands(program: Command): void {
  withDatabaseOptions(program.command('backup'))
    .description('Write a consistent copy of the database to a new file; safe while the server runs.')
    .argument('<out>', 'backup file to create (must not exist)')
    .action(async (out: string, options: { db?: string; database?: string }) => {
      const source = databaseOf(options);
      const report = await backupDatabase(source, out);
      console.log(`Backed up ${source} to ${out}.`);
      console.log(describeReport(out, report));
      if (!report.ok) process.exitCode = 1;
    });

  withDatabaseOptions(program.command('restore'))
    .description('Replace the database with a backup. The backup is checked first and the current database is saved beside it.')
    .argument('<backup>', 'backup file made by `backup`')
    .action(async (backup: string, options: { db?: string; database?: string }) => {
      const target = databaseOf(options);
      const { savedCurrentAs } = await restoreDatabase(backup, target);
      if (savedCurrentAs) console.log(`Saved the current database as ${savedCurrentAs}.`);
      console.log(`Restored ${backup} into ${target}.`);
      console.log(describeReport(target, await checkFile(target)));
    });

  withDatabaseOptions(program.command('check'))
    .description('Check the database: SQLite integrity_check, foreign keys, and that the stock history agrees with the stock.')
    .action(async (options: { db?: string; database?: string }) => {
      const file = databaseOf(options);
      const report = await checkFile(file);
      console.log(describeReport(file, report));
      if (!report.ok) process.exitCode = 1;
    });
}
