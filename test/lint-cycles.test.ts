// "No import cycles" (docs/ARCHITECTURE.md) includes cycles made of type imports only, which
// import-x/no-cycle alone skips: eslint.config.js lints with eslint-no-cycle.js's rule instead. These
// tests lint small files written here with the repository's own ESLint configuration, so the rule
// cannot be turned off, or back to skipping type imports, without them failing.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ESLint } from 'eslint';
import { afterAll, describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');
const dir = mkdtempSync(path.join(tmpdir(), 'lint-cycles-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Files outside the repository, linted with its configuration from their folder (`cwd`); a
// tsconfig.json of their own gives the configuration's type-aware rules a project to read them in.
writeFileSync(
  path.join(dir, 'tsconfig.json'),
  JSON.stringify({
    compilerOptions: { strict: true, module: 'nodenext', noEmit: true, allowImportingTsExtensions: true, verbatimModuleSyntax: true },
    include: ['**/*.ts'],
  }),
);
const eslint = new ESLint({ cwd: dir, overrideConfigFile: path.join(root, 'eslint.config.js') });

/** What ESLint reports for `a.ts` and `b.ts`, written into a folder of their own: `rule:line` per problem. */
async function lint(folder: string, a: string, b: string): Promise<{ a: string[]; b: string[] }> {
  mkdirSync(path.join(dir, folder));
  writeFileSync(path.join(dir, folder, 'a.ts'), a);
  writeFileSync(path.join(dir, folder, 'b.ts'), b);
  const [resultA, resultB] = await eslint.lintFiles([`${folder}/a.ts`, `${folder}/b.ts`]);
  const problems = (result: ESLint.LintResult | undefined) => result!.messages.map((m) => `${m.ruleId ?? m.message}:${m.line}`);
  return { a: problems(resultA), b: problems(resultB) };
}

const cycle = 'barcode-inventory/no-cycle:1';

describe('the lint reports import cycles made of type imports only', () => {
  it('import type', async () => {
    const problems = await lint(
      'import-type',
      "import type { B } from './b.ts';\nexport interface A {\n  b?: B;\n}\n",
      "import type { A } from './a.ts';\nexport interface B {\n  a?: A;\n}\n",
    );
    expect(problems).toEqual({ a: [cycle], b: [cycle] });
  });

  it('import { type … }', async () => {
    const problems = await lint(
      'inline-type',
      "import { type B } from './b.ts';\nexport interface A {\n  b?: B;\n}\n",
      "import { type A } from './a.ts';\nexport interface B {\n  a?: A;\n}\n",
    );
    expect(problems).toEqual({ a: [cycle], b: [cycle] });
  });

  it('export type … from', async () => {
    const problems = await lint(
      'export-type',
      "export type { B } from './b.ts';\nexport interface A {\n  n: number;\n}\n",
      "import type { A } from './a.ts';\nexport interface B {\n  a?: A;\n}\n",
    );
    expect(problems).toEqual({ a: [cycle], b: [cycle] });
  });

  it('and nothing where the type imports go one way', async () => {
    const problems = await lint(
      'one-way',
      "import type { B } from './b.ts';\nexport interface A {\n  b?: B;\n}\n",
      'export interface B {\n  n: number;\n}\n',
    );
    expect(problems).toEqual({ a: [], b: [] });
  });
});
