// List mode: each scan counts one of its barcode; the counted rows stay editable and go to the server
// in one request, and rejected rows stay in the list with their error.
import { useCallback, useRef, useState } from 'react';
import { MAX_ROWS_PER_UPDATE } from '../../../shared/index.ts';
import type { RowInput } from '../api/api-client.ts';
import { useSession } from '../api/session-context.tsx';
import { describe, lookUpBarcodes } from '../scan/barcode-lookup.ts';
import { useScans } from '../scan/scan-router.ts';
import type { ModeProps, SendingProps } from '../scan/scanner-mode.ts';

interface ListRow {
  id: number;
  barcode: string;
  quantity: string;
  /** Item (and variant) name once looked up; `known` false for a barcode the account does not have. */
  name?: string | undefined;
  known?: boolean | undefined;
  errors?: Record<string, string> | undefined;
}

export function ListMode({ warehouse, status, scans, sending, setSending }: ModeProps & SendingProps) {
  const { client, account } = useSession();
  const withWarehouses = account.warehouses_enabled;
  const { show, feedback, failed } = status;
  const [rows, setRows] = useState<ListRow[]>([]);
  const nextId = useRef(1);

  // Scans can arrive faster than React renders, so the list's latest value is kept in a ref as well.
  const rowsRef = useRef<ListRow[]>([]);
  const updateRows = useCallback((change: (rows: ListRow[]) => ListRow[]) => {
    rowsRef.current = change(rowsRef.current);
    setRows(rowsRef.current);
  }, []);

  const editQuantity = (id: number, quantity: string) => updateRows((prev) => prev.map((r) => (r.id === id ? { ...r, quantity } : r)));

  const addToList = useCallback(
    (barcode: string) => {
      const prev = rowsRef.current;
      const same = prev.find((r) => r.barcode === barcode);
      if (!same && prev.length >= MAX_ROWS_PER_UPDATE) return feedback('error', `The list is full (${MAX_ROWS_PER_UPDATE} rows): send it first`);
      if (same) {
        const count = (Number.parseInt(same.quantity, 10) || 0) + 1;
        updateRows((list) => list.map((r) => (r.id === same.id ? { ...r, quantity: String(count), errors: undefined } : r)));
        return feedback(same.known === false ? 'error' : 'ok', `${same.name ?? barcode}: ${count}`);
      }
      const id = nextId.current++;
      updateRows((list) => [...list, { id, barcode, quantity: '1' }]);
      show({ tone: 'busy', text: `Counted ${barcode}…` });
      // Names the row, and warns at once (tone included) when the barcode is unknown.
      lookUpBarcodes(client, [barcode]).then(([info]) => {
        const known = info!.records.length > 0;
        updateRows((list) => list.map((r) => (r.id === id ? { ...r, known, name: known ? describe(info!) : undefined } : r)));
        if (known) feedback('ok', `${describe(info!)}: 1`);
        else feedback('error', `Unknown barcode: ${barcode}`);
      }, failed);
    },
    [client, show, feedback, failed, updateRows],
  );

  useScans(scans, addToList);

  const sendList = () => {
    if (rowsRef.current.length === 0 || sending) return;
    if (withWarehouses && warehouse === null) return feedback('error', 'Choose a warehouse first (top bar)');
    const sent = rowsRef.current;
    const inputs: RowInput[] = sent.map((r) => ({ barcode: r.barcode, quantity: r.quantity.trim(), ...(warehouse !== null ? { warehouse_name: warehouse } : {}) }));
    setSending(true);
    show({ tone: 'busy', text: `Sending ${sent.length} rows…` });
    client
      .updateStock(inputs, withWarehouses)
      .then((results) => {
        const rejected = new Map<number, Record<string, string>>();
        results.forEach((r, i) => {
          if (!r.ok) rejected.set(sent[i]!.id, r.errors);
        });
        // Saved rows leave the list; rejected ones stay, with their errors, for correction.
        // A row changed while the request was on its way (scanned again, edited) is not the row sent: it stays.
        updateRows((prev) => prev.filter((r) => !sent.includes(r) || rejected.has(r.id)).map((r) => (rejected.has(r.id) ? { ...r, errors: rejected.get(r.id) } : r)));
        const saved = sent.length - rejected.size;
        if (rejected.size === 0) feedback('ok', `Saved all ${saved} rows`);
        else feedback('error', `Saved ${saved} rows; ${rejected.size} need correcting`);
      }, failed)
      .finally(() => setSending(false));
  };

  return (
    <section className="panel" aria-label="List">
      <div className="list-actions">
        <button type="button" className="primary" disabled={rows.length === 0 || sending} onClick={sendList} data-testid="send-list">
          Send {rows.length} row{rows.length === 1 ? '' : 's'}
          {warehouse ? ` to ${warehouse}` : ''}
        </button>
        <button type="button" disabled={rows.length === 0 || sending} onClick={() => updateRows(() => [])}>
          Clear list
        </button>
      </div>
      {rows.length === 0 ? <p className="placeholder">Scan items to count them.</p> : null}
      <table className="rows" data-testid="list-rows">
        <tbody>
          {rows.map((row) => (
            <tr key={row.id} data-barcode={row.barcode} data-state={row.errors ? 'rejected' : 'pending'} className={row.errors || row.known === false ? 'error' : undefined}>
              <td className="row-name">
                <strong>{row.known === false ? 'Unknown barcode' : (row.name ?? '…')}</strong>
                <code>{row.barcode}</code>
              </td>
              <td>
                <input
                  type="text"
                  inputMode="numeric"
                  aria-label={`Quantity of ${row.barcode}`}
                  value={row.quantity}
                  onChange={(e) => editQuantity(row.id, e.target.value)}
                />
              </td>
              <td className="row-error">{row.errors ? Object.values(row.errors).join(' ') : ''}</td>
              <td>
                <button type="button" onClick={() => updateRows((prev) => prev.filter((r) => r.id !== row.id))} aria-label={`Remove ${row.barcode}`}>
                  Remove
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
