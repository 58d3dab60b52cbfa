// An import's scratch table of keys on PostgreSQL: a temporary table of the import's connection,
// dropped with its transaction, so a million barcodes never sit in JavaScript maps.
import { sql } from 'kysely';
import type { Queries, ScratchKeys } from '../engine.ts';

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

  async claim(kind: number, key: string | number, code: number): Promise<number | undefined> {
    const { q } = this;
    const k = q.k as unknown as import('kysely').Kysely<{ scratch_keys: { kind: number; key: string; code: number } }>;
    const inserted = await q.run(
      k
        .insertInto('scratch_keys')
        .values({ kind, key: String(key), code })
        .onConflict((oc) => oc.columns(['kind', 'key']).doNothing()),
    );
    if (inserted.changes === 1) return undefined;
    return (await q.first(k.selectFrom('scratch_keys').select('code').where('kind', '=', kind).where('key', '=', String(key))))!.code;
  }

  async drop(): Promise<void> {
    // Dropped with the transaction (ON COMMIT DROP).
  }
}
