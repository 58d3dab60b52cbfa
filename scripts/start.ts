// `npm start` (after the build): opens the desktop app, or, where Electron cannot run (no display,
// or its binary cannot be downloaded), says so in one line and serves the same UI headless, printing
// the address and one-time sign-in links. Options: --port <n> (headless port, default 8270; 0 = any
// free one), --no-demo (serve an empty database as it is), --headless (do not try Electron).
// Either way the server runs with its memory flags and environment (server/launch/node-flags.ts):
// this process restarts itself in place with them before loading the server, and Electron's main
// process gets the flags as `--js-flags` and inherits the environment.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import module, { createRequire } from 'node:module';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { Launched } from '../server/launch/launch.ts';
import { nodeStartForCommand, restartWithNodeStart } from '../server/launch/node-flags.ts';

module.enableCompileCache?.();
// What `serve` would get on the database BARCODE_INVENTORY_DATABASE names (none: the default file).
const serverStart = nodeStartForCommand(['serve']);
restartWithNodeStart(serverStart);
const { BUILT_UI_DIR, hasBuiltUi } = await import('../server/http/static-ui.ts');
const { DEFAULT_PORT, launch } = await import('../server/launch/launch.ts');

const root = path.resolve(import.meta.dirname, '..');
/** Electron that exits this soon with an error did not get a window up: serve headless instead. */
const EARLY_EXIT_MS = 15_000;
/** Bounds the one attempt to fetch Electron's binary (it is downloaded on first use). */
const DOWNLOAD_TIMEOUT_MS = 5 * 60_000;
/** Sign-in links printed for at most this many accounts; others: `barcode-inventory signin-link`. */
const MAX_LINKS = 5;

const { values: flags } = parseArgs({
  options: { port: { type: 'string' }, 'no-demo': { type: 'boolean' }, headless: { type: 'boolean' } },
});
const port = flags.port === undefined ? DEFAULT_PORT : Number(flags.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`--port: a whole number from 0 to 65535, not "${flags.port}".`);
  process.exit(2);
}

/** Why Electron cannot run here, or the path of its binary. */
function electronBinary(): { binary: string } | { reason: string } {
  if (flags.headless) return { reason: '--headless was given' };
  if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) {
    return { reason: 'no display: DISPLAY is not set' };
  }
  const electronDir = path.dirname(createRequire(import.meta.url).resolve('electron/package.json'));
  const installed = () => {
    const pathFile = path.join(electronDir, 'path.txt');
    if (!existsSync(pathFile)) return undefined;
    const binary = path.join(electronDir, 'dist', readFileSync(pathFile, 'utf8'));
    return existsSync(binary) ? binary : undefined;
  };
  let binary = installed();
  if (!binary) {
    console.log('Fetching the Electron binary (first start only)…');
    const result = spawnSync(process.execPath, [path.join(electronDir, 'install.js')], {
      stdio: 'ignore',
      timeout: DOWNLOAD_TIMEOUT_MS,
    });
    binary = result.status === 0 ? installed() : undefined;
    if (!binary) return { reason: 'its binary is not installed and could not be downloaded' };
  }
  return { binary };
}

async function serveHeadless(reason: string): Promise<void> {
  let launched: Launched;
  try {
    launched = await launch({ demo: !flags['no-demo'], port, ui: BUILT_UI_DIR, signInLinks: MAX_LINKS });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    console.error(`Port ${port} is in use (is barcode-inventory already running?). Try: npm start -- --port 0`);
    process.exit(1);
  }
  console.log(`Electron cannot run here (${reason}): serving the scanner UI headless at ${launched.server.url}/ instead.`);
  for (const line of launched.describe()) console.log(line);
  console.log('Stop with Ctrl-C.');
  const stop = () => void launched.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

async function main(): Promise<void> {
  if (!hasBuiltUi(BUILT_UI_DIR)) {
    console.error('The UI is not built: run `npm start` (it builds first) or `npm run build`.');
    process.exit(1);
  }
  const found = electronBinary();
  if ('reason' in found) return serveHeadless(found.reason);

  const startedAt = Date.now();
  // Electron's main process reads V8 flags only from its own command line (app.commandLine is too late for it).
  const child = spawn(found.binary, [`--js-flags=${serverStart.flags.join(' ')}`, root], { stdio: 'inherit' });
  const forward = (signal: NodeJS.Signals) => () => child.kill(signal);
  process.on('SIGINT', forward('SIGINT'));
  process.on('SIGTERM', forward('SIGTERM'));
  child.on('error', (error) => {
    void serveHeadless(`it failed to start: ${error.message}`);
  });
  child.on('exit', (code, signal) => {
    if (code !== 0 && signal === null && Date.now() - startedAt < EARLY_EXIT_MS) {
      process.removeAllListeners('SIGINT');
      process.removeAllListeners('SIGTERM');
      void serveHeadless(`it exited with code ${code} at start`);
      return;
    }
    process.exit(code ?? 0);
  });
}

await main();
