// `barcode-inventory sync …` (docs/SYNC.md): link an account to an upstream instance, see how its
// sync goes, run a round now, list conflicts, unlink. `serve` and the desktop app sync linked
// accounts in the background; these commands work on the same database beside them.
import { readFile } from 'node:fs/promises';
import { text as streamText } from 'node:stream/consumers';
import { type Command, InvalidArgumentError } from 'commander';
import { MAX_COUNTED_CONFLICTS, followerRegistrationSchema, syncMessages } from '../../shared/index.ts';
import { badRequest } from '../errors.ts';
import { commandLineActor } from '../store/audit.ts';
import type { Account, Store } from '../store/store.ts';
import { linkAccount } from '../sync/link-account.ts';
import { syncRound } from '../sync/sync-round.ts';
import { noSuchAccount } from '../store/tokens.ts';
import { withDatabaseOptions, withStore } from './database-option.ts';

function upstreamUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InvalidArgumentError('the upstream is a URL such as http://head-office:8270');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new InvalidArgumentError('the upstream URL starts with http:// or https://');
  return url.origin + url.pathname.replace(/\/+$/, '');
}

/**
 * The upstream's token: from --token, from standard input (`--token -`: typed at a prompt or piped), or
 * from --token-file. The last two keep it out of `ps` and the shell's history.
 */
async function upstreamToken(options: { token?: string; tokenFile?: string }): Promise<string> {
  if ((options.token === undefined) === (options.tokenFile === undefined))
    throw badRequest('Give the upstream token with --token <token>, --token - (standard input) or --token-file <file>: one of them.');
  let text: string;
  if (options.tokenFile !== undefined) {
    try {
      text = await readFile(options.tokenFile, 'utf8');
    } catch (error) {
      throw badRequest(`Cannot read the token file ${options.tokenFile}: ${(error as Error).message}`);
    }
  } else if (options.token === '-') {
    if (process.stdin.isTTY) process.stderr.write('Upstream token: ');
    text = await streamText(process.stdin);
  } else text = options.token!;
  const token = text.trim();
  if (token === '' || /\s/.test(token)) throw badRequest('The upstream token is one word, such as bi_…: check what was given.');
  return token;
}

/** A follower's label: what the upstream accepts (shared followerRegistrationSchema), said before anything is asked. */
function followerLabel(value: string): string {
  const checked = followerRegistrationSchema.shape.label.safeParse(value);
  if (!checked.success) throw new InvalidArgumentError(checked.error.issues[0]!.message);
  return value;
}

async function accountNamed(store: Store, name: string): Promise<Account> {
  const account = await store.accounts.find(name);
  if (!account) throw noSuchAccount(name);
  return account;
}

async function linkedAccount(store: Store, name: string) {
  const account = await accountNamed(store, name);
  const link = await store.sync.linkOf(account);
  if (!link) throw badRequest(syncMessages.notLinked(name));
  return { account, link };
}

