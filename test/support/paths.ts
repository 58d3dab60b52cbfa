// Where the repository is, for tests that read or run its files: one place, whatever folder a test
// file sits in.
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '../..');
/** A path inside the repository, e.g. inRepo('bin', 'barcode-inventory.js'). */
export const inRepo = (...parts: string[]): string => path.join(ROOT, ...parts);
