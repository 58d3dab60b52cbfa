// Commands a test needs from Debian (Xvfb, chromium, pdftoppm, openssl), installed with apt-get by the
// test's own set-up when missing: root only, bounded in time, one line saying what failed otherwise.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);
const APT_TIMEOUT_MS = 300_000;

async function missingCommands(commands: readonly string[]): Promise<string[]> {
  const missing: string[] = [];
  for (const command of commands) {
    try {
      await run('sh', ['-c', `command -v ${command}`]);
    } catch {
      missing.push(command);
    }
  }
  return missing;
}

/** Makes sure each command is there, installing its package (`{ command: package }`) when missing. */
export async function ensureCommands(packagesByCommand: Record<string, string>): Promise<void> {
  const missing = await missingCommands(Object.keys(packagesByCommand));
  if (missing.length === 0) return;
  const packages = missing.map((command) => packagesByCommand[command]!);
  if (process.getuid?.() !== 0)
    throw new Error(`missing ${missing.join(', ')} and not root, so apt-get cannot install ${packages.join(' ')}.`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  try {
    await run('apt-get', ['update', '-qq'], { env, timeout: APT_TIMEOUT_MS });
    await run('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...packages], { env, timeout: APT_TIMEOUT_MS });
  } catch (error) {
    const detail = (String((error as { stderr?: string }).stderr ?? '').trim() || (error as Error).message).split('\n').at(-1);
    throw new Error(`apt-get could not install ${packages.join(' ')}: ${detail}`, { cause: error });
  }
  const still = await missingCommands(missing);
  if (still.length > 0) throw new Error(`apt-get ran but ${still.join(', ')} is still missing.`);
}
