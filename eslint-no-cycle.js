// import-x/no-cycle with type imports counted as imports. import-x (4.18) skips `import type`,
// `import { type … }` and `export type … from` on purpose, since they vanish at run time, and has no
// option to keep them (its `allowUnsafeDynamicCyclicDependency` is about dynamic imports). So a file
// could import the types of a file that imports it, and "no import cycles" (docs/ARCHITECTURE.md) held
// for values only. A type import still ties two files together: neither can be moved, split or read
// without the other. This file turns type imports into plain ones before import-x sees them, in the
// two places it looks:
// - the linted file's own imports, through `rule` (the import-x rule, handed copies of the import nodes);
// - the imports of every file it follows, through `parseForESLint`, the parser that
//   eslint.config.js names in the `import-x/parsers` setting (import-x requires it by its path).
// test/project/lint-cycles.test.ts lints cycles made of type imports alone and expects this rule's error.
import { importX } from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

const importCycle = importX.rules['no-cycle'];

const typeKinds = new Set(['type', 'typeof']);

/** `node` as a plain import when it is an import or re-export of types only; `node` itself otherwise. */
function asPlainImport(node) {
  if (node.type === 'ImportDeclaration' || node.type === 'TSImportEqualsDeclaration') {
    return {
      ...node,
      importKind: 'value',
      ...(node.specifiers && { specifiers: node.specifiers.map((s) => (typeKinds.has(s.importKind) ? { ...s, importKind: 'value' } : s)) }),
    };
  }
  if ((node.type === 'ExportNamedDeclaration' || node.type === 'ExportAllDeclaration') && node.source) {
    return {
      ...node,
      exportKind: 'value',
      ...(node.specifiers && { specifiers: node.specifiers.map((s) => (s.exportKind === 'type' ? { ...s, exportKind: 'value' } : s)) }),
    };
  }
  return node;
}

/** import-x/no-cycle, every handler of which sees the type imports of the linted file as plain imports. */
export const rule = {
  ...importCycle,
  meta: {
    ...importCycle.meta,
    docs: {
      ...importCycle.meta.docs,
      description: 'Forbid a module from importing, even only its types, a module with a dependency path back to itself.',
    },
  },
  create(context) {
    const handlers = importCycle.create(context);
    return Object.fromEntries(Object.entries(handlers).map(([selector, handler]) => [selector, (node) => handler(asPlainImport(node))]));
  },
};

/** typescript-eslint's parser, with the import statements of the program turned into plain imports. */
export function parseForESLint(code, options) {
  const parsed = tseslint.parser.parseForESLint(code, options);
  parsed.ast.body = parsed.ast.body.map(asPlainImport);
  return parsed;
}
