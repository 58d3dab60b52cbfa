// Runs the project's own `import` command in this process, then prints what it cost: peak memory
// (the kernel's maxrss of this process) and CPU time. The bench starts it as a child process.
import { runCli } from '../server/cli/main.ts';

const [file, db] = process.argv.slice(2);
if (!file || !db) throw new Error('usage: import-child.ts <catalogue.json> <database>');
const started = performance.now();
await runCli([process.argv[0]!, 'barcode-inventory', 'import', file, '--db', db]);
const seconds = (performance.now() - started) / 1000;
const cpu = process.cpuUsage();
console.log(`BENCH ${JSON.stringify({ seconds, cpuSeconds: (cpu.user + cpu.system) / 1e6, maxRssKb: process.resourceUsage().maxRSS, exitCode: process.exitCode ?? 0 })}`);
