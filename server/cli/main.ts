// The `barcode-inventory` command line: serve, import, token. Each command has --help.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import pino from 'pino';
import { CatalogueError, type ImportSummary } from '../catalogue/import-catalogue.ts';
import { CatalogueFileError, type ImportProgress, importCatalogueFile } from '../catalogue/import-catalogue-file.ts';
import { BUILT_UI_DIR, hasBuiltUi } from '../http/static-ui.ts';
import { DB_ENV_VAR, defaultDatabaseFile } from '../paths.ts';
import { BackupError, registerBackupCommands } from './backup-commands.ts';
import { lanNotice } from './lan-notice.ts';
import { DEFAULT_HOST, DEFAULT_PORT, startServer } from '../start.ts';
import { Database } from '../store/database.ts';
import { TokenError, createToken, listTokens, revokeToken } from '../store/tokens.ts';
import { registerCsvCommands } from './csv-commands.ts';
import { addSignInCommand } from './signin-command.ts';

/** A failure the user can fix: printed as one line, exit code 1, no stack trace. */
class UsageError extends Error {}

function port(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new InvalidArgumentError('a port is a whole number from 0 to 65535.');
  return n;
}

function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('expected a token id (a whole number).');
  return n;
}

const dbOption = ['--db <file>', `SQLite database file (default: $${DB_ENV_VAR} or ${defaultDatabaseFile({})})`] as const;

/** Opens the database, creating its folder when needed. */
async function openDatabase(file: string | undefined): Promise<Database> {
  const dbFile = file ?? defaultDatabaseFile();
  if (dbFile !== ':memory:') mkdirSync(path.dirname(path.resolve(dbFile)), { recursive: true });
  return Database.open(dbFile);
}

async function withDatabase<T>(file: string | undefined, work: (db: Database) => T): Promise<T> {
  const db = await openDatabase(file);
  try {
    return work(db);
  } finally {
    db.close();
  }
}

