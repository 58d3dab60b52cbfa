// An account's label settings (migration 0028_label_settings): the prefix of its own codes, the next
// number to try, and the label printer ZPL goes to. No row means the defaults.
import { DEFAULT_CODE_PREFIX } from '../../../shared/index.ts';
import type { Queries } from '../engine.ts';

export interface LabelSettings {
  /** The prefix codes are made with (DEFAULT_CODE_PREFIX when none was set). */
  prefix: string;
  /** host:port, or null. */
  printer: string | null;
  nextCode: number;
}

export async function readLabelSettings(q: Queries, accountId: number): Promise<LabelSettings> {
  const row = await q.first(
    q.k.selectFrom('label_settings').select(['code_prefix', 'printer', 'next_code']).where('account_id', '=', accountId),
  );
  return { prefix: row?.code_prefix ?? DEFAULT_CODE_PREFIX, printer: row?.printer ?? null, nextCode: row?.next_code ?? 1 };
}

/** Changes what `change` names (undefined leaves a setting as it is, null clears the printer). */
export async function writeLabelSettings(
  q: Queries,
  accountId: number,
  change: { prefix?: string; printer?: string | null; nextCode?: number },
): Promise<LabelSettings> {
  const now = await readLabelSettings(q, accountId);
  const prefixChanged = change.prefix !== undefined && change.prefix !== now.prefix;
  const next = {
    code_prefix: change.prefix ?? now.prefix,
    printer: change.printer === undefined ? now.printer : change.printer,
    // A new prefix starts its numbers from 1 again; the codes already made keep theirs.
    next_code: change.nextCode ?? (prefixChanged ? 1 : now.nextCode),
  };
  const updated = await q.run(q.k.updateTable('label_settings').set(next).where('account_id', '=', accountId));
  if (updated.changes === 0) await q.run(q.k.insertInto('label_settings').values({ account_id: accountId, ...next }));
  return { prefix: next.code_prefix, printer: next.printer, nextCode: next.next_code };
}
