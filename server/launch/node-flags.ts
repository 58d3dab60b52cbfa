// Node (V8) flags and environment the long-running commands need for their memory, and the one way
// they get them: V8 reads its heap sizes, and glibc its malloc settings, only when the process starts
// (`v8.setFlagsFromString` at run time was measured to change nothing for the young generation), so a
// command that needs them restarts itself in place with `process.execve` (Node >= 22.15, Linux and
// macOS): the same process id, so a supervisor or a test that kills it kills the real server, and no
// child is left behind. Where execve is not available (Windows) the command runs on without them: it
// works the same and uses more memory. docs/BENCHMARKS.md says what each flag buys.
//
// Where they are applied: `barcode-inventory serve`, `import` and `csv import` (bin/barcode-inventory.js, also
// behind `npm run serve` and `npx barcode-inventory`), `npm start` (scripts/start.ts, headless or as
// `--js-flags` of the Electron main process, which inherits the environment). What each command needs
// is decided in one place, `nodeStartForCommand`. Flags the user gave (on the command line or in
// NODE_OPTIONS) win: a flag of the same name is never added; so does a variable the user's environment
// sets. BARCODE_INVENTORY_NO_NODE_FLAGS=1 turns the restart off (the bench measures what the measures
// buy with it).

/** Set to anything but '' or '0' to run without the memory flags and environment. */
export const WITHOUT_NODE_FLAGS_ENV = 'BARCODE_INVENTORY_NO_NODE_FLAGS';

/** How Node must be started for a command: V8 flags, and environment variables read only at process start. */
export interface NodeStart {
  readonly flags: readonly string[];
  readonly env: Readonly<Record<string, string>>;
}

/**
 * The server: V8 grows each young-generation semi-space up to 16 MB under the promise churn of 32
 * concurrent requests; 1 MB semi-spaces keep that down (docs/BENCHMARKS.md compares the same server
 * without the flags, in the same run). And a capped old generation: with V8's default limit (4 GB on
 * a 24 GB host) it lets the heap grow by large factors between full collections, and the malloc'd
 * memory tied to it waits with it. On the 1M database under the bench's loads
 * (bench/memory-phases.ts), peak RSS 234 MB without a cap, 220 MB at 2 GB, 158 MB at 1 GB, 148 MB at
 * 512 MB, at the same request rates (bench/NOTES.md). 512 MB is ten times what the server holds
 * live under load (about 30-50 MB): every list is paged, a sync push is at most 500 movements,
 * reports are read in stretches, so no request needs more.
 */
export const SERVER_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=1', '--max-old-space-size=512'];

/**
 * The catalogue import: more young generation than the server, for its throughput, and a capped old
 * generation. 8 MB semi-spaces since the import parses in a worker thread: the importing thread's
 * garbage collections are then a larger share of what is left on it, and at 1M rows 8 MB against 4
 * took 39.9-40.1 s against 41.7-41.8 s, at 257-260 MB peak against 237-238 MB (alternated runs,
 * bench/NOTES.md). Its live heap is about 28 MB at 1M rows; with V8's default limit here (4 GB)
 * garbage piles up to 295-303 MB RSS before a full collection. Any cap up to 1 GB makes V8 grow the
 * heap more carefully: at 1M rows 256 MB gave 191-215 MB peak in 58-59 s, 512 MB 195-197 MB in
 * 57-58 s, 1 GB 202-209 MB in 54-59 s, 2 GB 299 MB, against 295-303 MB in 51-55 s without (runs
 * alternated on one host, bench/NOTES.md). 1 GB: the same saving, and room for what an import may
 * rightly hold (items given before their account's header are held until it is read, as the README
 * warns). What else it keeps in JavaScript stays small: first uses live in the scratch table, the
 * movement log's cache is emptied at 10,000 places, and a refused catalogue keeps its first 1,000
 * problems and a count (server/store/problem-list.ts), so a file of a million bad rows is refused
 * rather than run out of memory.
 */
export const IMPORT_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=8', '--max-old-space-size=1024'];

/**
 * The server on PostgreSQL: no old-generation cap. The `pg` driver allocates more per request, and
 * under a cap of 512 MB or 1 GB the collections cost its request rate 15-25% (POST at 32 connections
 * 145-162 against 184-185 req/s, GET 877-997 against 1,196; bench/NOTES.md), while the memory target
 * the cap serves is the SQLite server's.
 */
export const POSTGRES_SERVER_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=1'];

/**
 * The SQLite server's environment, and the import's: at most two glibc malloc arenas. glibc gives
 * threads that allocate at the same time arenas of their own (up to eight per core), and each keeps
 * what it once held; Node has several threads besides the main one (V8's GC helpers, libuv's pool). With
 * MALLOC_ARENA_MAX=2, on the 1M database under the bench's loads (bench/memory-phases.ts with the
 * server's flags above), peak RSS fell from 154 to 145-148 MB at the same request rates, and the
 * anonymous mappings other than the main arena and V8's pages (its "otherAnonymous": mostly the
 * other threads' arenas) from 18 to 9-10 MB (bench/NOTES.md). glibc reads it only at process
 * start, hence the restart; other C libraries (musl, macOS) ignore the variable, which is harmless.
 * The import too, since it parses in a worker thread (server/catalogue/catalogue-file-events.ts):
 * at 1M rows 236 MB peak against 263 MB without, in the same time (42.5 s; bench/NOTES.md). Before
 * the worker it gained nothing measurable. Not the PostgreSQL server (not measured; the memory
 * target is the SQLite server's).
 */
