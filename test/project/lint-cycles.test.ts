// "No import cycles" (docs/ARCHITECTURE.md) includes cycles made of type imports only, which
// import-x/no-cycle alone skips: eslint.config.js lints with eslint-no-cycle.js's rule instead. These
// tests lint small files written here with the repository's own ESLint configuration, so the rule
// cannot be turned off, or back to skipping type imports, without them failing.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ESLint } from 'eslint';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../support/paths.ts';

const root = ROOT;
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
async function lint(a: string, b: string): Promise<{ a: string[]; b: string[] }> {
  const folder = mkdtempSync(path.join(dir, 'pair-'));
  writeFileSync(path.join(folder, 'a.ts'), a);
  writeFileSync(path.join(folder, 'b.ts'), b);
  const [resultA, resultB] = await eslint.lintFiles([path.join(folder, 'a.ts'), path.join(folder, 'b.ts')]);
  const problems = (result: ESLint.LintResult | undefined) => result!.messages.map((m) => `${m.ruleId ?? m.message}:${m.line}`);
  return { a: problems(resultA), b: problems(resultB) };
}

const cycle = ['barcode-inventory/no-cycle:1'];
/** A file that uses the type `imported` from the file of that name (by `importLine`) in a type of its own, `own`. */
const usesType = (own: string, importLine: string, imported: string) =>
  `${importLine}\nexport interface ${own} {\n  other?: ${imported};\n}\n`;

describe('the lint reports import cycles made of type imports only', () => {
  it.each([
    {
      form: 'import type',
      a: usesType('A', "import type { B } from './b.ts';", 'B'),
      b: usesType('B', "import type { A } from './a.ts';", 'A'),
      expected: { a: cycle, b: cycle },
    },
    {
      form: 'import { type … }',
      a: usesType('A', "import { type B } from './b.ts';", 'B'),
      b: usesType('B', "import { type A } from './a.ts';", 'A'),
      expected: { a: cycle, b: cycle },
    },
    {
      form: 'export type … from',
      a: "export type { B } from './b.ts';\nexport interface A {\n  n: number;\n}\n",
      b: usesType('B', "import type { A } from './a.ts';", 'A'),
      expected: { a: cycle, b: cycle },
    },
    {
      form: 'import type, one way only (no cycle)',
      a: usesType('A', "import type { B } from './b.ts';", 'B'),
      b: 'export interface B {\n  n: number;\n}\n',
      expected: { a: [], b: [] },
    },
  ])('$form', async ({ a, b, expected }) => {
    expect(await lint(a, b)).toEqual(expected);
  });
});
