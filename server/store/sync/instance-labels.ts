// The labels people gave instances at `sync link` ("Laptop 2"), as this instance knows them: its own
// (the label its link registered upstream) and each follower's registered here. Conflicts and the
// history name the instance that made a movement by it. An instance further along a chain (a laptop
// that follows a shop that follows this one) is not known here by its label: it has none on this side.
import type { Queries } from '../engine.ts';
import { instanceId } from './held-vector.ts';

/** The labels known of `instances` for `accountId`: one query for the followers among them, one for this instance's own. */
export async function instanceLabels(q: Queries, accountId: number, instances: readonly string[]): Promise<Map<string, string>> {
  const labels = new Map<string, string>();
  const wanted = [...new Set(instances)];
  if (wanted.length === 0) return labels;
  const own = await instanceId(q);
  if (wanted.includes(own)) {
    const link = await q.first(q.k.selectFrom('sync_links').select('label').where('account_id', '=', accountId));
    if (link?.label) labels.set(own, link.label);
  }
  const others = wanted.filter((instance) => instance !== own);
  if (others.length > 0) {
    const rows = await q.all(
      q.k.selectFrom('sync_followers').select(['instance', 'label']).where('account_id', '=', accountId).where('instance', 'in', others),
    );
    for (const row of rows) labels.set(row.instance, row.label);
  }
  return labels;
}
