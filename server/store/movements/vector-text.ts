// How a version vector (`{origin: highest seq}`) is written into `sync_vectors` and found again: one
// text per vector (sorted keys), looked up by a short hash of that text rather than by the text
// itself, so an index does not hold every vector a second time.
import { createHash } from 'node:crypto';

/** `{origin: seq}` with sorted keys: one text per vector, so equal vectors intern to one row. */
export function vectorBody(vector: Readonly<Record<string, number>>): string {
  return JSON.stringify(Object.fromEntries(Object.entries(vector).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))));
}

/**
 * The key a vector's text is found by: the first 16 hex digits (64 bits) of its SHA-256. Two texts
 * may share one, so a lookup compares the text of what it finds.
 */
export function vectorHash(body: string): string {
  return createHash('sha256').update(body, 'utf8').digest('hex').slice(0, 16);
}
