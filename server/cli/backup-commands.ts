// `backup`, `restore` and `check` (docs/BACKUPS.md). Registered on the main program by
// server/cli/main.ts; the work is the database engine's (its provider, store/engines.ts).
import { createInterface } from 'node:readline/promises';
import type { Command } from 'commander';
import { badRequest } from '../errors.ts';
import { type ConsistencyReport, describeProblems } from '../store/consistency.ts';
import { providerFor } from '../store/engines.ts';
import { databaseOf, withDatabaseOptions } from './database-option.ts';

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
      const engine = providerFor(source);
      const { detail, report } = await engine.backup(source, out);
      console.log(`Backed up ${engine.displayLocation(source)} to ${out}${detail ? ` (${detail})` : ''}.`);
      if (!report) return;
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
      const engine = providerFor(target);
      const { savedCurrentAs, revokedSince, keptRevocations } = await engine.restore(backup, target, {
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
      console.log(`Restored ${backup} into ${engine.displayLocation(target)}.`);
      console.log(describeReport(engine.displayLocation(target), await engine.check(target)));
    });

  withDatabaseOptions(program.command('check'))
    .description(
      "Check the database: its engine's own checks (SQLite: integrity_check, foreign keys) and that the stock history agrees with the stock.",
    )
    .action(async (options: { db?: string; database?: string }) => {
      const location = databaseOf(options);
      const engine = providerFor(location);
      const report = await engine.check(location);
      console.log(describeReport(engine.displayLocation(location), report));
      if (!report.ok) process.exitCode = 1;
    });
}
