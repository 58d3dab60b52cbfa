// `barcode-inventory account`: an account's settings (docs/API.md, "GTIN equivalence"). Accounts
// themselves come from a catalogue import; these commands only read and change their settings.
import { type Command, InvalidArgumentError } from 'commander';
import { DEFAULT_PERSON_IDLE_MINUTES, MAX_PERSON_IDLE_MINUTES, peopleMessages } from '../../shared/index.ts';
import { badRequest } from '../errors.ts';
import { commandLineActor } from '../store/audit.ts';
import { noSuchAccount } from '../store/tokens.ts';
import { type DatabaseOptions, withDatabaseOptions, withStore } from './database-option.ts';

function onOff(value: string): boolean {
  if (value === 'on') return true;
  if (value === 'off') return false;
  throw new InvalidArgumentError('on or off.');
}

function idleMinutes(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > MAX_PERSON_IDLE_MINUTES)
    throw new InvalidArgumentError(`a whole number from 1 to ${MAX_PERSON_IDLE_MINUTES}.`);
  return n;
}

const onOffText = (on: boolean | undefined) => (on ? 'on' : 'off');
/** How many clashing GTINs are listed by name before the rest are only counted. */
const CLASHES_SHOWN = 5;

export function registerAccountCommands(program: Command): void {
  const account = program.command('account').description("Show and change an account's settings.");

  withDatabaseOptions(account.command('show'))
    .description('List accounts with their scenario and settings.')
    .option('--account <name>', 'only this account')
    .action(async (options: { account?: string } & DatabaseOptions) => {
      const accounts = await withStore(options, async (store) => {
        if (options.account === undefined) return store.accounts.list();
        const found = await store.accounts.find(options.account);
        if (!found) throw noSuchAccount(options.account);
        return [found];
      });
      if (accounts.length === 0) return console.log('No accounts. Import a catalogue first: barcode-inventory import <file>');
      console.log(['account', 'warehouses', 'gtin-equivalence', 'person-idle-minutes'].join('\t'));
      for (const a of accounts)
        console.log([a.name, a.warehousesEnabled ? 'yes' : 'no', onOffText(a.gtinEquivalence), a.personIdleMinutes].join('\t'));
    });

  withDatabaseOptions(account.command('set'))
    .description("Change an account's settings.")
    .requiredOption('--account <name>', 'the account to change')
    .option(
      '--gtin-equivalence <on|off>',
      'on: a barcode that is a valid GTIN also finds the same GTIN stored in another form (UPC-A 012345678905 = EAN-13 0012345678905 = GTIN-14 00012345678905); off (the default): barcodes match exactly',
      onOff,
    )
    .option(
      '--person-idle-minutes <n>',
      `how long a shared scanner keeps a person signed in without use (1–${MAX_PERSON_IDLE_MINUTES}; default ${DEFAULT_PERSON_IDLE_MINUTES})`,
      idleMinutes,
    )
    .action(async (options: { account: string; gtinEquivalence?: boolean; personIdleMinutes?: number } & DatabaseOptions) => {
      if (options.gtinEquivalence === undefined && options.personIdleMinutes === undefined)
        throw badRequest('Give a setting to change: --gtin-equivalence on|off, --person-idle-minutes <n>.');
      if (options.personIdleMinutes !== undefined) {
        const minutes = options.personIdleMinutes;
        await withStore(options, (store) => store.people.setIdleMinutes(options.account, commandLineActor(), minutes));
        console.log(peopleMessages.idleSet(options.account, minutes));
      }
      const on = options.gtinEquivalence;
      if (on === undefined) return;
      const { changed, clashes } = await withStore(options, async (store) => {
        const changed = await store.accounts.setGtinEquivalence(options.account, on, commandLineActor());
        if (!changed) throw noSuchAccount(options.account);
        return { changed, clashes: changed.gtinEquivalence ? await store.accounts.gtinClashes(changed) : [] };
      });
      console.log(
        changed.gtinEquivalence
          ? `GTIN equivalence is on for account "${changed.name}": a scanned UPC-A, EAN-13 or GTIN-14 also finds the same GTIN stored in another form.`
          : `GTIN equivalence is off for account "${changed.name}": barcodes match exactly.`,
      );
      if (clashes.length > 0) {
        console.log(
          `Note: ${clashes.length} GTIN${clashes.length === 1 ? ' is' : 's are'} stored in more than one form, on different items; ` +
            'a scan of one of those forms still finds exactly that one:',
        );
        for (const clash of clashes.slice(0, CLASHES_SHOWN)) console.log(`  ${clash.gtin14}: ${clash.barcodes.join(', ')}`);
        if (clashes.length > CLASHES_SHOWN) console.log(`  … and ${clashes.length - CLASHES_SHOWN} more.`);
      }
    });
}
