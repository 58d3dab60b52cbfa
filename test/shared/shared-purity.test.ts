// shared/ is loaded by the browser UI too: it may import only zod and its own files.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { inRepo } from '../support/paths.ts';

const sharedDir = inRepo('shared');
const files = readdirSync(sharedDir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
const importPattern = /(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

describe('shared/ imports no Node, Koa or browser API', () => {
  it('has source files to check', () => expect(files.length).toBeGreaterThan(3));
  it.each(files)('%s imports only zod and shared files', (file) => {
    const source = readFileSync(path.join(sharedDir, file), 'utf8');
    const specifiers = [...source.matchAll(importPattern)].map((m) => m[1] ?? m[2]);
    for (const specifier of specifiers) {
      expect(specifier === 'zod' || specifier!.startsWith('./'), `${file} imports ${specifier}`).toBe(true);
    }
    expect(source).not.toMatch(/\b(process|require|window|document|localStorage)\s*[.(]/);
  });
});
