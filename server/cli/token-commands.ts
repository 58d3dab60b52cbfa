// `barcode-inventory token`: create, list, revoke the API tokens of an account, and change their role
// (docs/API.md, "Roles"; docs/SECURITY.md, "Least privilege").
import { type Command, InvalidArgumentError } from 'commander';
import { DEFAULT_TOKEN_ROLE, GRANTABLE_ROLES, LEGACY_ROLE, ROLE_PURPOSES, type TokenRole, tokenMessages } from '../../shared/index.ts';
import { badRequest } from '../errors.ts';
import { commandLineActor } from '../store/audit.ts';
import { withDatabaseOptions, withStore } from './database-option.ts';
import { roleArgument } from './role-argument.ts';

function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('expected a token id (a whole number).');
  return n;
}

/** A role a token may be given (never `full`, which only tokens made before roles have). */
const grantableRole = roleArgument(GRANTABLE_ROLES);

const ROLE_HELP = `what the token may call: ${GRANTABLE_ROLES.join(', ')} (docs/API.md, "Roles")`;

export function registerTokenCommands(program: Command): void {
  const token = program.command('token').description('Create, list and revoke API tokens, and change their role.');
  withDatabaseOptions(token.command('create'))
    .description('Create an API token for an account; the token is printed once, alone on the last line.')
    .requiredOption('--account <name>', 'account the token acts for')
    .option('--role <role>', `${ROLE_HELP} (default: ${DEFAULT_TOKEN_ROLE})`, grantableRole)
    .option('--label <text>', 'a name to tell the token apart (e.g. "till 2")')
    .action(async (options: { account: string; role?: TokenRole; label?: string; db?: string; database?: string }) => {
      const role = options.role ?? DEFAULT_TOKEN_ROLE;
      const { id, key } = await withStore(options, (store) =>
        store.tokens.create(options.account, options.label ?? null, role, commandLineActor()),
      );
      console.log(tokenMessages.created(id, options.account, role, ROLE_PURPOSES[role]));
      if (options.role === undefined) console.log(tokenMessages.defaultRoleAdvice(DEFAULT_TOKEN_ROLE));
      console.log(key);
    });
  withDatabaseOptions(token.command('list'))
    .description('List tokens with their role and label (never the keys themselves).')
    .option('--account <name>', 'only the tokens of this account')
    .action(async (options: { account?: string; db?: string; database?: string }) => {
      const tokens = await withStore(options, (store) => store.tokens.list(options.account));
      if (tokens.length === 0) return console.log('No tokens.');
      console.log(['id', 'account', 'label', 'role', 'prefix', 'created', 'last used', 'expires', 'revoked'].join('\t'));
      const now = new Date().toISOString();
      for (const t of tokens) {
        // A sign-in link's token expires after some days unused; a token made here never does.
        const expires =
          t.expiresAt === null
            ? 'never'
            : `${t.expiresAt < now ? 'expired' : 'if unused until'} ${t.expiresAt} (${t.idleExpirySeconds! / 86_400} days idle)`;
        const role = t.role ?? tokenMessages.noRole;
        console.log(
          [t.id, t.account, t.label ?? '', role, `${t.prefix}…`, t.createdAt, t.lastUsedAt ?? '', expires, t.revokedAt ?? ''].join('\t'),
        );
      }
      // Tokens made before roles may call every endpoint: say which, and how to narrow them.
      const legacy = tokens.filter((t) => t.role === LEGACY_ROLE && t.revokedAt === null).map((t) => t.id);
      if (legacy.length > 0) console.log(`\n${tokenMessages.legacyHint(legacy)}`);
    });
  withDatabaseOptions(token.command('role'))
    .description("Change a token's role; requests with it are allowed or refused by the new role from then on.")
    .argument('<id>', 'token id, as shown by token list', positiveInt)
    .argument('<role>', ROLE_HELP, grantableRole)
    .action(async (id: number, role: TokenRole, options: { db?: string; database?: string }) => {
      const changed = await withStore(options, (store) => store.tokens.setRole(id, role, commandLineActor()));
      if (!changed) throw badRequest(tokenMessages.noActiveToken(id));
      console.log(tokenMessages.roleChanged(id, role, ROLE_PURPOSES[role]));
    });
  withDatabaseOptions(token.command('revoke'))
    .description('Revoke a token by id; requests with it get 401 from then on.')
    .argument('<id>', 'token id, as shown by token list', positiveInt)
    .action(async (id: number, options: { db?: string; database?: string }) => {
      const revoked = await withStore(options, (store) => store.tokens.revoke(id, commandLineActor()));
      if (!revoked) throw badRequest(tokenMessages.noActiveToken(id));
      console.log(`Revoked token ${id}.`);
    });
}
