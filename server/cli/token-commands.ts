// `barcode-inventory token`: create, list and revoke the API tokens of an account.
import { type Command, InvalidArgumentError } from 'commander';
import { badRequest } from '../errors.ts';
import { withDatabaseOptions, withStore } from './database-option.ts';

function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('expected a token id (a whole number).');
  return n;
}

export function registerTokenCommands(program: Command): void {
  const token = program.command('token').description('Create, list and revoke API tokens.');
  withDatabaseOptions(token.command('create'))
    .description('Create an API token for an account; the token is printed once, alone on the last line.')
    .requiredOption('--account <name>', 'account the token acts for')
    .option('--label <text>', 'a name to tell the token apart (e.g. "till 2")')
    .action(async (options: { account: string; label?: string; db?: string; database?: string }) => {
      const { id, key } = await withStore(options, (store) => store.tokens.create(options.account, options.label ?? null));
      console.log(`Created token ${id} for account "${options.account}". Keep it secret: it is not shown again.`);
      console.log(key);
    });
  withDatabaseOptions(token.command('list'))
    .description('List tokens (never the keys themselves).')
    .option('--account <name>', 'only the tokens of this account')
    .action(async (options: { account?: string; db?: string; database?: string }) => {
      const tokens = await withStore(options, (store) => store.tokens.list(options.account));
      if (tokens.length === 0) return console.log('No tokens.');
      console.log(['id', 'account', 'label', 'prefix', 'created', 'last used', 'expires', 'revoked'].join('\t'));
      const now = new Date().toISOString();
      for (const t of tokens) {
        // A sign-in link's token expires after some days unused; a token made here never does.
        const expires =
          t.expiresAt === null
            ? 'never'
            : `${t.expiresAt < now ? 'expired' : 'if unused until'} ${t.expiresAt} (${t.idleExpirySeconds! / 86_400} days idle)`;
        console.log(
          [t.id, t.account, t.label ?? '', `${t.prefix}…`, t.createdAt, t.lastUsedAt ?? '', expires, t.revokedAt ?? ''].join('\t'),
        );
      }
    });
  withDatabaseOptions(token.command('revoke'))
    .description('Revoke a token by id; requests with it get 401 from then on.')
    .argument('<id>', 'token id, as shown by token list', positiveInt)
    .action(async (id: number, options: { db?: string; database?: string }) => {
      const revoked = await withStore(options, (store) => store.tokens.revoke(id));
      if (!revoked) throw badRequest(`No active token with id ${id}.`);
      console.log(`Revoked token ${id}.`);
    });
}
