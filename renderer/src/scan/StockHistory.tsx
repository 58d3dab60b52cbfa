// The stock history of one barcode, newest first, loaded when opened; "Older changes" pages back with
// the cursor. Times in the browser's locale, when each change happened (a count made offline and synced
// later shows at its time, among the sales around it). One line per change (when · where · old → new ·
// what: counted 3, set to 5, −1 · by · on which other computer, by its label), so it fits a narrow card without a table to scroll.
import { useState } from 'react';
import type { HistoryEntry } from '../../../shared/index.ts';
import { useSession } from '../api/session-context.tsx';
import { formatInstant, formatNumber } from '../common/format.ts';
import { historyTexts } from '../common/texts.ts';
import { useSyncStatus } from '../sync/sync-status.tsx';
import { StockChart } from './StockChart.tsx';

export function StockHistory({ barcode, open }: { barcode: string; open?: boolean }) {
  const { client } = useSession();
  const ownInstance = useSyncStatus().status?.instance;
  const [entries, setEntries] = useState<HistoryEntry[] | null>(null);
  const [cursor, setCursor] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [opened, setOpened] = useState(open ?? false);

  const load = (after?: string) => {
    setError(null);
    client.history(barcode, after).then(
      (page) => {
        setEntries((prev) => [...(after ? (prev ?? []) : []), ...page.results]);
        setCursor(page.next_cursor);
      },
      (e: unknown) => setError((e as Error).message),
    );
  };

  return (
    <details
      className="stock-history"
      data-testid="stock-history"
      open={open}
      onToggle={(e) => {
        if (!e.currentTarget.open) return;
        setOpened(true);
        load();
      }}
    >
      <summary>{historyTexts.summary}</summary>
      {opened ? <StockChart barcode={barcode} /> : null}
      {error ? <p className="error-text">{error}</p> : null}
      {entries === null ? null : entries.length === 0 ? (
        <p className="muted">{historyTexts.none}</p>
      ) : (
        <ul className="history-list">
          {entries.map((h) => (
            <li
              key={h.id}
              data-testid="history-entry"
              data-source={h.source}
              data-kind={h.kind}
              data-value={h.value}
              data-actor={h.actor ?? ''}
              title={historyTexts.recordedOn(h.instance)}
            >
              <span className="h-when">{formatInstant(h.occurred_at)}</span>
              {h.warehouse_name ? <span className="h-where">{h.warehouse_name}</span> : null}
              <span className="h-change">
                {h.old_quantity === null ? '–' : formatNumber(h.old_quantity)} → <strong>{formatNumber(h.new_quantity)}</strong>
              </span>
              <span className="h-by">
                {historyTexts.kind(h.kind, h.value)} · {historyTexts.source(h.source)}
                {h.reference ? ` (${h.reference})` : ''}
                {h.reason ? `: ${h.reason}` : ''}
                {h.actor ? ` · ${historyTexts.by(h.actor)}` : ''}
                {/* Made on another computer whose label is known here: which one. */}
                {h.origin_label && h.origin !== ownInstance ? ` · ${historyTexts.madeOn(h.origin_label)}` : ''}
              </span>
            </li>
          ))}
        </ul>
      )}
      {cursor ? (
        <button type="button" onClick={() => load(cursor)}>
          {historyTexts.older}
        </button>
      ) : null}
    </details>
  );
}
