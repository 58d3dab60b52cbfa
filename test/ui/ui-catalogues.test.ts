// The scanner UI's catalogues (renderer/src/locales/<locale>.po) stay complete and in step with the
// code: every message in every language, with the same placeholders as the English one and a
// translation made from the English as it is now (each translation carries the English it was made
// from, `#. en: …`); every message compiles and the compiled modules are those of the catalogues
// (`npm run i18n:compile`); the code asks only for messages that exist, and only through texts.ts;
// and no component carries user-facing words of its own (a person reading the UI in Turkish must
// not meet an English word that bypassed the catalogues).
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { formatter } from '@lingui/format-po';
import { compileMessage } from '@lingui/message-utils/compileMessage';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { LOCALES } from '../../renderer/src/common/i18n.ts';
import { ROOT } from '../support/paths.ts';

const root = ROOT;
const localesDir = path.join(root, 'renderer/src/locales');
const rendererDir = path.join(root, 'renderer/src');

interface Entry {
  translation: string;
  comments: string[];
}

function catalogue(locale: string): Record<string, Entry> {
  const parsed = formatter({ explicitIdAsDefault: true }).parse(readFileSync(path.join(localesDir, `${locale}.po`), 'utf8'), {
    locale,
    sourceLocale: 'en',
    filename: `${locale}.po`,
  }) as Record<string, { translation?: string; comments?: string[] }>;
  return Object.fromEntries(
    Object.entries(parsed).map(([id, m]) => [id, { translation: m.translation ?? '', comments: m.comments ?? [] }]),
  );
}

/** The names of a message's placeholders (plural arguments included), from its compiled form. */
function placeholders(message: string): string[] {
  const names = new Set<string>();
  // A compiled message is a sequence of text and placeholders; a placeholder is [name] or
  // [name, 'plural' | 'select' | …, { branch: sequence }].
  const walk = (sequence: unknown): void => {
    if (!Array.isArray(sequence)) return;
    for (const part of sequence) {
      if (!Array.isArray(part) || typeof part[0] !== 'string') continue;
      names.add(part[0]);
      if (part[2] && typeof part[2] === 'object') Object.values(part[2] as object).forEach(walk);
    }
  };
  const compiled = compileMessage(message);
  walk(typeof compiled === 'string' ? [] : compiled);
  return [...names].sort();
}

function filesUnder(dir: string, extensions: string[]): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && extensions.some((ext) => e.name.endsWith(ext)))
    .map((e) => path.join(e.parentPath, e.name));
}

const english = catalogue('en');
const ids = Object.keys(english).sort();