export function registerSyncCommands(program: Command): void {
  const sync = program
    .command('sync')
    .description('Follow an upstream instance (a shop PC, head office): link, status, now, conflicts, unlink.');

  withDatabaseOptions(sync.command('link'))
    .description('Make an account follow an upstream instance: its catalogue is copied from there, and stock movements flow both ways.')
    .requiredOption('--upstream <url>', 'the upstream server, e.g. http://head-office:8270', upstreamUrl)
    .requiredOption('--account <name>', 'the account, by the name it has upstream')
    .option(
      '--token <token>',
      'an API token of that account on the upstream (barcode-inventory token create there); - reads it from standard input',
    )
    .option('--token-file <file>', 'read the token from this file instead (keeps it out of the process list and the shell history)')
    .option('--label <label>', 'how the upstream names this computer ("Laptop 2"); default: its hostname', followerLabel)
    .action(
      async (options: {
        upstream: string;
        account: string;
        token?: string;
        tokenFile?: string;
        label?: string;
        db?: string;
        database?: string;
      }) => {
        const token = await upstreamToken(options);
        // A link that fails removes the database file it created; once linked, the file stays even
        // when the first round fails (the background rounds take over).
        await withStore(
          options,
          async (store) => {
            const { upstreamInstance } = await linkAccount(store, {
              upstream: options.upstream,
              account: options.account,
              token,
              label: options.label,
            });
            await store.audit.record(options.account, commandLineActor(), {
              action: 'sync.link',
              subject: `account ${options.account}`,
              detail: { upstream: options.upstream, upstream_instance: upstreamInstance },
            });
            console.log(`Account "${options.account}" now follows ${options.upstream} (instance ${upstreamInstance}).`);
          },
          { removeIfCreated: true },
        );
        await withStore(options, async (store) => {
          const account = await accountNamed(store, options.account);
          const result = await syncRound(store, (await store.sync.linkOf(account))!);
          console.log(`First round: ${result.pushed} movement(s) pushed, ${result.pulled} pulled.`);
          console.log('serve and the desktop app keep it in sync in the background; `barcode-inventory sync status` shows how it goes.');
        });
      },
    );

  withDatabaseOptions(sync.command('status'))
    .description('How the sync of each linked account goes: last success, movements waiting, conflicts, clock difference.')
    .option('--account <name>', 'only this account')
    .action(async (options: { account?: string; db?: string; database?: string }) => {
      await withStore(options, async (store) => {
        const links = (await store.sync.links()).filter((l) => options.account === undefined || l.account === options.account);
        if (links.length === 0)
          return console.log(options.account ? syncMessages.notLinked(options.account) : 'No account follows an upstream.');
        for (const link of links) {
          const status = await store.sync.status({ id: link.accountId, name: link.account, warehousesEnabled: link.warehousesEnabled });
          console.log(`${link.account} → ${link.upstreamUrl}: ${status.state.replace('_', ' ')}`);
          console.log(`  ${syncMessages.summary(status, status.offline_since ?? status.last_success_at)}`);
          console.log(
            `  last success: ${status.last_success_at ?? 'never'}${status.offline_since ? `; unreachable since ${status.offline_since}` : ''}`,
          );
          console.log(
            `  waiting to be pushed: ${status.pending} movement(s); open conflicts: ${status.conflicts > MAX_COUNTED_CONFLICTS ? `more than ${MAX_COUNTED_CONFLICTS}` : status.conflicts}`,
          );
          if (status.clock_skew_ms !== null)
            console.log(`  upstream clock: ${status.clock_skew_ms >= 0 ? '+' : ''}${status.clock_skew_ms} ms`);
          if (status.clock_warning) console.log(`  WARNING: ${status.clock_warning}`);
          if (status.last_error && status.state !== 'in_sync') console.log(`  last error: ${status.last_error}`);
        }
      });
    });

  withDatabaseOptions(sync.command('now'))
    .description('Run one round of sync of every linked account (or one) now, and say what it did.')
    .option('--account <name>', 'only this account')
    .action(async (options: { account?: string; db?: string; database?: string }) => {
      await withStore(options, async (store) => {
        const links = (await store.sync.links()).filter((l) => options.account === undefined || l.account === options.account);
        if (links.length === 0)
          throw badRequest(
            options.account ? syncMessages.notLinked(options.account) : 'No account follows an upstream: barcode-inventory sync link …',
          );
        let failed = 0;
        for (const link of links) {
          try {
            const result = await syncRound(store, link);
            console.log(
              `${link.account}: ${result.pushed} movement(s) pushed, ${result.pulled} pulled${result.catalogueCopied ? ', catalogue copied' : ''}.`,
            );
          } catch (error) {
            failed++;
            console.error(`${link.account}: ${(error as Error).message}`);
          }
        }
        if (failed > 0) process.exitCode = 1;
      });
    });

  withDatabaseOptions(sync.command('conflicts'))
    .description('List sets and counts made without seeing each other (open ones; --all for resolved too).')
    .requiredOption('--account <name>', 'the account')
    .option('--all', 'resolved conflicts too')
    .action(async (options: { account: string; all?: boolean; db?: string; database?: string }) => {
      await withStore(options, async (store) => {
        const account = await accountNamed(store, options.account);
        const conflicts = await store.sync.conflicts(account, options.all ? 'all' : 'open', 500);
        if (conflicts.length === 0) return console.log('No conflicts.');
        for (const c of conflicts) {
          const where = c.warehouse_name ? ` in ${c.warehouse_name}` : '';
          console.log(
            `${c.barcode}${where}: ${c.later.kind} ${c.later.value} (${c.later.origin}, ${c.later.occurred_at}) kept over ${c.earlier.kind} ${c.earlier.value} (${c.earlier.origin}, ${c.earlier.occurred_at}); now ${c.quantity ?? '-'}${c.resolved ? ' [resolved]' : ''}`,
          );
          if (c.movements > 1) console.log(`  ${syncMessages.madeUnseen(c.movements, c.first.occurred_at)}`);
        }
        console.log(
          'Resolve one by setting the quantity again (scanner UI, or POST …/inventory_by_barcode/) once you have looked at both.',
        );
      });
    });

  withDatabaseOptions(sync.command('unlink'))
    .description('Stop following the upstream; the account and its movements stay here.')
    .requiredOption('--account <name>', 'the account')
    .action(async (options: { account: string; db?: string; database?: string }) => {
      await withStore(options, async (store) => {
        const { account, link } = await linkedAccount(store, options.account);
        await store.sync.unlink(account);
        await store.audit.recordFor(account, commandLineActor(), {
          action: 'sync.unlink',
          subject: `account ${options.account}`,
          detail: { upstream: link.upstreamUrl },
        });
        console.log(`Account "${options.account}" no longer follows ${link.upstreamUrl}.`);
      });
    });
}
