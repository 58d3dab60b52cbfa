// The stock history of one barcode, newest first, loaded when opened; "Older" pages back with the cursor.
import { useState } from 'react';
import type { HistoryEntry } from '../../../shared/index.ts';
import { useSession } from '../api/session-context.tsx';

export function StockHistory({ barcode }: { barcode: string }) {
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
    <details className="stock-history" data-testid="stock-history" onToggle={(e) => (e.currentTarget.open ? load() : undefined)}>
      <summary>History</summary>
      {error ? <p className="st-error">{error}</p> : null}
      {entries === null ? null : entries.length === 0 ? (
        <p className="st-muted">No changes recorded.</p>
      ) : (
        <table className="st-table">
          <thead>
            <tr>
              <th>when</th>
              <th>where</th>
              <th>change</th>
              <th>by</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((h) => (
              <tr key={h.id} data-testid="history-entry" data-source={h.source}>
                <td>{new Date(h.created_at).toLocaleString()}</td>
                <td>{h.warehouse_name ?? ''}</td>
                <td>
                  {h.old_quantity ?? '–'} → <strong>{h.new_quantity}</strong>
                </td>
                <td>
                  {h.source}
                  {h.reference ? ` (${h.reference})` : ''}
                  {h.reason ? `: ${h.reason}` : ''}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {cursor ? (
        <button type="button" onClick={() => load(cursor)}>
          Older
        </button>
      ) : null}
    </details>
  );
}