export const SERVER_ENV: Readonly<Record<string, string>> = { MALLOC_ARENA_MAX: '2' };

export const SERVER_START: NodeStart = { flags: SERVER_NODE_FLAGS, env: SERVER_ENV };
export const POSTGRES_SERVER_START: NodeStart = { flags: POSTGRES_SERVER_NODE_FLAGS, env: {} };
export const IMPORT_START: NodeStart = { flags: IMPORT_NODE_FLAGS, env: SERVER_ENV };
const NOTHING: NodeStart = { flags: [], env: {} };

/** The database a command line names (`--database X`, `--database=X`, or the same of `--db`), as cli/database-option.ts reads it. */
function databaseArgument(args: readonly string[]): string | undefined {
  const given = (name: string) => {
    for (const [i, arg] of args.entries()) {
      if (arg === name) return args[i + 1];
      if (arg.startsWith(`${name}=`)) return arg.slice(name.length + 1);
    }
    return undefined;
  };
  return given('--database') ?? given('--db');
}

/**
 * What a `barcode-inventory` command line needs (flags and environment): the first word that is not an
 * option names the command; the server's also depend on its database (the option, else
 * BARCODE_INVENTORY_DATABASE). Read from the arguments alone: nothing may be loaded before the restart.
 */
export function nodeStartForCommand(args: readonly string[], env: NodeJS.ProcessEnv = process.env): NodeStart {
  const command = args.find((arg) => !arg.startsWith('-'));
  if (command === 'serve') {
    const database = databaseArgument(args) ?? env.BARCODE_INVENTORY_DATABASE ?? '';
    // The same test as the PostgreSQL provider's (store/postgres/postgres-provider.ts, `matches`).
    return /^postgres(ql)?:\/\//i.test(database) ? POSTGRES_SERVER_START : SERVER_START;
  }
  if (command === 'import') return IMPORT_START;
  // `csv import` too: its rows wait on disk, not in memory (server/store/sqlite/catalogue-csv-scratch.ts).
  const words = args.filter((arg) => !arg.startsWith('-'));
  if (command === 'csv' && words[1] === 'import') return IMPORT_START;
  return NOTHING;
}

const flagName = (flag: string) => flag.split('=')[0]!.replace(/_/g, '-');

/** Of `flags`, those this process was not started with (by name, in its arguments or NODE_OPTIONS). */
export function missingNodeFlags(
  flags: readonly string[],
  execArgv: readonly string[] = process.execArgv,
  nodeOptions = process.env.NODE_OPTIONS ?? '',
): string[] {
  const given = new Set([...execArgv, ...nodeOptions.split(/\s+/)].filter((arg) => arg.startsWith('--')).map(flagName));
  return flags.filter((flag) => !given.has(flagName(flag)));
}

/** Of the variables `wanted`, those `env` does not set: one the user set, to any value, wins. */
export function missingEnv(wanted: Readonly<Record<string, string>>, env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  return Object.fromEntries(Object.entries(wanted).filter(([name]) => env[name] === undefined));
}

/**
 * What this process lacks of `start`, or undefined when it lacks nothing: it was started with all of
 * it, by the user or by the restart itself (whose flags and environment it then has, so a restarted
 * process never restarts again). A missing variable alone is reason enough to restart.
 */
export function missingNodeStart(
  start: NodeStart,
  execArgv: readonly string[] = process.execArgv,
  env: NodeJS.ProcessEnv = process.env,
): NodeStart | undefined {
  const missing = { flags: missingNodeFlags(start.flags, execArgv, env.NODE_OPTIONS ?? ''), env: missingEnv(start.env, env) };
  return missing.flags.length === 0 && Object.keys(missing.env).length === 0 ? undefined : missing;
}

/**
 * Restarts this process in place with what it lacks of `start`: the flags added to Node's own
 * arguments, the variables to its environment. Unless it lacks nothing, the restart is turned off, or
 * the platform cannot (then it returns and the caller goes on without them). Call it before anything
 * is loaded or written: nothing of this process survives.
 */
export function restartWithNodeStart(start: NodeStart): void {
  const off = process.env[WITHOUT_NODE_FLAGS_ENV];
  if (off !== undefined && off !== '' && off !== '0') return;
  const missing = missingNodeStart(start);
  if (missing === undefined || process.platform === 'win32' || typeof process.execve !== 'function') return;
  try {
    process.execve(process.execPath, [process.execPath, ...process.execArgv, ...missing.flags, ...process.argv.slice(1)], {
      ...(process.env as Record<string, string>),
      ...missing.env,
    });
  } catch {
    // Not available here (an older Node, or a platform without execve): run on without them.
  }
}
