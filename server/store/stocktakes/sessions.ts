// Stocktake (count) sessions: opening one, the list of an account's sessions, and one session with
// its totals. Every other stocktake file starts from loadStocktake: another account's session does
// not exist for the caller.
import { actorOf } from '../audit.ts';
import { type Selectable, sql } from 'kysely';
import { type CreateStocktakeBody, type Stocktake, type StocktakeStatus, fieldMessages, stocktakeMessages } from '../../../shared/index.ts';
import { apiError } from '../../errors.ts';
import type { Account } from '../accounts.ts';
import type { Queries } from '../engine.ts';
import { NO_WAREHOUSE, type StocktakeTable } from '../schema.ts';

/** The account a request acts for and the token it used. */
export interface StocktakeCaller extends Account {
  tokenId?: number | null;
  /** For who counted (a scan's actor, store/audit.ts): the token's label and the person signed in with it. */
  tokenLabel?: string | null;
  person?: { id: number; name: string } | null;
}

/** Who a caller is in a session's scans and commit: the person, the token's label, or null without a token. */
export function stocktakeActor(caller: StocktakeCaller): string | null {
  if (caller.tokenId === undefined || caller.tokenId === null) return null;
  return actorOf({ tokenId: caller.tokenId, tokenLabel: caller.tokenLabel ?? null, person: caller.person ?? null }).name;
}

/** The columns of a session the store works with (not the commit's bookkeeping). */
const STOCKTAKE_COLUMNS = [
  'id',
  'account_id',
  'warehouse_id',
  'name',
  'blind',
  'status',
  'zero_uncounted',
  'created_at',
  'committed_at',
  'committed_by',
] as const;

export type StocktakeRow = Pick<Selectable<StocktakeTable>, (typeof STOCKTAKE_COLUMNS)[number]>;

const now = () => new Date().toISOString();

/** The session of this account, or 404: another account's session does not exist for the caller. */
export async function loadStocktake(q: Queries, account: Account, id: number): Promise<StocktakeRow> {
  const row = await q.first(
    q.k.selectFrom('stocktakes').select(STOCKTAKE_COLUMNS).where('id', '=', id).where('account_id', '=', account.id),
  );
  if (!row) throw apiError(404, stocktakeMessages.notFound, { code: 'stocktake_not_found' });
  return row;
}

async function warehouseName(q: Queries, warehouseId: number): Promise<string | null> {
  if (warehouseId === NO_WAREHOUSE) return null;
  return (await q.first(q.k.selectFrom('warehouses').select('name').where('id', '=', warehouseId)))?.name ?? null;
}

export async function describeStocktake(q: Queries, session: StocktakeRow): Promise<Stocktake> {
  return toStocktake(session, await warehouseName(q, session.warehouse_id), (await totalsOf(q, [session.id])).get(session.id)!);
}

/**
 * The totals of some sessions (one, or a page of the list): two statements whatever their number,
 * the line totals and the scan totals, each grouped by session.
 */
async function totalsOf(q: Queries, ids: number[]): Promise<Map<number, Stocktake['totals']>> {
  const lines = await q.all(
    q.k
      .selectFrom('stocktake_lines')
      .select([
        'stocktake_id',
        sql<number>`count(unit_id)`.as('known'),
        sql<number>`count(*) - count(unit_id)`.as('unknown'),
        sql<number>`coalesce(sum(case when unit_id is not null then counted else 0 end), 0)`.as('units'),
        sql<number>`count(commit_state)`.as('committed'),
      ])
      .where('stocktake_id', 'in', ids)
      .groupBy('stocktake_id'),
  );
  const scans = await q.all(
    q.k
      .selectFrom('stocktake_scans')
      .select(['stocktake_id', sql<number>`count(*)`.as('n')])
      .where('stocktake_id', 'in', ids)
      .where('kind', '=', 'scan')
      .where('undone_at', 'is', null)
      .groupBy('stocktake_id'),
  );
  const linesOf = new Map(lines.map((l) => [l.stocktake_id, l]));
  const scansOf = new Map(scans.map((c) => [c.stocktake_id, Number(c.n)]));
  return new Map(
    ids.map((id) => {
      const counted = linesOf.get(id);
      return [
        id,
        {
          known_lines: Number(counted?.known ?? 0),
          unknown_lines: Number(counted?.unknown ?? 0),
          counted_units: Number(counted?.units ?? 0),
          scans: scansOf.get(id) ?? 0,
          committed_lines: Number(counted?.committed ?? 0),
        },
      ];
    }),
  );
}

