// List mode: each scan counts one of its barcode (or a GS1 scan's count); the counted rows stay
// editable and go to the server in one request, either setting the stock to the counted numbers or
// adding them to it, as the list says before it is sent. Unknown barcodes are held back; the result
// is shown per row (saved in green, to correct in red). The list is kept on the device throughout.
import { useCallback, useEffect, useRef, useState } from 'react';
import { MAX_BARCODES_PER_READ, MAX_ROWS_PER_UPDATE, equivalentBarcodes, parseQuantity } from '../../../shared/index.ts';
import type { RowOutcome } from '../api/api-client.ts';
import { ApiError } from '../api/request-json.ts';
import { useSession } from '../api/session-context.tsx';
import { friendlyErrors, listTexts, modeTexts, scanTexts } from '../common/texts.ts';
import { describe, lookUpScans, quantitiesOf } from '../scan/barcode-lookup.ts';
import { type Scan, visibleText } from '../scan/scanned-code.ts';
import { useScans } from '../scan/scan-router.ts';
import type { ModeProps } from '../scan/scanner-mode.ts';
import { PrintLabels } from '../labels/PrintLabels.tsx';
import { type InFlight, type ListAction, type ListRow, type ListState, type RowResult, loadList, saveList } from './list-storage.ts';

/** The counted number as a whole number, or null while it is not one. */
function countedOf(row: ListRow): number | null {
  const n = parseQuantity(row.quantity);
  return typeof n === 'number' ? n : null;
}

