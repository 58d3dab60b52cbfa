// `barcode-inventory labels`: label documents (PDF, ZPL), printing them on the account's label printer,
// codes of the shop's own for items without one, and the account's label settings (docs/LABELS.md).
// The same labels as the API's: the options are the query parameters of labels.pdf.
import { writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import { LABEL_LAYOUT_IDS, type LabelQuery, isCodePrefix, labelMessages, labelQuerySchema } from '../../shared/index.ts';
import { badRequest, conflict } from '../errors.ts';
import { labelJob } from '../labels/label-document.ts';
import { labelPdf, labelZpl } from '../labels/label-renderers.ts';
import { parsePrinterAddress, sendToPrinter } from '../labels/label-printer.ts';
import type { Account } from '../store/accounts.ts';
import type { Store } from '../store/store.ts';
import { noSuchAccount } from '../store/tokens.ts';
import { type DatabaseOptions, withDatabaseOptions, withStore } from './database-option.ts';

interface SourceOptions {
  account: string;
  barcodes?: string;
  items?: string;
  variants?: string;
  stocktake?: string;
  warehouse?: string;
  layout?: string;
  copies?: string;
  skip?: string;
  batch?: string;
  expiry?: string;
  gs1?: string;
}

function withLabelOptions(command: Command): Command {
  return withDatabaseOptions(command)
    .requiredOption('--account <name>', 'the account whose catalogue the labels come from')
    .option('--barcodes <list>', 'comma-separated barcodes')
    .option('--items <ids>', "comma-separated item ids (each item's barcode, or its variants')")
    .option('--variants <ids>', 'comma-separated variant ids')
    .option('--stocktake <id>', "a stocktake's unknown barcodes")
    .option('--warehouse <name>', 'printed on every label; alone, every barcode with stock in that warehouse')
    .option('--layout <id>', `one of ${LABEL_LAYOUT_IDS.join(', ')}`)
    .option('--copies <n>', 'labels per barcode', '1')
    .option('--skip <n>', 'positions left empty at the start of the first sheet', '0')
    .option('--batch <text>', 'batch or lot, printed as GS1 (10)')
    .option('--expiry <date>', 'expiry date YYYY-MM-DD, printed as GS1 (17)')
    .option('--gs1 <kind>', 'with batch or expiry: datamatrix or 128', 'datamatrix');
}

async function accountOf(store: Store, name: string): Promise<Account> {
  const account = await store.accounts.find(name);
  if (!account) throw noSuchAccount(name);
  return account;
}

function queryOf(options: SourceOptions): LabelQuery {
  const { account: _, ...fields } = options;
  const parsed = labelQuerySchema.safeParse(Object.fromEntries(Object.entries(fields).filter(([key]) => key in labelQuerySchema.shape)));
  if (!parsed.success) throw badRequest(parsed.error.issues.map((issue) => `--${issue.path.join('.')}: ${issue.message}`).join(' '));
  return parsed.data;
}

export function registerLabelCommands(program: Command): void {
  const labels = program.command('labels').description('Print barcode labels (PDF, ZPL) and make codes for items that have none.');

  withLabelOptions(labels.command('pdf'))
    .description('Write labels as a PDF: a sheet layout (default a4-3x8) or a roll.')
    .requiredOption('--out <file>', 'the PDF file to write')
    .action(async (options: SourceOptions & DatabaseOptions & { out: string }) => {
      const pdf = await withStore(options, async (store) =>
        labelPdf(await labelJob(store, await accountOf(store, options.account), queryOf(options), 'pdf')),
      );
      writeFileSync(options.out, pdf);
      console.log(`Wrote ${options.out} (${pdf.length} bytes).`);
    });

  withLabelOptions(labels.command('zpl'))
    .description('Write labels as ZPL for a Zebra printer (a roll layout, default roll-50x25); to standard output without --out.')
    .option('--out <file>', 'the ZPL file to write')
    .action(async (options: SourceOptions & DatabaseOptions & { out?: string }) => {
      const zpl = await withStore(options, async (store) =>
        labelZpl(await labelJob(store, await accountOf(store, options.account), queryOf(options), 'zpl')),
      );
      if (options.out === undefined) return void process.stdout.write(zpl);
      writeFileSync(options.out, zpl);
      console.log(`Wrote ${options.out}.`);
    });

  withLabelOptions(labels.command('print'))
    .description("Send labels as ZPL to the account's label printer (labels setup --printer).")
    .action(async (options: SourceOptions & DatabaseOptions) => {
      const { count, printer } = await withStore(options, async (store) => {
        const account = await accountOf(store, options.account);
        const { printer } = await store.labels.settings(account);
        if (printer === null) throw conflict(labelMessages.noPrinter(account.name));
        const job = await labelJob(store, account, queryOf(options), 'zpl');
        await sendToPrinter(printer, await labelZpl(job));
        return { count: job.labels.length, printer };
      });
      console.log(`Sent ${count} label${count === 1 ? '' : 's'} to the printer at ${printer}.`);
    });

  withDatabaseOptions(labels.command('codes'))
    .description(
      "New items for goods without a barcode, each with an EAN-13 of the account's prefix (labels setup --prefix), as an import would add them.",
    )
    .requiredOption('--account <name>', 'the account')
    .requiredOption('--name <name...>', "the new items' names (repeat --name, or give several)")
    .action(async (options: { account: string; name: string[] } & DatabaseOptions) => {
      const names = options.name.map((name) => name.trim());
      if (names.some((name) => name === '')) throw badRequest(labelMessages.noCodesAsked);
      const codes = await withStore(options, async (store) => store.labels.makeCodes(await accountOf(store, options.account), names));
      console.log(['item', 'name', 'barcode'].join('\t'));
      for (const code of codes) console.log([code.item, code.name, code.barcode].join('\t'));
    });

  withDatabaseOptions(labels.command('setup'))
    .description("Show or change an account's label settings: the prefix of its own codes and its label printer.")
    .requiredOption('--account <name>', 'the account')
    .option('--prefix <digits>', 'your GS1 company prefix, or 20 to 29 for codes used only inside the shop (default 20)')
    .option('--printer <address:port>', 'the label printer ZPL is sent to (e.g. 192.168.1.50:9100), or none')
    .action(async (options: { account: string; prefix?: string; printer?: string } & DatabaseOptions) => {
      if (options.prefix !== undefined && !isCodePrefix(options.prefix)) throw badRequest(labelMessages.badPrefix);
      const printer = options.printer === undefined ? undefined : options.printer === 'none' ? null : options.printer;
      if (printer && !parsePrinterAddress(printer))
        throw badRequest(`--printer: "${printer}" is not an address:port such as 192.168.1.50:9100.`);
      const settings = await withStore(options, async (store) => {
        const account = await accountOf(store, options.account);
        if (options.prefix === undefined && printer === undefined) return store.labels.settings(account);
        return store.labels.setSettings(account, {
          ...(options.prefix !== undefined ? { prefix: options.prefix } : {}),
          ...(printer !== undefined ? { printer } : {}),
        });
      });
      console.log(
        `Account "${options.account}": codes start with ${settings.prefix} (next number ${settings.nextCode}); label printer: ${settings.printer ?? 'none'}.`,
      );
    });
}
