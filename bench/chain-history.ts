// A long movement history for a PostgreSQL database, written in bulk by SQL in the shape the server
// writes it (server/store/movements/movement-log.ts): for bench/chain-scale.ts, whose head office
// needs a million movements in its history before the chain starts. Writing them through the API
// would take hours; this takes about a minute.
//
// The movements are sales and deliveries (`adjust` −1 or +2) of the account's units that have stock,
// spread over `origins` (this instance and former tills, numbered on after what each already holds),
// stamped evenly between `fromWall` and `toWall` in arrival order, so each lands on top of its place
// as a live server's movements do. The before/after quantities are those of the fold from each
// place's stored quantity, and `stock` ends at each place's last one. Adjusts carry no seen vector
// and never conflict, so no conflict group is owed. Origins other than this instance are recorded as
// held from before owners were kept (`(unowned)`, migration 0029), and the account's seen vector is
// marked stale, as applying them through sync would.
import pg from 'pg';
import { HLC_KEY_COUNTERS } from '../server/store/movements/hlc.ts';
import { SOURCE_IDS } from '../server/store/movements/movement-names.ts';

export interface HistoryOptions {
  url: string;
  account: string;
  count: number;
  /** Origins of the movements, in turn; the instance's own id may be among them. */
  origins: readonly string[];
  fromWall: number;
  toWall: number;
}

export async function seedHistory(options: HistoryOptions): Promise<{ rows: number; ms: number }> {
  const started = performance.now();
  const client = new pg.Client({ connectionString: options.url });
  await client.connect();
  try {
    await client.query('BEGIN');
    const accountId = (await client.query<{ id: number }>('SELECT id FROM accounts WHERE name = $1', [options.account])).rows[0]?.id;
    if (accountId === undefined) throw new Error(`no account "${options.account}" in ${options.url}`);
    const instance = (await client.query<{ id: string }>('SELECT id FROM instance')).rows[0]!.id;
    const step = Math.max(1, Math.floor((options.toWall - options.fromWall) / Math.max(1, options.count)));
    // The window sums need the rows of a place together; a generous work_mem keeps that sort in memory.
    await client.query("SET LOCAL work_mem = '256MB'");
    const inserted = await client.query(
      `WITH places AS (
         SELECT (row_number() OVER (ORDER BY s.unit_id, s.warehouse_id) - 1) AS k,
                s.unit_id, s.warehouse_id, u.item_id, u.variant_id, s.quantity
           FROM stock s JOIN stock_units u ON u.id = s.unit_id
          WHERE u.account_id = $1
       ),
       n AS (SELECT count(*) AS c FROM places),
       bases AS (
         SELECT o.origin, coalesce((SELECT max(h.seq) FROM stock_history h WHERE h.account_id = $1 AND h.origin = o.origin), 0) AS base
           FROM unnest($3::text[]) AS o(origin)
       ),
       m AS (
         SELECT i, (i * 7919) % (SELECT c FROM n) AS k,
                CASE WHEN i % 3 = 0 THEN 2 ELSE -1 END AS value,
                $4::bigint + i * $5::bigint AS wall,
                ($3::text[])[1 + i % cardinality($3::text[])] AS origin,
                i / cardinality($3::text[]) AS nth
           FROM generate_series(0::bigint, $2::bigint - 1) AS i
       )
       INSERT INTO stock_history (account_id, unit_id, item_id, variant_id, warehouse_id, origin, seq, kind, value, hlc_key,
                                  seen_vector, old_quantity, new_quantity, source_id, token_id, reason, reference, created_ms)
       SELECT $1, p.unit_id, p.item_id, p.variant_id, p.warehouse_id, m.origin, b.base + m.nth + 1, 'adjust', m.value,
              m.wall * ${HLC_KEY_COUNTERS},
              NULL, p.quantity + sum(m.value) OVER w - m.value, p.quantity + sum(m.value) OVER w,
              ${SOURCE_IDS.api}, NULL, CASE WHEN m.value < 0 THEN 'sale' ELSE 'receipt' END, NULL, m.wall
         FROM m JOIN places p ON p.k = m.k JOIN bases b ON b.origin = m.origin
       WINDOW w AS (PARTITION BY p.unit_id, p.warehouse_id ORDER BY m.i)
        ORDER BY m.i`,
      [accountId, options.count, options.origins, options.fromWall, step],
    );
    await client.query(
      `UPDATE stock s SET quantity = l.new_quantity
         FROM (SELECT DISTINCT ON (unit_id, warehouse_id) unit_id, warehouse_id, new_quantity
                 FROM stock_history WHERE account_id = $1 ORDER BY unit_id, warehouse_id, hlc_key DESC, hlc DESC) l
        WHERE s.unit_id = l.unit_id AND s.warehouse_id = l.warehouse_id AND s.quantity <> l.new_quantity`,
      [accountId],
    );
    const others = options.origins.filter((o) => o !== instance);
    if (others.length > 0) {
      await client.query(
        `INSERT INTO sync_origins (account_id, origin, owner, claimed_at)
         SELECT $1, o, '(unowned)', $3 FROM unnest($2::text[]) AS o ON CONFLICT DO NOTHING`,
        [accountId, others, new Date().toISOString()],
      );
      await client.query('UPDATE accounts SET seen_stale = 1 WHERE id = $1', [accountId]);
    }
    // The instance's clock past everything it holds, as applying or making them would have left it.
    await client.query(
      `UPDATE instance SET last_hlc = (SELECT lpad(split_part(max(h.hlc), '-', 1), 16, '0') || '-' || split_part(max(h.hlc), '-', 2) || '-' || instance.id
                                         FROM stock_history h)`,
    );
    await client.query('COMMIT');
    await client.query('ANALYZE');
    return { rows: inserted.rowCount ?? 0, ms: performance.now() - started };
  } finally {
    await client.end();
  }
}
