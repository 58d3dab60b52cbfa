// `barcode-inventory signin-link`: prints a one-time link that signs a browser in to the scanner UI
// as one account, with a role of the scanner UI (docs/UI.md, "Signing in"; manager unless --role says). The code is stored hashed in the database, so the link
// works with a server started separately on the same database.
import { type Command, InvalidArgumentError } from 'commander';
import { DEFAULT_SIGNIN_ROLE, SIGNIN_ROLES, type SignInRole } from '../../shared/index.ts';
import { signInLink } from '../launch/signin-link.ts';
import { DEFAULT_HOST, DEFAULT_PORT } from '../start.ts';
import { DEFAULT_SIGNIN_TOKEN_IDLE_DAYS, DEFAULT_SIGNIN_TTL_MS } from '../store/signin-codes.ts';
import { withDatabaseOptions, withStore } from './database-option.ts';
import { roleArgument } from './role-argument.ts';

function minutes(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0 || n > 24 * 60) throw new InvalidArgumentError('minutes: a number above 0, at most 1440.');
  return n;
}

function days(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0 || n > 3650) throw new InvalidArgumentError('days: a number from 0 (never expires) to 3650.');
  return n;
}

const signInRole = roleArgument(SIGNIN_ROLES);

export function addSignInCommand(program: Command): void {
  withDatabaseOptions(program.command('signin-link'))
    .description('Print a one-time link that signs a browser in to the scanner UI as an account.')
    .requiredOption('--account <name>', 'account the browser will act for')
    .option(
      '--role <role>',
      `the role the browser signs in with: ${SIGNIN_ROLES.join(', ')} (docs/API.md, "Roles")`,
      signInRole,
      DEFAULT_SIGNIN_ROLE,
    )
    .option('--url <url>', 'address of the running server as the browser reaches it', `http://${DEFAULT_HOST}:${DEFAULT_PORT}`)
    .option('--minutes <n>', 'how long the link works', minutes, DEFAULT_SIGNIN_TTL_MS / 60_000)
    .option(
      '--idle-days <n>',
      'the token the link signs in with expires after this many days unused (0: never)',
      days,
      DEFAULT_SIGNIN_TOKEN_IDLE_DAYS,
    )
    .action(
      async (options: {
        account: string;
        role: SignInRole;
        url: string;
        minutes: number;
        idleDays: number;
        db?: string;
        database?: string;
      }) => {
        const { code, expiresAt } = await withStore(options, (store) =>
          store.signIn.createCode(options.account, options.minutes * 60_000, options.idleDays, options.role),
        );
        const idle = options.idleDays === 0 ? 'never expires' : `expires after ${options.idleDays} days unused`;
        console.log(
          `One-time sign-in link for account "${options.account}" as a ${options.role}, valid until ${expiresAt} (works once; the device's sign-in ${idle}):`,
        );
        console.log(signInLink(options.url, code));
      },
    );
}
