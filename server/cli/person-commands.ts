// `barcode-inventory person …` (docs/API.md, "People"): the people of an account who sign in on shared
// scanners with a badge or a PIN: add, list, a new badge, revoke a lost badge, set a PIN, change the
// role, revoke. And `barcode-inventory audit`, the account's audit log. Every change is recorded in
// the audit log as done by the command line (the operating system's user on this computer).
import path from 'node:path';
import { text as streamText } from 'node:stream/consumers';
import { type Command, InvalidArgumentError } from 'commander';
import {
  AUDIT_ACTIONS,
  type AuditAction,
  MAX_AUDIT_PAGE,
  PERSON_ROLES,
  type PersonRole,
  ROLE_PURPOSES,
  peopleMessages,
  pinSchema,
} from '../../shared/index.ts';
import { badRequest } from '../errors.ts';
import { commandLineActor } from '../store/audit.ts';
import { writeBadgePage } from './badge-page.ts';
import { type DatabaseOptions, withDatabaseOptions, withStore } from './database-option.ts';
import { roleArgument } from './role-argument.ts';

function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('expected a person id (a whole number), as person list shows it.');
  return n;
}

const personRole = roleArgument(PERSON_ROLES);
const ROLE_HELP = `what the person may do in the scanner UI: ${PERSON_ROLES.join(', ')} (docs/API.md, "Roles")`;

/** A PIN read from standard input (never an argument: those end up in the shell's history and the process list). */
async function readPin(): Promise<string> {
  if (process.stdin.isTTY) process.stderr.write(`PIN (4 to 8 digits): `);
  const pin = (await streamText(process.stdin)).trim();
  const checked = pinSchema.safeParse(pin);
  if (!checked.success) throw badRequest(checked.error.issues[0]!.message);
  return pin;
}