export function ListMode({ warehouse, status, scans }: ModeProps) {
  const { client, account } = useSession();
  const withWarehouses = account.warehouses_enabled;
  const { show, feedback, failed } = status;
  const [list, setList] = useState<ListState>(() => loadList(account.account));
  const [sending, setSending] = useState(false);
  const [confirmClear, setConfirmClear] = useState(false);

  // Scans can arrive faster than React renders, so the list's latest value is kept in a ref as well;
  // every change is stored on the device at once.
  const listRef = useRef<ListState>(list);
  const nextId = useRef(Math.max(0, ...list.rows.map((r) => r.id)) + 1);
  const update = useCallback(
    (change: (state: ListState) => ListState) => {
      listRef.current = change(listRef.current);
      saveList(account.account, listRef.current);
      setList(listRef.current);
    },
    [account.account],
  );
  const updateRows = useCallback((change: (rows: ListRow[]) => ListRow[]) => update((s) => ({ ...s, rows: change(s.rows) })), [update]);
  const editRow = useCallback(
    (id: number, change: Partial<ListRow>) => updateRows((rows) => rows.map((r) => (r.id === id ? { ...r, ...change } : r))),
    [updateRows],
  );

  const addToList = useCallback(
    (scan: Scan) => {
      const howMany = scan.gs1?.count ?? 1;
      const rows = listRef.current.rows;
      // The same product under another GTIN form counts on the same row, also while that row's lookup
      // has not answered yet (its barcode is then still the form it was scanned in).
      const forms = new Set(scan.barcodes.flatMap(equivalentBarcodes));
      const same =
        rows.find((r) => r.state !== 'saved' && (r.scanned ?? r.barcode) === scan.text) ??
        rows.find((r) => r.state !== 'saved' && forms.has(r.barcode));
      if (same) {
        const counted = (countedOf(same) ?? 0) + howMany;
        editRow(same.id, { quantity: String(counted), state: 'pending', result: undefined });
        return feedback(same.known === false ? 'error' : 'ok', listTexts.counted(same.name ?? visibleText(scan.text), counted));
      }
      if (rows.filter((r) => r.state !== 'saved').length >= MAX_ROWS_PER_UPDATE) return feedback('error', listTexts.full);
      const id = nextId.current++;
      const row: ListRow = { id, barcode: scan.barcodes[0]!, quantity: String(howMany), state: 'pending' };
      if (scan.text !== row.barcode) row.scanned = scan.text;
      if (scan.gs1?.batch !== undefined) row.batch = scan.gs1.batch;
      if (scan.gs1?.expiry !== undefined) row.expiry = scan.gs1.expiry;
      updateRows((list) => [...list, row]);
      show({ tone: 'busy', text: listTexts.counted(visibleText(scan.text), howMany) });
      // Names the row and shows its stock; warns at once (tone included) when the barcode is unknown.
      lookUpScans(client, [scan]).then(([info]) => {
        const known = info!.records.length > 0;
        const change: Partial<ListRow> = { known, barcode: info!.barcode };
        if (known) Object.assign(change, { name: describe(info!), stock: quantitiesOf(info!.records) });
        editRow(id, change);
        if (!known) feedback('error', scanTexts.unknown(visibleText(scan.text)));
        else if (howMany !== 1) feedback('ok', listTexts.countFromScan(describe(info!), howMany));
        else feedback('ok', listTexts.counted(describe(info!), 1));
      }, failed);
    },
    [client, show, feedback, failed, updateRows, editRow],
  );

  useScans(scans, addToList);

  /** Sends (or sends again) exactly what `inFlight` holds, then shows the answer row by row. */
  const perform = useCallback(
    (inFlight: InFlight) => {
      setSending(true);
      show({ tone: 'busy', text: listTexts.sending(inFlight.rows.length) });
      const where = inFlight.warehouse !== null ? { warehouse_name: inFlight.warehouse } : {};
      const options = { idempotencyKey: inFlight.key };
      const request: Promise<RowOutcome[]> =
        inFlight.action === 'set'
          ? client.updateStock(
              inFlight.rows.map((r) => ({ barcode: r.barcode, quantity: r.quantity, ...where })),
              withWarehouses,
              options,
            )
          : client.adjustStock(
              inFlight.rows.map((r) => ({ barcode: r.barcode, delta: r.quantity, ...where })),
              withWarehouses,
              options,
            );
      request
        .then(
          (outcomes) => {
            const byId = new Map(inFlight.rows.map((sent, i) => [sent.id, { sent, outcome: outcomes[i]! }]));
            const stockKey = inFlight.warehouse ?? '';
            update((state) => ({
              ...state,
              inFlight: null,
              rows: state.rows.map((row) => {
                const answer = byId.get(row.id);
                if (!answer) return row;
                const { sent, outcome } = answer;
                if (!outcome.ok) return { ...row, state: 'rejected', result: { ok: false, errors: outcome.errors, sent: sent.quantity } };
                const before = row.stock?.[stockKey];
                const stock = { ...row.stock, [stockKey]: outcome.quantity };
                const result: RowResult = { ok: true, quantity: outcome.quantity, ...(before !== undefined ? { before } : {}) };
                // Counted again (or edited) while the request was on its way: what was sent is saved,
                // the rest stays to be sent.
                if (row.quantity !== sent.quantity) {
                  const now = parseQuantity(row.quantity);
                  const was = parseQuantity(sent.quantity);
                  const rest =
                    inFlight.action === 'add' && typeof now === 'number' && typeof was === 'number' ? String(now - was) : row.quantity;
                  return { ...row, stock, quantity: rest, state: 'pending', result };
                }
                return { ...row, stock, state: 'saved', result };
              }),
            }));
            const saved = outcomes.filter((o) => o.ok).length;
            const refused = outcomes.length - saved;
            if (refused === 0) feedback('ok', listTexts.savedAll(saved));
            else if (saved > 0) feedback('warn', listTexts.savedSome(saved, refused));
            else feedback('error', listTexts.savedNone(refused));
          },
          (error: unknown) => {
            // No answer: the send may or may not have been applied. It stays, with its key, to be
            // sent again; a refusal of the whole request (4xx) will not change by resending it.
            if (!(error instanceof ApiError && (error.status === 0 || error.status >= 500)))
              update((state) => ({ ...state, inFlight: null }));
            failed(error);
          },
        )
        .finally(() => setSending(false));
    },
    [client, withWarehouses, show, feedback, failed, update],
  );

  // A send that was on its way when the page closed is finished first, under its own key.
  const resumed = useRef(false);
  useEffect(() => {
    if (resumed.current) return;
    resumed.current = true;
    const { inFlight, rows } = listRef.current;
    if (inFlight) {
      show({ tone: 'busy', text: listTexts.resending });
      perform(inFlight);
    } else if (rows.some((r) => r.state !== 'saved')) {
      show({ tone: 'idle', text: listTexts.restored(rows.filter((r) => r.state !== 'saved').length) });
    }
  }, [perform, show]);

  const sendList = () => {
    if (sending) return;
    if (listRef.current.inFlight) return perform(listRef.current.inFlight);
    if (withWarehouses && warehouse === null) return feedback('error', listTexts.chooseWarehouse);
    const sendable = listRef.current.rows.filter((r) => r.state !== 'saved' && r.known !== false);
    if (sendable.length === 0) return feedback('error', listTexts.nothingToSend);
    const inFlight: InFlight = {
      key: crypto.randomUUID(),
      action: listRef.current.action,
      warehouse,
      rows: sendable.map((r) => ({ id: r.id, barcode: r.barcode, quantity: r.quantity.trim() })),
    };
    update((state) => ({ ...state, inFlight }));
    perform(inFlight);
  };

  /** Takes rows out of the list; once nothing is left to send, a banner about the rows (the list came back) is over. */
  const clearRows = (change: (rows: ListRow[]) => ListRow[]) => {
    updateRows(change);
    if (!listRef.current.rows.some((r) => r.state !== 'saved')) show({ tone: 'idle', text: modeTexts.list.ready });
  };

  const { rows, action, inFlight } = list;
  const open = rows.filter((r) => r.state !== 'saved');
  const unknown = open.filter((r) => r.known === false);
  const sendable = open.length - unknown.length;
  const hasSaved = rows.some((r) => r.state === 'saved');
  const setAction = (next: ListAction) => update((s) => ({ ...s, action: next }));
  const listBarcodes = [...new Set(rows.map((r) => r.barcode))].slice(0, MAX_BARCODES_PER_READ);

  return (
    <section className="panel" aria-label={listTexts.panel}>
      <fieldset className="list-action" disabled={sending || inFlight !== null}>
        <legend>{listTexts.whatToDo}</legend>
        <label>
          <input
            type="radio"
            name="list-action"
            checked={action === 'set'}
            onChange={() => setAction('set')}
            data-testid="list-action-set"
          />{' '}
          {listTexts.setMode}
        </label>
        <label>
          <input
            type="radio"
            name="list-action"
            checked={action === 'add'}
            onChange={() => setAction('add')}
            data-testid="list-action-add"
          />{' '}
          {listTexts.addMode}
        </label>
      </fieldset>
      <div className="list-actions">
        <button
          type="button"
          className="primary"
          disabled={(sendable === 0 && !inFlight) || sending}
          onClick={sendList}
          data-testid="send-list"
        >
          {listTexts.send(
            inFlight?.action ?? action,
            inFlight ? inFlight.rows.length : sendable,
            withWarehouses ? (inFlight?.warehouse ?? warehouse) : null,
          )}
        </button>
        {hasSaved ? (
          <button type="button" onClick={() => clearRows((list) => list.filter((r) => r.state !== 'saved'))} data-testid="clear-saved">
            {listTexts.clearSaved}
          </button>
        ) : null}
        {confirmClear ? (
          <span className="confirm-inline" role="group" aria-label={listTexts.confirmClear(open.length)}>
            {listTexts.confirmClear(open.length)}{' '}
            <button
              type="button"
              className="danger"
              onClick={() => {
                clearRows(() => []);
                setConfirmClear(false);
              }}
            >
              {listTexts.clearAll}
            </button>{' '}
            <button type="button" onClick={() => setConfirmClear(false)}>
              {listTexts.keepList}
            </button>
          </span>
        ) : (
          <button
            type="button"
            disabled={rows.length === 0 || sending}
            onClick={() => (open.length > 0 ? setConfirmClear(true) : clearRows(() => []))}
          >
            {listTexts.clearAll}
          </button>
        )}
      </div>
      {unknown.length > 0 ? (
        <p className="notice notice-error" data-testid="held-back">
          {listTexts.heldBack(unknown.length)}
        </p>
      ) : null}
      {rows.length === 0 ? <p className="placeholder">{listTexts.placeholder}</p> : null}
      {rows.length > 0 ? (
        <table className="rows" data-testid="list-rows">
          {/* Fixed widths: a column does not jump when a row's stock or result appears or goes. */}
          <colgroup>
            <col className="col-item" />
            <col className="col-count" />
            <col className="col-stock" />
            <col className="col-result" />
            <col className="col-remove" />
          </colgroup>
          <thead>
            <tr>
              <th scope="col">{listTexts.columns.item}</th>
              <th scope="col">{listTexts.columns.counted}</th>
              <th scope="col">{listTexts.columns.stock}</th>
              <th scope="col">{listTexts.columns.result}</th>
              <th scope="col">
                <span className="visually-hidden">{listTexts.columns.remove}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => {
              const stateName = row.known === false && row.state !== 'saved' ? 'unknown' : row.state;
              const current = row.stock?.[warehouse ?? ''];
              // A saved row says what was saved in its result; its "now" would go stale as the shop sells.
              const stockText = row.state === 'saved' || row.known === false ? '' : listTexts.willBe(action, current, countedOf(row));
              return (
                <tr key={row.id} data-barcode={row.scanned ?? row.barcode} data-state={stateName} className={`row-${stateName}`}>
                  <td className="row-name">
                    <strong>{row.known === false ? listTexts.unknownRow : (row.name ?? listTexts.looking)}</strong>
                    <code>{visibleText(row.barcode)}</code>
                    {row.batch || row.expiry ? <small>{[row.batch, row.expiry].filter(Boolean).join(' · ')}</small> : null}
                  </td>
                  <td className="row-count">
                    <input
                      type="text"
                      inputMode="numeric"
                      aria-label={listTexts.quantityOf(row.barcode)}
                      value={row.quantity}
                      readOnly={row.state === 'saved'}
                      onChange={(e) =>
                        editRow(row.id, {
                          quantity: e.target.value,
                          ...(row.state === 'rejected' ? { state: 'pending', result: undefined } : {}),
                        })
                      }
                    />
                  </td>
                  <td className="row-stock">
                    {stockText ? <span className="cell-label">{listTexts.columns.stock} </span> : null}
                    <span data-testid="row-stock">{stockText}</span>
                  </td>
                  <td className="row-result">{resultText(row.result)}</td>
                  <td className="row-remove">
                    <button
                      type="button"
                      onClick={() => clearRows((list) => list.filter((r) => r.id !== row.id))}
                      aria-label={listTexts.removeRow(row.barcode)}
                      disabled={sending}
                    >
                      {listTexts.columns.remove}
                    </button>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      ) : null}
      <PrintLabels
        source={listBarcodes.length > 0 ? { barcodes: listBarcodes.join(',') } : null}
        count={listBarcodes.length}
        warehouse={warehouse}
      />
    </section>
  );
}

/** A row's result in words, in the language of the moment. */
function resultText(result: RowResult | undefined): string {
  if (result === undefined) return '';
  if (result.ok) return listTexts.savedRow(result.quantity, result.before);
  return friendlyErrors(result.errors, { quantity: result.sent, delta: result.sent });
}
