// Preloaded into a child process (NODE_OPTIONS=--import=…): records every package it resolves, by
// name, and writes the sorted list to $LOADED_PACKAGES_FILE on SIGUSR2 (test/launch/lazy-packages).
import { writeFileSync } from 'node:fs';
import { registerHooks } from 'node:module';
import process from 'node:process';

const seen = new Set();
registerHooks({
  resolve(specifier, context, nextResolve) {
    const result = nextResolve(specifier, context);
    const name = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(result.url)?.[1];
    if (name) seen.add(name);
    return result;
  },
});
process.on('SIGUSR2', () => writeFileSync(process.env.LOADED_PACKAGES_FILE, JSON.stringify([...seen].sort())));
