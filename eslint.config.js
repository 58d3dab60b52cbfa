// ESLint (typescript-eslint) for the whole repository, run by `npm test` and alone by `npm run lint`.
// Besides the usual checks it states the layering (DEVELOPERS.md) so a machine keeps it:
// shared/ imports nothing of ours and no Node or browser API; renderer/ never imports server/;
// only server/store/sqlite/ knows better-sqlite3; the store never reaches up into the HTTP layer;
// the product never imports test/, bench/ or examples/; and no file is part of an import cycle, not
// even one made of type imports (eslint-no-cycle.js).
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import { importX } from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';
import { rule as noCycle } from './eslint-no-cycle.js';

const notProduct = ['**/test/**', '**/bench/**', '**/examples/**'];
const noSqlite = {
  name: 'better-sqlite3',
  message: 'Only server/store/sqlite/ may use better-sqlite3: go through the store (server/store/store.ts).',
};

/**
 * The import rule of one folder. Flat config replaces (does not merge) a rule configured twice for a
 * file, so every folder states all of its restrictions here and the folders do not overlap.
 */
const layer = (files, ignores, patterns, paths = [noSqlite]) => ({
  files,
  ignores,
  rules: { 'no-restricted-imports': ['error', { patterns, paths }] },
});

export default tseslint.config(
  { ignores: ['out/**', 'node_modules/**', 'docs/**', '**/*.d.ts', 'renderer/src/locales/*.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    plugins: { 'import-x': importX, 'barcode-inventory': { rules: { 'no-cycle': noCycle } } },
    settings: {
      ...importX.flatConfigs.typescript.settings,
      // Dependencies are parsed as TypeScript too, or the cycle rule cannot follow them, and with their
      // type imports as plain imports, or it would not follow those (eslint-no-cycle.js).
      'import-x/parsers': { [fileURLToPath(import.meta.resolve('./eslint-no-cycle.js'))]: ['.ts', '.tsx', '.cts', '.mts'] },
      'import-x/resolver-next': [importX.createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.json'] })],
    },
    rules: {
      // A promise nobody awaits loses its error and, inside a store transaction, its ordering.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
      // Tests and the bench assert shapes of JSON answers; `any` there is the honest type.
      '@typescript-eslint/no-explicit-any': 'off',
      'barcode-inventory/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-self-import': 'error',
    },
  },
  layer(
    ['shared/**'],
    [],
    [
      { group: ['../*', 'node:*'], message: 'shared/ is pure: it imports zod and its own files only (no Node, browser or server code).' },
      { regex: '^(?!zod$|\\./).*', message: 'shared/ imports zod and its own files only.' },
    ],
  ),
  layer(
    ['renderer/**'],
    [],
    [
      {
        group: ['**/server/**', '**/main/**', 'node:*', ...notProduct],
        message: 'The UI reaches the server over HTTP only, through its client.',
      },
    ],
  ),
  layer(
    ['main/**'],
    [],
    [
      {
        group: ['**/renderer/**', ...notProduct],
        message: 'The desktop shell uses the server through its launcher, never the UI or tests.',
      },
    ],
  ),
  layer(
    ['server/**', 'scripts/**', 'bin/**'],
    ['server/store/**'],
    [
      {
        group: ['**/renderer/**', '**/main/**', ...notProduct],
        message: 'The product never imports the UI, tests, benchmarks or examples.',
      },
    ],
  ),
  layer(
    ['server/store/**'],
    ['server/store/sqlite/**'],
    [
      {
        group: ['**/renderer/**', '**/main/**', ...notProduct],
        message: 'The product never imports the UI, tests, benchmarks or examples.',
      },
      {
        group: ['**/api/**', '**/http/**', '**/cli/**', '**/launch/**', '**/csv/**'],
        message: 'The store is below the HTTP layer, the launcher and the CLI: it must not import them.',
      },
    ],
  ),
  layer(
    ['server/store/sqlite/**'],
    [],
    [
      {
        group: ['**/renderer/**', '**/main/**', ...notProduct],
        message: 'The product never imports the UI, tests, benchmarks or examples.',
      },
      {
        group: ['**/api/**', '**/http/**', '**/cli/**', '**/launch/**', '**/csv/**'],
        message: 'The store is below the HTTP layer, the launcher and the CLI: it must not import them.',
      },
    ],
    [],
  ),
  {
    files: ['**/*.js'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
    extends: [tseslint.configs.disableTypeChecked],
  },
  {
    // The one plain script of the UI, loaded before its bundle (renderer/public/early-keys.js).
    files: ['renderer/public/**/*.js'],
    languageOptions: { globals: { window: 'readonly', performance: 'readonly' } },
  },
);
