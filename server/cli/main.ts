// The `barcode-inventory` command line: serve, import, token, person, audit, account, signin-link, csv,
// backup, restore, check. Each command has --help. Failures of the error family (server/errors.ts) print their text
// and exit 1; anything else prints `barcode-inventory: <message>`.
import { readFileSync } from 'node:fs';
import { Command, InvalidArgumentError } from 'commander';
import pino from 'pino';
import { type ImportProgress, importCatalogueFile } from '../catalogue/import-catalogue-file.ts';
import { badRequest, isApiError } from '../errors.ts';
import { launch } from '../launch/launch.ts';
import { DEFAULT_HOST, DEFAULT_PORT } from '../start.ts';
import type { ImportSummary } from '../store/catalogue-writer.ts';
import { registerAccountCommands } from './account-commands.ts';
import { registerBackupCommands } from './backup-commands.ts';
import { registerCsvCommands } from './csv-commands.ts';
import { databaseOf, withDatabaseOptions, withStore } from './database-option.ts';
import { registerLabelCommands } from './label-commands.ts';
import { addSignInCommand } from './signin-command.ts';
import { registerSyncCommands } from './sync-commands.ts';
import { registerAuditCommand, registerPersonCommands } from './person-commands.ts';
import { registerTokenCommands } from './token-commands.ts';

function port(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new InvalidArgumentError('a port is a whole number from 0 to 65535.');
  return n;
}

export function buildProgram(): Command {
  const program = new Command('barcode-inventory')
    .description('Stock by barcode over a local SQLite database: HTTP API, catalogue import, API tokens.')
    .showHelpAfterError()
    .configureOutput({ outputError: (text, write) => write(text) });

  withDatabaseOptions(program.command('serve'))
    .description('Start the HTTP API (and the scanner UI once built). Stops cleanly on Ctrl-C (SIGINT) or SIGTERM.')
    .option('--host <host>', 'address to listen on; 0.0.0.0 opens it to the local network', DEFAULT_HOST)
    .option('--port <n>', 'port to listen on (0 picks a free one)', port, DEFAULT_PORT)
    .option('--log-level <level>', 'fatal, error, warn, info, debug or silent', 'info')
    .option('--allow-origin <origin...>', 'browser origins (e.g. http://till.local:3000) allowed to call the API; none by default')
    .option('--no-announce', 'do not announce the API on the local network over mDNS (only LAN binds announce; see docs/POS.md)')
    .option(
      '--tls-cert <file>',
      "serve HTTPS with this certificate (PEM), with --tls-key: phones' cameras need it on the LAN (docs/DEPLOY.md)",
    )
    .option('--tls-key <file>', 'the private key (PEM) of --tls-cert')
    .action(
      async (options: {
        db?: string;
        database?: string;
        host: string;
        port: number;
        logLevel: string;
        allowOrigin?: string[];
        announce: boolean;
        tlsCert?: string;
        tlsKey?: string;
      }) => {
        if ((options.tlsCert === undefined) !== (options.tlsKey === undefined))
          throw badRequest('HTTPS needs both --tls-cert and --tls-key.');
        const tls = options.tlsCert !== undefined ? { cert: readFileSync(options.tlsCert), key: readFileSync(options.tlsKey!) } : undefined;
        const launched = await launch({
          database: databaseOf(options),
          host: options.host,
          port: options.port,
          logger: pino({ level: options.logLevel }, pino.destination(2)),
          ...(options.allowOrigin ? { allowedOrigins: options.allowOrigin } : {}),
          ui: true, // the scanner UI, once `npm run build` made it
          discovery: options.announce ? {} : false,
          ...(tls ? { tls } : {}),
        });
        for (const line of launched.describe()) console.log(line);
        const stop = (signal: string) => {
          console.log(`${signal} received: finishing open requests, then closing the database.`);
          void launched.close().then(() => process.exit(0));
        };
        process.once('SIGINT', () => stop('SIGINT'));
        process.once('SIGTERM', () => stop('SIGTERM'));
      },
    );

  withDatabaseOptions(program.command('import'))
    .description('Load a catalogue file (JSON, see the README) in one transaction: all of it or nothing.')
    .argument('<catalogue>', 'catalogue file, JSON')
    .action(async (file: string, options: { db?: string; database?: string }) => {
      // Streams the file (a million barcodes never sit in memory); a progress line on stderr for big files.
      let shown = false;
      const onProgress = ({ bytesRead, totalBytes, barcodes }: ImportProgress) => {
        shown = true;
        process.stderr.write(
          `\rImporting ${file}: ${Math.floor((100 * bytesRead) / Math.max(totalBytes, 1))}% read, ${barcodes} barcodes written…`,
        );
      };
      let summary: ImportSummary;
      try {
        // A refused catalogue leaves no empty database behind where there was none.
        summary = await withStore(options, (store) => importCatalogueFile(store, file, { onProgress }), { removeIfCreated: true });
      } finally {
        if (shown) process.stderr.write('\n');
      }
      console.log(
        `Imported ${file}: ${summary.accounts} account(s), ${summary.warehouses} warehouse(s), ${summary.items} item(s), ` +
          `${summary.variants} variant(s), ${summary.barcodes} barcode(s); ${summary.quantitiesChanged} quantit${summary.quantitiesChanged === 1 ? 'y' : 'ies'} changed.`,
      );
    });

  registerTokenCommands(program);
  registerPersonCommands(program);
  registerAuditCommand(program);
  registerAccountCommands(program);
  registerBackupCommands(program);
  registerCsvCommands(program);
  addSignInCommand(program);
  registerSyncCommands(program);
  registerLabelCommands(program);
  return program;
}

export async function runCli(argv: string[]): Promise<void> {
  try {
    await buildProgram().parseAsync(argv);
  } catch (error) {
    console.error(isApiError(error) ? error.message : `barcode-inventory: ${(error as Error).message ?? String(error)}`);
    process.exitCode = 1;
  }
}