const slug = (name: string) =>
  name
    .normalize('NFKD')
    .replace(/[^\w-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .toLowerCase() || 'person';

/** Writes the badge page and says where; the badge itself is printed last, alone on its line, once. */
function printBadge(
  badge: string,
  person: { id: number; name: string; role: string },
  account: string,
  out: string | undefined,
  replaced: boolean,
): void {
  const file = path.resolve(out ?? `badge-${person.id}-${slug(person.name)}.html`);
  writeBadgePage(file, badge, person, account);
  console.log(peopleMessages.badgePage(file));
  console.log(peopleMessages.badgeMade(person.name, replaced));
  console.log(badge);
}

export function registerPersonCommands(program: Command): void {
  const person = program
    .command('person')
    .description('People who sign in on shared scanners with a badge or a PIN: add, list, badge, revoke-badge, pin, role, revoke.');

  withDatabaseOptions(person.command('add'))
    .description('Add a person to an account; writes the page of their badge, to print (unless --no-badge).')
    .requiredOption('--account <name>', 'the account')
    .requiredOption('--name <name>', 'the name the scanner shows, e.g. "Ayşe"')
    .requiredOption('--role <role>', ROLE_HELP, personRole)
    .option('--pin', 'also give a PIN of 4 to 8 digits, read from standard input')
    .option('--no-badge', 'no badge: the person signs in with the PIN only')
    .option('--out <file>', 'where to write the badge page (default: badge-<id>-<name>.html here)')
    .action(
      async (
        options: { account: string; name: string; role: PersonRole; pin?: boolean; badge: boolean; out?: string } & DatabaseOptions,
      ) => {
        if (!options.badge && !options.pin) throw badRequest('A person needs a badge or a PIN to sign in: drop --no-badge or add --pin.');
        const pin = options.pin ? await readPin() : undefined;
        const made = await withStore(options, (store) =>
          store.people.add(options.account, commandLineActor(), { name: options.name, role: options.role, badge: options.badge, pin }),
        );
        console.log(peopleMessages.added(made.person.id, made.person.name, options.account, options.role));
        if (made.badge !== null) printBadge(made.badge, made.person, options.account, options.out, false);
      },
    );

  withDatabaseOptions(person.command('list'))
    .description('List the people of an account: role, badge, PIN (never either itself), sign-ins now, revoked.')
    .requiredOption('--account <name>', 'the account')
    .action(async (options: { account: string } & DatabaseOptions) => {
      const people = await withStore(options, (store) => store.people.listByName(options.account));
      if (people.length === 0) return console.log(peopleMessages.noPeople);
      console.log(['id', 'name', 'role', 'badge', 'pin', 'signed in', 'created', 'revoked'].join('\t'));
      for (const p of people)
        console.log(
          [p.id, p.name, p.role, p.badge ? 'yes' : 'no', p.pin ? 'yes' : 'no', p.signed_in, p.created_at, p.revoked_at ?? ''].join('\t'),
        );
    });

  withDatabaseOptions(person.command('badge'))
    .description('Print a new badge for a person: the old badge stops working, and their sign-ins end.')
    .requiredOption('--account <name>', 'the account')
    .argument('<id>', 'person id, as person list shows it', positiveInt)
    .option('--out <file>', 'where to write the badge page')
    .action(async (id: number, options: { account: string; out?: string } & DatabaseOptions) => {
      const made = await withStore(options, (store) => store.people.newBadge(options.account, commandLineActor(), id));
      printBadge(made.badge, made.person, options.account, options.out, true);
    });

  withDatabaseOptions(person.command('revoke-badge'))
    .description('A lost badge: it stops working at once and the sign-ins made with it end; a PIN still works.')
    .requiredOption('--account <name>', 'the account')
    .argument('<id>', 'person id', positiveInt)
    .action(async (id: number, options: { account: string } & DatabaseOptions) => {
      const changed = await withStore(options, (store) => store.people.revokeBadge(options.account, commandLineActor(), id));
      console.log(peopleMessages.badgeRevoked(changed.id, changed.name));
    });

  withDatabaseOptions(person.command('pin'))
    .description("Set a person's PIN (read from standard input), or remove it with --remove.")
    .requiredOption('--account <name>', 'the account')
    .argument('<id>', 'person id', positiveInt)
    .option('--remove', 'remove the PIN')
    .action(async (id: number, options: { account: string; remove?: boolean } & DatabaseOptions) => {
      const pin = options.remove ? null : await readPin();
      const changed = await withStore(options, (store) => store.people.change(options.account, commandLineActor(), id, { pin }));
      console.log(peopleMessages.changed(changed.id, changed.name));
    });

  withDatabaseOptions(person.command('role'))
    .description("Change a person's role; their sign-ins get it at their next request.")
    .requiredOption('--account <name>', 'the account')
    .argument('<id>', 'person id', positiveInt)
    .argument('<role>', ROLE_HELP, personRole)
    .action(async (id: number, role: PersonRole, options: { account: string } & DatabaseOptions) => {
      const changed = await withStore(options, (store) => store.people.change(options.account, commandLineActor(), id, { role }));
      console.log(`${peopleMessages.changed(changed.id, changed.name)} Role: ${role} (${ROLE_PURPOSES[role]}).`);
    });

  withDatabaseOptions(person.command('revoke'))
    .description('The person can no longer sign in (badge and PIN) and is signed out everywhere; their name stays in the history.')
    .requiredOption('--account <name>', 'the account')
    .argument('<id>', 'person id', positiveInt)
    .action(async (id: number, options: { account: string } & DatabaseOptions) => {
      const revoked = await withStore(options, (store) => store.people.revoke(options.account, commandLineActor(), id));
      console.log(peopleMessages.revoked(revoked.id, revoked.name));
    });
}

function limit(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > MAX_AUDIT_PAGE) throw new InvalidArgumentError(`a whole number from 1 to ${MAX_AUDIT_PAGE}.`);
  return n;
}

function instant(value: string): string {
  const at = new Date(value);
  if (Number.isNaN(at.getTime())) throw new InvalidArgumentError('a date and time, e.g. 2026-05-01 or 2026-05-01T14:00:00Z.');
  return at.toISOString();
}

function action(value: string): AuditAction {
  const found = AUDIT_ACTIONS.find((a) => a === value);
  if (!found) throw new InvalidArgumentError(`one of ${AUDIT_ACTIONS.join(', ')}.`);
  return found;
}

export function registerAuditCommand(program: Command): void {
  withDatabaseOptions(program.command('audit'))
    .description('Show the audit log of an account, newest first: what changed that is not a stock movement, who did it and when.')
    .requiredOption('--account <name>', 'the account')
    .option('--actor <name>', 'only what this actor did (a person, a token label, the command line as shown)')
    .option('--action <action>', `only this action: ${AUDIT_ACTIONS.join(', ')}`, action)
    .option('--since <time>', 'only at or after this time', instant)
    .option('--until <time>', 'only before this time', instant)
    .option('--limit <n>', `at most this many entries (1–${MAX_AUDIT_PAGE})`, limit, 100)
    .action(
      async (
        options: { account: string; actor?: string; action?: AuditAction; since?: string; until?: string; limit: number } & DatabaseOptions,
      ) => {
        const page = await withStore(options, async (store) => {
          const account = await store.accounts.find(options.account);
          if (!account) throw badRequest(`No account named "${options.account}".`);
          return store.audit.page(account, {
            limit: options.limit,
            ...(options.actor !== undefined ? { actor: options.actor } : {}),
            ...(options.action !== undefined ? { action: options.action } : {}),
            ...(options.since !== undefined ? { since: options.since } : {}),
            ...(options.until !== undefined ? { until: options.until } : {}),
          });
        });
        if (page.results.length === 0) return console.log('No entries.');
        console.log(['at', 'actor', 'action', 'subject', 'detail'].join('\t'));
        for (const e of page.results)
          console.log([e.at, e.actor, e.action, e.subject, e.detail ? JSON.stringify(e.detail) : ''].join('\t'));
        if (page.next_cursor !== null) console.log(`\nMore entries are older: add --until ${page.results.at(-1)!.at}`);
      },
    );
}
