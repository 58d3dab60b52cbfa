// List mode: counted rows, editable, sent in one request; rejected rows stay with their error.
export interface ListRow {
  id: number;
  barcode: string;
  quantity: string;
  /** Item (and variant) name once looked up; `known` false for a barcode the account does not have. */
  name?: string | undefined;
  known?: boolean | undefined;
  errors?: Record<string, string> | undefined;
}

export function ListPanel(props: {
  rows: ListRow[];
  sending: boolean;
  warehouse: string | null;
  onChange: (id: number, quantity: string) => void;
  onRemove: (id: number) => void;
  onClear: () => void;
  onSend: () => void;
}) {
  const { rows, sending, warehouse } = props;
  return (
    <section className="panel" aria-label="List">
      <div className="list-actions">
        <button type="button" className="primary" disabled={rows.length === 0 || sending} onClick={props.onSend} data-testid="send-list">
          Send {rows.length} row{rows.length === 1 ? '' : 's'}
          {warehouse ? ` to ${warehouse}` : ''}
        </button>
        <button type="button" disabled={rows.length === 0 || sending} onClick={props.onClear}>
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
                  onChange={(e) => props.onChange(row.id, e.target.value)}
                />
              </td>
              <td className="row-error">{row.errors ? Object.values(row.errors).join(' ') : ''}</td>
              <td>
                <button type="button" onClick={() => props.onRemove(row.id)} aria-label={`Remove ${row.barcode}`}>
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
