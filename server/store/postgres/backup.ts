// Backups of a PostgreSQL database: pg_dump's custom format (a consistent snapshot, safe while the
// servers write), written under a temporary name and renamed when complete. Restoring is
// pg_restore's job, with the servers stopped (docs/DEPLOY.md, "Backups").
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { badRequest } from '../../errors.ts';
import { PRIVATE_FILE_MODE, makePrivateDirectory } from '../private-files.ts';

/** pg_dump on PATH, or the newest under /usr/lib/postgresql (Debian's layout). */
export function findPgDump(): string | undefined {
  const which = spawnSync('sh', ['-c', 'command -v pg_dump'], { encoding: 'utf8' });
  if (which.status === 0 && which.stdout.trim()) return which.stdout.trim();
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const version = readdirSync(root)
    .filter((v) => existsSync(path.join(root, v, 'bin', 'pg_dump')))
    .sort((a, b) => Number(b) - Number(a))[0];
  return version ? path.join(root, version, 'bin', 'pg_dump') : undefined;
}

export function dumpDatabase(url: string, target: string): { bytes: number } {
  if (existsSync(target)) throw badRequest(`${target} already exists; choose a new file name (nothing was written).`);
  const dump = findPgDump();
  if (!dump)
    throw badRequest(
      'pg_dump is not installed here: install the PostgreSQL client tools (Debian: apt-get install postgresql-client), or back up with your own pg_dump.',
    );
  makePrivateDirectory(path.dirname(path.resolve(target)));
  const partial = `${target}.partial-${process.pid}`;
  const result = spawnSync(dump, ['--format=custom', '--no-owner', `--file=${partial}`, url], { encoding: 'utf8' });
  if (result.status !== 0) {
    rmSync(partial, { force: true });
    throw badRequest(
      `pg_dump failed, nothing was kept: ${(result.stderr || result.error?.message || 'no message').trim().split('\n').slice(0, 3).join(' ')}`,
    );
  }
  chmodSync(partial, PRIVATE_FILE_MODE);
  renameSync(partial, target);
  return { bytes: statSync(target).size };
}