function toStocktake(session: StocktakeRow, warehouseName: string | null, totals: Stocktake['totals']): Stocktake {
  return {
    id: session.id,
    name: session.name,
    warehouse: session.warehouse_id === NO_WAREHOUSE ? null : session.warehouse_id,
    warehouse_name: warehouseName,
    blind: session.blind === 1,
    status: session.status as StocktakeStatus,
    zero_uncounted: session.zero_uncounted === null ? null : session.zero_uncounted === 1,
    created_at: session.created_at,
    committed_at: session.committed_at,
    committed_by: session.committed_by ?? null,
    totals,
  };
}

export async function createStocktake(q: Queries, caller: StocktakeCaller, body: CreateStocktakeBody): Promise<Stocktake> {
  let warehouseId = NO_WAREHOUSE;
  if (caller.warehousesEnabled) {
    if (body.warehouse_name === undefined) {
      throw apiError(400, stocktakeMessages.invalidBody(`warehouse_name: ${fieldMessages.required}`), { code: 'invalid_body' });
    }
    const warehouse = await q.first(
      q.k.selectFrom('warehouses').select('id').where('account_id', '=', caller.id).where('name', '=', body.warehouse_name),
    );
    if (!warehouse) {
      throw apiError(400, stocktakeMessages.invalidBody(`warehouse_name: ${fieldMessages.warehouseNotFound(body.warehouse_name)}`), {
        code: 'invalid_body',
      });
    }
    warehouseId = warehouse.id;
  }
  const at = now();
  const created = await q.first(
    q.k
      .insertInto('stocktakes')
      .values({
        account_id: caller.id,
        warehouse_id: warehouseId,
        name: body.name ?? `Stocktake ${at.slice(0, 16).replace('T', ' ')}`,
        blind: body.blind ? 1 : 0,
        status: 'open',
        token_id: caller.tokenId ?? null,
        created_at: at,
      })
      .returning('id'),
  );
  return describeStocktake(q, await loadStocktake(q, caller, created!.id));
}

/**
 * One page of an account's sessions, newest first, after the session `before` (exclusive). Four
 * statements whatever the page size: the sessions (index stocktakes_account), then the line totals,
 * the scan totals and the warehouse names of the whole page at once, each grouped by session.
 */
export async function listStocktakes(
  q: Queries,
  account: Account,
  limit: number,
  before?: number,
): Promise<{ sessions: Stocktake[]; nextCursor: number | null }> {
  let query = q.k
    .selectFrom('stocktakes')
    .select(STOCKTAKE_COLUMNS)
    .where('account_id', '=', account.id)
    .orderBy('id', 'desc')
    .limit(limit + 1);
  if (before !== undefined) query = query.where('id', '<', before);
  const rows = await q.all(query);
  const page = rows.slice(0, limit);
  if (page.length === 0) return { sessions: [], nextCursor: null };
  const totals = await totalsOf(
    q,
    page.map((row) => row.id),
  );
  const warehouseIds = [...new Set(page.map((row) => row.warehouse_id).filter((id) => id !== NO_WAREHOUSE))];
  const warehouses =
    warehouseIds.length === 0 ? [] : await q.all(q.k.selectFrom('warehouses').select(['id', 'name']).where('id', 'in', warehouseIds));
  const nameOf = new Map(warehouses.map((w) => [w.id, w.name]));
  const sessions = page.map((session) => toStocktake(session, nameOf.get(session.warehouse_id) ?? null, totals.get(session.id)!));
  return { sessions, nextCursor: rows.length > limit ? page.at(-1)!.id : null };
}

export async function getStocktake(q: Queries, account: Account, id: number): Promise<Stocktake> {
  return describeStocktake(q, await loadStocktake(q, account, id));
}
