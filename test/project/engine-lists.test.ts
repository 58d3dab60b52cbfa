// Every test file runs on every engine unless vitest.config.ts lists it with a reason (sqliteOnly,
// postgresOnly, noDatabase). This keeps those lists honest: a listed file exists, a reason is given, a
// file is on one list at most, a "no database" file reaches no database, and DEVELOPERS.md's table is
// these lists (regenerate it with `UPDATE_ENGINE_TABLE=1 npx vitest run test/project/engine-lists.test.ts`).
import { globSync, readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { noDatabase, postgresOnly, sqliteOnly } from '../../vitest.config.ts';
import { ROOT, inRepo } from '../support/paths.ts';

const lists = { sqliteOnly, postgresOnly, noDatabase };
const testFiles = globSync('test/**/*.test.ts', { cwd: ROOT }).sort();

/** Test helpers and product modules that open a database (a server, a store, an engine, the CLI). */
const OPENS_A_DATABASE =
  /from '[^']*(support\/(test-server|test-engine|child-server|sync-instances|sim-instances|database-probe|linked-ui|large-database|stocktake-fixtures|ui-harness)|server\/store\/(open-store|engines|store)|store\/sqlite\/|store\/postgres\/)\.ts'/;

const DOC_START = '<!-- engine lists: generated from vitest.config.ts by test/project/engine-lists.test.ts -->';
const DOC_END = '<!-- end of engine lists -->';

function engineTable(): string {
  const rows = (list: Record<string, string>, where: string) =>
    Object.entries(list)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([file, why]) => `| \`${file}\` | ${where} | ${why.replaceAll('|', '\\|')} |`);
  return [
    DOC_START,
    '| file | runs on | why |',
    '|---|---|---|',
    ...rows(sqliteOnly, 'SQLite only'),
    ...rows(postgresOnly, 'PostgreSQL only'),
    ...rows(noDatabase, 'once (no database)'),
    DOC_END,
  ].join('\n');
}

describe('the engine lists of vitest.config.ts', () => {
  it('name test files that exist, each with its reason, each on one list', () => {
    const seen = new Map<string, string>();
    for (const [name, list] of Object.entries(lists)) {
      for (const [file, why] of Object.entries(list)) {
        expect(testFiles, `${name}: ${file}`).toContain(file);
        expect(why.trim().length, `${name}: ${file} needs its reason`).toBeGreaterThan(10);
        expect(seen.get(file), `${file} is on ${seen.get(file)} and ${name}`).toBeUndefined();
        seen.set(file, name);
      }
    }
    // Everything else runs on both engines: there is no list of those to forget a new file on.
    expect(testFiles.length).toBeGreaterThan(seen.size + 40);
  });

  it('list as "no database" only files that reach no database', () => {
    for (const file of Object.keys(noDatabase)) {
      const source = readFileSync(inRepo(file), 'utf8');
      expect(OPENS_A_DATABASE.exec(source)?.[0], `${file} opens a database: take it off noDatabase`).toBeUndefined();
    }
  });

  it('are the table in DEVELOPERS.md', () => {
    const file = inRepo('DEVELOPERS.md');
    const doc = readFileSync(file, 'utf8');
    const start = doc.indexOf(DOC_START);
    const end = doc.indexOf(DOC_END);
    expect(start, 'DEVELOPERS.md has the generated table').toBeGreaterThanOrEqual(0);
    const current = doc.slice(start, end + DOC_END.length);
    if (process.env.UPDATE_ENGINE_TABLE && current !== engineTable()) writeFileSync(file, doc.replace(current, engineTable()));
    else expect(current, 'regenerate: UPDATE_ENGINE_TABLE=1 npx vitest run test/project/engine-lists.test.ts').toBe(engineTable());
  });
});
