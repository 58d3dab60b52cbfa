// An import's scratch table of keys on PostgreSQL: a temporary table of the import's connection,
// dropped with its transaction, so a million barcodes never sit in JavaScript maps.
import { sql } from 'kysely';
import { type Param, type Queries, type ScratchClaim, type ScratchKeys, chunkLength, columnsOf, statement } from '../engine.ts';

type ScratchSchema = { scratch_keys: { kind: number; key: string; code: number } };

/** Several claims in one INSERT, each row returned when it was new (compiled once per count). */
const claimKeys = statement('scratch.claim', (k, p: Param<{ kind: number[]; key: string[]; code: number[] }>) => {
  const kinds = p.list('kind') as unknown as number[];
  const keys = p.list('key') as unknown as string[];
  const codes = p.list('code') as unknown as number[];
  return (k as unknown as import('kysely').Kysely<ScratchSchema>)
    .insertInto('scratch_keys')
    .values(kinds.map((_, i) => ({ kind: kinds[i]!, key: keys[i]!, code: codes[i]! })))
    .onConflict((oc) => oc.columns(['kind', 'key']).doNothing())
    .returning(['kind', 'key']);
});

const firstCode = statement('scratch.firstCode', (k, p: Param<{ kind: number; key: string }>) =>
  (k as unknown as import('kysely').Kysely<ScratchSchema>)
    .selectFrom('scratch_keys')
    .select('code')
    .where('kind', '=', p('kind'))
    .where('key', '=', p('key')),
);

export class PostgresScratchKeys implements ScratchKeys {
  private readonly q: Queries;

  private constructor(q: Queries) {
    this.q = q;
  }

  static async create(q: Queries): Promise<PostgresScratchKeys> {
    await q.run(
      q.k.schema
        .createTable('scratch_keys')
        .temporary()
        .ifNotExists()
        .addColumn('kind', 'integer', (c) => c.notNull())
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('code', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('scratch_keys_pk', ['kind', 'key'])
        .modifyEnd(sql`on commit drop`),
    );
    return new PostgresScratchKeys(q);
  }

  async claimAll(claims: readonly ScratchClaim[]): Promise<(number | undefined)[]> {
    if (claims.length === 0) return [];
    const { q } = this;
    const rows = claims.map(({ kind, key, code }) => ({ kind, key: String(key), code }));
    // One statement for all of them; a row that conflicts (with one before it in the same VALUES
    // too: the first is inserted) is not returned. Those are the duplicates, rare: read one by one.
    const inserted = new Set<string>();
    for (let from = 0; from < rows.length;) {
      const length = chunkLength(rows.length - from, q);
      for (const row of await q.all(claimKeys, columnsOf(rows, from, length))) inserted.add(`${row.kind} ${row.key}`);
      from += length;
    }
    const firsts: (number | undefined)[] = [];
    for (const { kind, key } of rows) {
      firsts.push(inserted.has(`${kind} ${key}`) ? undefined : (await q.first(firstCode, { kind, key }))!.code);
    }
    // A key twice in one call: the first claim inserted it, the second is its duplicate.
    const seen = new Set<string>();
    for (const [i, { kind, key }] of rows.entries()) {
      const id = `${kind} ${key}`;
      if (seen.has(id) && firsts[i] === undefined) firsts[i] = rows.find((row) => `${row.kind} ${row.key}` === id)!.code;
      seen.add(id);
    }
    return firsts;
  }

  async drop(): Promise<void> {
    // Dropped with the transaction (ON COMMIT DROP).
  }
}
