// The stock history of one barcode, newest first, loaded when opened; "Older changes" pages back with
// the cursor. Times in the browser's locale.
import { useState } from 'react';
import type { HistoryEntry } from '../../../shared/index.ts';
import { useSession } from '../api/session-context.tsx';
import { formatDateTime, formatNumber } from '../common/format.ts';
import { historyTexts } from '../common/texts.ts';

export function StockHistory({ barcode, open }: { barcode: string; open?: boolean }) {
  const { client } = useSession();
  const [entries, setEntries] = useState<HistoryEntry[] | null>(null);
  const [cursor, setCursor] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

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
    <details className="stock-history" data-testid="stock-history" open={open} onToggle={(e) => (e.currentTarget.open ? load() : undefined)}>
      <summary>{historyTexts.summary}</summary>
      {error ? <p className="error-text">{error}</p> : null}
      {entries === null ? null : entries.length === 0 ? (
        <p className="muted">{historyTexts.none}</p>
      ) : (
        <div className="table-scroll">
          <table className="table stack">
            <thead>
              <tr>
                <th scope="col">{historyTexts.when}</th>
                <th scope="col">{historyTexts.where}</th>
                <th scope="col">{historyTexts.change}</th>
                <th scope="col">{historyTexts.by}</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((h) => (
                <tr key={h.id} data-testid="history-entry" data-source={h.source}>
                  <td data-label={historyTexts.when}>{formatDateTime(h.created_at)}</td>
                  <td data-label={historyTexts.where}>{h.warehouse_name ?? ''}</td>
                  <td className="num" data-label={historyTexts.change}>
                    {h.old_quantity === null ? '–' : formatNumber(h.old_quantity)} → <strong>{formatNumber(h.new_quantity)}</strong>
                  </td>
                  <td data-label={historyTexts.by}>
                    {historyTexts.sources[h.source] ?? h.source}
                    {h.reference ? ` (${h.reference})` : ''}
                    {h.reason ? `: ${h.reason}` : ''}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {cursor ? (
        <button type="button" onClick={() => load(cursor)}>
          {historyTexts.older}
        </button>
      ) : null}
    </details>
  );
}
