// A real X display for the real-keyboard test: Debian's Xvfb, xdotool and setxkbmap, and Debian's
// chromium in a real window, installed with apt-get when missing (root only, bounded in time).
// Keys typed with xdotool go through the X server's keyboard and layout like a USB scanner's,
// unlike the CDP key events of the other browser tests.
import { type ChildProcess, execFile, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { ensureCommands } from './debian-packages.ts';

const run = promisify(execFile);

/** Debian packages of the tools, by the command each provides. */
const TOOLS: Record<string, string> = { Xvfb: 'xvfb', xdotool: 'xdotool', setxkbmap: 'x11-xkb-utils', chromium: 'chromium' };

/** How to run the test where it could not: said once, in the failure's one line. */
export const HOW_TO_RUN =
  'Run it on Debian as root (it installs xvfb, xdotool, x11-xkb-utils and chromium with apt-get), or install those packages first, then npm test.';

/** Makes sure the four tools are there, installing them from Debian when missing; throws one line saying what failed. */
export function ensureTools(): Promise<void> {
  return ensureCommands(TOOLS);
}

export interface Display {
  /** ":N" */
  name: string;
  env: NodeJS.ProcessEnv;
  stop(): void;
}

/**
 * A hardware scanner's key timing does not depend on the PC's load; xdotool's does. So the display,
 * the "scanner" and the browser run with a higher priority where the test may ask for it (root): a
 * machine busy with other test files then stretches a 13-key scan into what reads as a person's
 * typing or a scanner's hiccup less often (the test measures the pauses that remain and types such a
 * round again). A nice value, not real-time scheduling: Xvfb busy drawing at real-time priority
 * starved Chromium itself. Elsewhere they run as they are.
 */
const higher: string[] = (() => {
  try {
    execFileSync('nice', ['-n', '-15', 'true'], { stdio: 'ignore' });
    return process.getuid?.() === 0 ? ['nice', '-n', '-15'] : [];
  } catch {
    return [];
  }
})();
const withPriority = (command: string, args: string[]): [string, string[]] =>
  higher.length > 0 ? [higher[0]!, [...higher.slice(1), command, ...args]] : [command, args];

/** Starts Xvfb on a free display number (Xvfb chooses it and says which). */
export function startXvfb(): Promise<Display> {
  const xvfb = spawn(...withPriority('Xvfb', ['-displayfd', '3', '-screen', '0', '1280x900x24', '-nolisten', 'tcp']), {
    stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
  });
  let errors = '';
  xvfb.stderr!.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Xvfb did not start within 15 s: ${errors.trim().split('\n').at(-1) ?? ''}`)), 15_000);
    xvfb.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`Xvfb exited with ${code}: ${errors.trim().split('\n').at(-1) ?? ''}`));
    });
    (xvfb.stdio[3] as NodeJS.ReadableStream).once('data', (chunk: Buffer) => {
      clearTimeout(timer);
      xvfb.removeAllListeners('exit');
      const name = `:${chunk.toString().trim()}`;
      resolve({ name, env: { ...process.env, DISPLAY: name }, stop: () => void xvfb.kill('SIGTERM') });
    });
  });
}

export interface RealChromium {
  /** The DevTools endpoint, to read the page (never to type). */
  wsEndpoint: string;
  /** Ends chromium and removes its profile once it has exited. */
  stop(): Promise<void>;
}

/** Opens `url` in Debian's chromium as an app window on the display. */
export function startChromium(display: Display, url: string): Promise<RealChromium> {
  const profile = mkdtempSync(path.join(tmpdir(), 'bi-chromium-'));
  const args = [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--no-first-run',
    '--disable-sync',
    '--disable-features=Translate',
    '--password-store=basic',
    `--user-data-dir=${profile}`,
    '--remote-debugging-port=0',
    '--window-position=0,0',
    '--window-size=1280,900',
    `--app=${url}`,
  ];
  // Its own process group, so that stopping it reaches its helper processes too.
  // At the display's priority: where chromium reads X's keys late, their pauses can be its own.
  const child: ChildProcess = spawn(...withPriority('chromium', args), {
    env: display.env,
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: true,
  });
  let output = '';
  // Chromium's helpers (its network service writes the disk cache) can outlive the browser process by
  // a moment and write into the profile: removing the folder right after the signal raced those
  // writes (ENOTEMPTY in CI). So the whole group is ended, and the folder removed once none is left.
  const stop = async () => {
    signalGroup(child, 'SIGTERM');
    // Bounded: a helper left a zombie by a PID 1 that does not reap still answers signal 0.
    for (let waited = 0; groupAlive(child) && waited < 10_000; waited += 50) {
      if (waited === 5_000) signalGroup(child, 'SIGKILL');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    rmSync(profile, { recursive: true, force: true, maxRetries: 5 });
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`chromium did not start within 30 s: ${output.trim().split('\n').at(-1) ?? ''}`));
    }, 30_000);
    child.stderr!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /DevTools listening on (ws:\/\/\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve({ wsEndpoint: match[1]!, stop });
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`chromium exited with ${code}: ${output.trim().split('\n').at(-1) ?? ''}`));
    });
  });
}

/** Sends `signal` to every process of the child's group; a group already gone is not an error. */
function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    process.kill(-child.pid!, signal);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}

/** Whether any process of the child's group is still running (signal 0 only asks). */
function groupAlive(child: ChildProcess): boolean {
  try {
    process.kill(-child.pid!, 0);
    return true;
  } catch {
    return false;
  }
}

export function xdotool(display: Display, args: string[]): Promise<string> {
  return run(...withPriority('xdotool', args), { env: display.env, timeout: 20_000 }).then((r) => r.stdout);
}

export async function setLayout(display: Display, layout: string): Promise<void> {
  await run('setxkbmap', [layout], { env: display.env, timeout: 10_000 });
}

/**
 * The X keycodes (evdev) of a US keyboard: what a US-set scanner presses for each character, whatever
 * layout the X server then applies to them.
 */
const US_KEYCODES: Record<string, [number, boolean]> = {};
const rows: [string, string, number][] = [
  ['1234567890-=', '!@#$%^&*()_+', 10],
  ['qwertyuiop[]', 'QWERTYUIOP{}', 24],
  ["asdfghjkl;'`", 'ASDFGHJKL:"~', 38],
  ['zxcvbnm,./', 'ZXCVBNM<>?', 52],
];
for (const [plain, shifted, first] of rows) {
  [...plain].forEach((ch, i) => (US_KEYCODES[ch] = [first + i, false]));
  [...shifted].forEach((ch, i) => (US_KEYCODES[ch] = [first + i, true]));
}
US_KEYCODES['\\'] = [51, false];
US_KEYCODES['|'] = [51, true];
US_KEYCODES[' '] = [65, false];
const RETURN = 36;

/** xdotool `key` arguments that type `text` and Enter as a US-set scanner does, by raw keycode. */
export function usScannerKeys(text: string): string[] {
  return [
    ...[...text].map((ch) => {
      const entry = US_KEYCODES[ch];
      if (!entry) throw new Error(`a US keyboard has no key for ${JSON.stringify(ch)}`);
      return entry[1] ? `shift+${entry[0]}` : String(entry[0]);
    }),
    String(RETURN),
  ];
}
