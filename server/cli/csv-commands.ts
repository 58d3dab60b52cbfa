// `barcode-inventory csv …`: export stock or a stocktake's counts as CSV, and import a catalogue from
// CSV (with --dry-run). Progress of large files goes to stderr, so stdout stays the data or the report.
import { createWriteStream, statSync } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Command } from 'commander';
import { convertCatalogueCsv, importCatalogueCsv, printDryRun } from '../csv/catalogue-csv.ts';
import { stockCsvChunks } from '../csv/stock-csv.ts';
import { sessionCountsCsvChunks } from '../csv/stocktake-csv.ts';
import { badRequest } from '../errors.ts';
import { PRIVATE_FILE_MODE } from '../store/private-files.ts';
import type { Account, Store } from '../store/store.ts';
import { noSuchAccount } from '../store/tokens.ts';
import { withDatabaseOptions, withStore } from './database-option.ts';

/** Files at least this large report progress while they are read. */
const PROGRESS_FROM_BYTES = 1024 * 1024;

async function accountOf(store: Store, name: string): Promise<Account> {
  const account = await store.accounts.find(name);
  if (!account) throw noSuchAccount(name);
  return account;
}

/**
 * Writes chunks of text to stdout or a file as they come. A new file is private to the user (0600),
 * as the database it comes from is: stock and counts are the shop's business, whatever the umask.
 */
async function outputChunks(chunks: AsyncIterable<string>, file: string | undefined): Promise<void> {
  const target = file === undefined ? process.stdout : createWriteStream(file, { mode: PRIVATE_FILE_MODE });
  await pipeline(Readable.from(chunks), target, { end: file !== undefined });
  if (file !== undefined) console.error(`Wrote ${file}.`);
}

/** Registers the `csv` command group on the program. */
export function registerCsvCommands(program: Command): void {
  const csv = program.command('csv').description('Export stock and stocktake counts as CSV; import a catalogue from CSV.');

  withDatabaseOptions(csv.command('export'))
    .description('Write the stock of an account as CSV (the columns csv import reads).')
    .requiredOption('--account <name>', 'account to export')
    .option('--warehouse <name>', 'only this warehouse')
    .option('--out <file>', 'write to a file instead of stdout')
    .action(async (options: { account: string; warehouse?: string; out?: string; db?: string; database?: string }) => {
      // Page by page, as the API streams it: the file grows while memory stays flat.
      await withStore(options, async (store) =>
        outputChunks(await stockCsvChunks(store, await accountOf(store, options.account), options.warehouse), options.out),
      );
    });

  withDatabaseOptions(csv.command('counts'))
    .description("Write a stocktake session's counts as CSV.")
    .argument('<stocktake-id>', 'id of the session')
    .requiredOption('--account <name>', 'account the session belongs to')
    .option('--out <file>', 'write to a file instead of stdout')
    .action(async (id: string, options: { account: string; out?: string; db?: string; database?: string }) => {
      await withStore(options, async (store) =>
        outputChunks(await sessionCountsCsvChunks(store, await accountOf(store, options.account), Number(id)), options.out),
      );
    });

  withDatabaseOptions(csv.command('import'))
    .description(
      'Import a catalogue CSV (item_id,item_name,variant_id,variant_name,barcode,warehouse,quantity) into an existing account: ' +
        'all rows or none. --dry-run reports what would change and every bad line, and writes nothing.',
    )
    .argument('<file>', 'CSV file with a header row')
    .requiredOption('--account <name>', 'account to import into (create it and its warehouses with a JSON catalogue first)')
    .option('--dry-run', 'report what would change; write nothing')
    .action(async (file: string, options: { account: string; dryRun?: boolean; db?: string; database?: string }) => {
      let size: number;
      try {
        size = statSync(file).size;
      } catch (error) {
        throw badRequest(`Cannot read ${file}: ${(error as Error).message}`);
      }
      const progress = size >= PROGRESS_FROM_BYTES ? (message: string) => process.stderr.write(`${file}: ${message}\n`) : undefined;
      await withStore(
        options,
        async (store) => {
          const { conversion, rows } = await convertCatalogueCsv(store, options.account, file, progress);
          try {
            if (options.dryRun) {
              // Printed as it is made: Node writes stdout synchronously to files, and to terminals and pipes on Linux.
              const report = await printDryRun(store, conversion, file, options.account, rows, (line) => process.stdout.write(`${line}\n`));
              if (report.problemCount > 0) process.exitCode = 1;
              return;
            }
            progress?.('writing');
            const summary = await importCatalogueCsv(store, conversion);
            console.log(
              `Imported ${file} into account "${options.account}": ${rows} row(s), ${summary.items} item(s), ` +
                `${summary.variants} variant(s), ${summary.barcodes} barcode(s); ${summary.quantitiesChanged} quantit${summary.quantitiesChanged === 1 ? 'y' : 'ies'} changed.`,
            );
          } finally {
            conversion.close();
          }
        },
        { removeIfCreated: options.dryRun ? 'always' : true },
      );
    });
}