describe('the UI catalogues', () => {
  it('are four: English, Turkish, German, French', () => {
    expect([...LOCALES]).toEqual(['en', 'tr', 'de', 'fr']);
    expect(
      readdirSync(localesDir)
        .filter((f) => f.endsWith('.po'))
        .sort(),
    ).toEqual(['de.po', 'en.po', 'fr.po', 'tr.po']);
    expect(ids.length).toBeGreaterThan(300);
  });

  it.each(LOCALES.filter((l) => l !== 'en'))(
    '%s has every message, none empty, with the English placeholders, made from the English of now',
    (locale) => {
      const translated = catalogue(locale);
      expect(Object.keys(translated).sort(), 'the same message ids as en.po').toEqual(ids);
      const problems: string[] = [];
      for (const id of ids) {
        const { translation, comments } = translated[id]!;
        const source = english[id]!.translation;
        if (translation.trim() === '') problems.push(`${id}: not translated`);
        else if (placeholders(translation).join() !== placeholders(source).join())
          problems.push(`${id}: placeholders ${placeholders(translation).join()} instead of ${placeholders(source).join()}`);
        if (!comments.includes(`en: ${source}`))
          problems.push(`${id}: translated from another English text (#. en: …), review it against "${source}"`);
      }
      expect(problems).toEqual([]);
    },
  );

  it.each(LOCALES)('%s compiles, and its compiled module is up to date (npm run i18n:compile)', async (locale) => {
    const { messages } = (await import(`../../renderer/src/locales/${locale}.ts`)) as { messages: Record<string, unknown> };
    const entries = catalogue(locale);
    for (const id of ids) expect(messages[id], `${locale} ${id}`).toEqual(compileMessage(entries[id]!.translation));
    expect(Object.keys(messages).sort()).toEqual(ids);
  });

  it('are what the code asks for: every message texts.ts names exists, none is left unused, and only texts.ts asks', () => {
    const texts = readFileSync(path.join(rendererDir, 'common/texts.ts'), 'utf8');
    const used = new Set([...texts.matchAll(/\bt\(\s*'([^']+)'/g)].map((m) => m[1]!));
    expect([...texts.matchAll(/\bt\(\s*[`"]/g)], 'message ids are plain literals, so this test can follow them').toEqual([]);
    expect(
      [...used].filter((id) => !(id in english)),
      'asked for, not in en.po',
    ).toEqual([]);
    expect(
      ids.filter((id) => !used.has(id)),
      'in en.po, asked for nowhere',
    ).toEqual([]);
    const others = filesUnder(rendererDir, ['.ts', '.tsx']).filter((f) => !f.endsWith('common/texts.ts') && !f.includes('/locales/'));
    const asking = others.filter((f) => /import\s*\{[^}]*\bt\b[^}]*\}\s*from\s*'[^']*i18n\.ts'/.test(readFileSync(f, 'utf8')));
    expect(asking.map((f) => path.relative(root, f))).toEqual([]);
  });
});

/**
 * Words a person reads, written into a component instead of taken from texts.ts: JSX text with
 * letters, a user-facing attribute (label, placeholder, title…) given as a literal, or a literal with
 * words put into the markup. Test ids, class names, keys and values are not read by anyone.
 */
function literalTextIn(file: string): string[] {
  const source = ts.createSourceFile(
    file,
    readFileSync(file, 'utf8'),
    ts.ScriptTarget.Latest,
    true,
    file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const found: string[] = [];
  const where = (node: ts.Node) => `${path.relative(root, file)}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
  const letters = /\p{L}{2,}/u;
  /** The literal parts of a string or template (not the names inside `${…}`). */
  const literal = (e: ts.Expression): string | null =>
    ts.isStringLiteral(e) || ts.isNoSubstitutionTemplateLiteral(e)
      ? e.text
      : ts.isTemplateExpression(e)
        ? [e.head.text, ...e.templateSpans.map((span) => span.literal.text)].join(' ')
        : null;
  /** Inside a className or test id (its nearest attribute): not read by a person. */
  const inUnreadAttribute = (node: ts.Node): boolean => {
    for (let n: ts.Node | undefined = node.parent; n; n = n.parent) {
      if (ts.isJsxAttribute(n)) return !readAttributes.has(n.name.getText());
      if (ts.isJsxElement(n) || ts.isJsxSelfClosingElement(n) || ts.isBlock(n) || ts.isFunctionLike(n)) return false;
    }
    return false;
  };
  const readAttributes = new Set(['aria-label', 'aria-description', 'placeholder', 'title', 'alt', 'label', 'aria-roledescription']);
  const visit = (node: ts.Node) => {
    if (ts.isJsxText(node) && letters.test(node.text)) found.push(`${where(node)} text "${node.text.trim()}"`);
    if (ts.isJsxAttribute(node) && readAttributes.has(node.name.getText()) && node.initializer) {
      const value = ts.isJsxExpression(node.initializer) ? node.initializer.expression : node.initializer;
      const text = value ? literal(value) : null;
      if (value && text !== null && letters.test(text)) found.push(`${where(node)} ${node.name.getText()}=${value.getText()}`);
    }
    if (ts.isJsxExpression(node) && node.parent && (ts.isJsxElement(node.parent) || ts.isJsxFragment(node.parent)) && node.expression) {
      const e = node.expression;
      const text = literal(e);
      if (text !== null && letters.test(text)) found.push(`${where(node)} child ${e.getText()}`);
    }
    // Sentences in code (a message built by hand): two words or more in a string, outside texts.ts.
    if ((ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) && /\p{L}{2,}[ ,:]+\p{L}{2,}/u.test(node.text)) {
      const parent = node.parent;
      const developerOnly =
        (ts.isNewExpression(parent) && parent.expression.getText() === 'Error') ||
        ts.isImportDeclaration(parent) ||
        ts.isExportDeclaration(parent);
      // An object's key names data (a stored setting), it is not shown.
      const notRead = ts.isJsxAttribute(parent) || inUnreadAttribute(node) || (ts.isPropertyAssignment(parent) && parent.name === node);
      if (!developerOnly && !notRead) found.push(`${where(node)} string ${node.getText()}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('the UI code', () => {
  it('carries no user-facing words of its own: they are in the catalogues, through texts.ts', () => {
    const files = filesUnder(rendererDir, ['.ts', '.tsx']).filter(
      (f) => !f.endsWith('common/texts.ts') && !f.includes('/locales/') && !f.endsWith('vite-env.d.ts'),
    );
    expect(files.length).toBeGreaterThan(40);
    expect(files.flatMap(literalTextIn)).toEqual([]);
  });

  it('finds the words a component would carry of its own (the check above sees them)', () => {
    const probe = path.join(root, 'test/fixtures/ui-literal-text.tsx');
    expect(literalTextIn(probe)).toEqual([
      'test/fixtures/ui-literal-text.tsx:6 text "Sign in"',
      'test/fixtures/ui-literal-text.tsx:7 placeholder="Type here"',
      `test/fixtures/ui-literal-text.tsx:8 child 'Look up'`,
      `test/fixtures/ui-literal-text.tsx:8 string 'Look up'`,
      `test/fixtures/ui-literal-text.tsx:10 string 'Saved all rows'`,
    ]);
  });
});
