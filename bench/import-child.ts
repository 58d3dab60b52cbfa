// Runs the project's own `import` (or `csv import`) command in this process, started as bin/barcode-inventory.js
// starts it (compile cache on, restarted in place with the import's memory flags), then prints what
// it cost: peak memory (the kernel's maxrss of this process) and CPU time. The bench starts it as a
// child process.
import module from 'node:module';
import { IMPORT_START, restartWithNodeStart } from '../server/launch/node-flags.ts';

module.enableCompileCache?.();
restartWithNodeStart(IMPORT_START);
const { runCli } = await import('../server/cli/main.ts');

// `--csv FILE ACCOUNT DATABASE`: `csv import` of a catalogue CSV into one account instead.
const args = process.argv.slice(2);
const csv = args[0] === '--csv';
const [file, account, db] = csv ? args.slice(1) : [args[0], undefined, args[1]];
if (!file || !db || (csv && !account))
  throw new Error('usage: import-child.ts <catalogue.json> <database> | import-child.ts --csv <file.csv> <account> <database>');
const started = performance.now();
await runCli([
  process.argv[0]!,
  'barcode-inventory',
  ...(csv ? ['csv', 'import', file, '--account', account!] : ['import', file]),
  '--db',
  db,
]);
const seconds = (performance.now() - started) / 1000;
const cpu = process.cpuUsage();
console.log(
  `BENCH ${JSON.stringify({ seconds, cpuSeconds: (cpu.user + cpu.system) / 1e6, maxRssKb: process.resourceUsage().maxRSS, execArgv: process.execArgv, exitCode: process.exitCode ?? 0 })}`,
);