export function buildProgram(): Command {
  const program = new Command('barcode-inventory')
    .description('Stock by barcode over a local SQLite database: HTTP API, catalogue import, API tokens.')
    .showHelpAfterError()
    .configureOutput({ outputError: (text, write) => write(text) });

  program
    .command('serve')
    .description('Start the HTTP API. Stops cleanly on Ctrl-C (SIGINT) or SIGTERM.')
    .option(...dbOption)
    .option('--host <host>', 'address to listen on; 0.0.0.0 opens it to the local network', DEFAULT_HOST)
    .option('--port <n>', 'port to listen on (0 picks a free one)', port, DEFAULT_PORT)
    .option('--log-level <level>', 'fatal, error, warn, info, debug or silent', 'info')
    .option('--allow-origin <origin...>', 'browser origins (e.g. http://till.local:3000) allowed to call the API; none by default')
    .option('--no-announce', 'do not announce the API on the local network over mDNS (only LAN binds announce; see docs/POS.md)')
    .action(async (options: { db?: string; host: string; port: number; logLevel: string; allowOrigin?: string[]; announce: boolean }) => {
      const dbFile = options.db ?? defaultDatabaseFile();
      if (dbFile !== ':memory:') mkdirSync(path.dirname(path.resolve(dbFile)), { recursive: true });
      const logger = pino({ level: options.logLevel }, pino.destination(2));
      const uiDir = hasBuiltUi(BUILT_UI_DIR) ? BUILT_UI_DIR : undefined; // the scanner UI, once `npm run build` made it
      const running = await startServer({
        dbFile,
        host: options.host,
        port: options.port,
        logger,
        allowedOrigins: options.allowOrigin,
        uiDir,
        discovery: options.announce ? {} : false,
      });
      console.log(`barcode-inventory is serving ${running.url}/api/v1/ (database: ${dbFile})`);
      if (uiDir) console.log(`Scanner UI: ${running.url}/ (sign in: barcode-inventory signin-link --account <name>)`);
      const notice = lanNotice(options.host, running.port);
      if (notice) console.log(notice);
      if (running.discovery) console.log(`Announcing "${running.discovery.name}" as _barcode-inventory._tcp over mDNS (--no-announce turns it off).`);
      const stop = (signal: string) => {
        console.log(`${signal} received: finishing open requests, then closing the database.`);
        running.close().then(() => process.exit(0));
      };
      process.once('SIGINT', () => stop('SIGINT'));
      process.once('SIGTERM', () => stop('SIGTERM'));
    });

  program
    .command('import')
    .description('Load a catalogue file (JSON, see the README) in one transaction: all of it or nothing.')
    .argument('<catalogue>', 'catalogue file, JSON')
    .option(...dbOption)
    .action(async (file: string, options: { db?: string }) => {
      // Streams the file (a million barcodes never sit in memory); a progress line on stderr for big files.
      let shown = false;
      const onProgress = ({ bytesRead, totalBytes, barcodes }: ImportProgress) => {
        shown = true;
        process.stderr.write(`\rImporting ${file}: ${Math.floor((100 * bytesRead) / Math.max(totalBytes, 1))}% read, ${barcodes} barcodes written…`);
      };
      let summary: ImportSummary;
      try {
        summary = await withDatabase(options.db, (db) => importCatalogueFile(db, file, { onProgress }));
      } finally {
        if (shown) process.stderr.write('\n');
      }
      console.log(
        `Imported ${file}: ${summary.accounts} account(s), ${summary.warehouses} warehouse(s), ${summary.items} item(s), ` +
          `${summary.variants} variant(s), ${summary.barcodes} barcode(s); ${summary.quantitiesChanged} quantit${summary.quantitiesChanged === 1 ? 'y' : 'ies'} changed.`,
      );
    });

  const token = program.command('token').description('Create, list and revoke API tokens.');
  token
    .command('create')
    .description('Create an API token for an account; the token is printed once, alone on the last line.')
    .requiredOption('--account <name>', 'account the token acts for')
    .option('--label <text>', 'a name to tell the token apart (e.g. "till 2")')
    .option(...dbOption)
    .action(async (options: { account: string; label?: string; db?: string }) => {
      const { id, key } = await withDatabase(options.db, (db) => createToken(db, options.account, options.label ?? null));
      console.log(`Created token ${id} for account "${options.account}". Keep it secret: it is not shown again.`);
      console.log(key);
    });
  token
    .command('list')
    .description('List tokens (never the keys themselves).')
    .option('--account <name>', 'only the tokens of this account')
    .option(...dbOption)
    .action(async (options: { account?: string; db?: string }) => {
      const tokens = await withDatabase(options.db, (db) => listTokens(db, options.account));
      if (tokens.length === 0) return console.log('No tokens.');
      console.log(['id', 'account', 'label', 'prefix', 'created', 'revoked'].join('\t'));
      for (const t of tokens) console.log([t.id, t.account, t.label ?? '', `${t.prefix}…`, t.createdAt, t.revokedAt ?? ''].join('\t'));
    });
  token
    .command('revoke')
    .description('Revoke a token by id; requests with it get 401 from then on.')
    .argument('<id>', 'token id, as shown by token list', positiveInt)
    .option(...dbOption)
    .action(async (id: number, options: { db?: string }) => {
      const revoked = await withDatabase(options.db, (db) => revokeToken(db, id));
      if (!revoked) throw new UsageError(`No active token with id ${id}.`);
      console.log(`Revoked token ${id}.`);
    });

  registerBackupCommands(program);
  registerCsvCommands(program, { dbOption, withDatabase }); // issue 5: CSV export/import
  addSignInCommand(program);
  return program;
}

export async function runCli(argv: string[]): Promise<void> {
  try {
    await buildProgram().parseAsync(argv);
  } catch (error) {
    if (error instanceof UsageError || error instanceof CatalogueError || error instanceof CatalogueFileError || error instanceof TokenError || error instanceof BackupError) {
      console.error(error.message);
    } else {
      console.error(`barcode-inventory: ${(error as Error).message ?? String(error)}`);
    }
    process.exitCode = 1;
  }
}
