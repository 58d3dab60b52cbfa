// `backup`, `restore` and `check` (docs/BACKUPS.md). Registered on the main program by
// server/cli/main.ts; the SQLite work is store/sqlite/backup.ts.
import { createInterface } from 'node:readline/promises';
import type { Command } from 'commander';
import { badRequest } from '../errors.ts';
import type { ConsistencyReport } from '../store/consistency.ts';
import { isPostgresLocation } from '../store/open-store.ts';
import { dumpDatabase } from '../store/postgres/backup.ts';
import { displayLocation } from '../store/postgres/postgres-engine.ts';
import { backupDatabase, checkFile, describeProblems, restoreDatabase } from '../store/sqlite/backup.ts';
import { databaseOf, withDatabaseOptions, withStore } from './database-option.ts';

function describeReport(file: string, report: ConsistencyReport): string {
  const counts = `${report.stockRows} stock figure(s), ${report.historyRows} history entr${report.historyRows === 1 ? 'y' : 'ies'}`;
  return report.ok
    ? `${file}: ok (integrity_check ok, foreign keys ok, history agrees with stock; ${counts}).`
    : `${file}: PROBLEMS: ${describeProblems(report)} (${counts}).`;
}

/** Asks on the terminal; anything but n/no is yes. */
async function askYesNo(question: string): Promise<boolean> {
  const prompt = createInterface({ input: process.stdin, output: process.stdout });
  try {
    return !/^\s*n(o)?\s*$/i.test(await prompt.question(question));
  } finally {
    prompt.close();
  }
}

export function registerBackupCommands(program: Command): void {
  withDatabaseOptions(program.command('backup'))
    .description('Write a consistent copy of the database to a new file; safe while the server runs.')
    .argument('<out>', 'backup file to create (must not exist)')
    .action(async (out: string, options: { db?: string; database?: string }) => {
      const source = databaseOf(options);
      if (isPostgresLocation(source)) {
        const { bytes } = dumpDatabase(source, out);
        console.log(
          `Backed up ${displayLocation(source)} to ${out} (pg_dump custom format, ${bytes} bytes; restore with pg_restore, see docs/DEPLOY.md).`,
        );
        return;
      }
      const report = await backupDatabase(source, out);
      console.log(`Backed up ${source} to ${out}.`);
      console.log(describeReport(out, report));
      if (!report.ok) process.exitCode = 1;
    });

  withDatabaseOptions(program.command('restore'))
    .description(
      'Replace the database with a backup. The backup is checked first and the current database is saved beside it. ' +
        'Tokens revoked since the backup was taken are listed and stay revoked unless --bring-back-revoked is given ' +
        '(in a terminal, without either option, you are asked).',
    )
    .argument('<backup>', 'backup file made by `backup`')
    .option('--keep-revocations', 'keep tokens revoked since the backup revoked (the default without a terminal)')
    .option('--bring-back-revoked', 'let tokens revoked since the backup be valid again, as they were in the backup')
    .action(async (backup: string, options: { db?: string; database?: string; keepRevocations?: boolean; bringBackRevoked?: boolean }) => {
      if (options.keepRevocations && options.bringBackRevoked)
        throw badRequest('Give --keep-revocations or --bring-back-revoked, not both.');
      const target = databaseOf(options);
      if (isPostgresLocation(target))
        throw badRequest('A PostgreSQL database is restored with pg_restore, the servers stopped first: see docs/DEPLOY.md, "Backups".');
      const { savedCurrentAs, revokedSince, keptRevocations } = await restoreDatabase(backup, target, {
        async keepRevocations(revoked) {
          console.log(
            `WARNING: ${revoked.length} token(s) were revoked after this backup was taken; restoring it alone would make them valid again:`,
          );
          for (const t of revoked) console.log(`  ${t.id}\t${t.account}\t${t.label ?? ''}\t${t.prefix}…\trevoked ${t.revokedAt}`);
          if (options.bringBackRevoked) return false;
          if (options.keepRevocations || !process.stdin.isTTY) return true;
          return askYesNo('Keep these tokens revoked? [Y/n] ');
        },
      });
      if (savedCurrentAs) console.log(`Saved the current database as ${savedCurrentAs}.`);
      if (revokedSince.length > 0) {
        console.log(
          keptRevocations
            ? `Kept ${revokedSince.length} revocation(s): those tokens stay revoked.`
            : `Brought back ${revokedSince.length} revoked token(s): they are valid again (revoke them with token revoke <id>).`,
        );
      }
      console.log(`Restored ${backup} into ${target}.`);
      console.log(describeReport(target, await checkFile(target)));
    });

  withDatabaseOptions(program.command('check'))
    .description(
      "Check the database: its engine's own checks (SQLite: integrity_check, foreign keys) and that the stock history agrees with the stock.",
    )
    .action(async (options: { db?: string; database?: string }) => {
      const file = databaseOf(options);
      const report = isPostgresLocation(file) ? await withStore(options, (store) => store.check()) : await checkFile(file);
      console.log(describeReport(isPostgresLocation(file) ? displayLocation(file) : file, report));
      if (!report.ok) process.exitCode = 1;
    });
}
