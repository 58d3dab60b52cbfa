// Set stock mode: scan the item whose stock was counted, type the new quantity, Enter; each save (or
// refusal) is listed newest first.
import { type FormEvent, useCallback, useRef, useState } from 'react';
import type { RowInput } from '../api/api-client.ts';
import { useSession } from '../api/session-context.tsx';
import { type BarcodeInfo, describe, lookUpBarcodes, quantityIn } from '../scan/barcode-lookup.ts';
import { useScans } from '../scan/scan-router.ts';
import { MAX_KEPT, type ModeProps, type SendingProps } from '../scan/scanner-mode.ts';
import { type CardEntry, StockCard, cardStateOf } from '../scan/StockCard.tsx';

interface SetOutcome {
  id: number;
  barcode: string;
  name: string;
  quantity: string;
  warehouse: string | null;
  ok: boolean;
  text: string;
}

function errorText(errors: Record<string, string>): string {
  return Object.values(errors).join(' ');
}

export function SetStockMode({ warehouse, status, scans, sending, setSending }: ModeProps & SendingProps) {
  const { client, account } = useSession();
  const withWarehouses = account.warehouses_enabled;
  const { show, feedback, failed } = status;
  const [target, setTarget] = useState<CardEntry | null>(null);
  const [quantity, setQuantity] = useState('');
  const [outcomes, setOutcomes] = useState<SetOutcome[]>([]);
  const nextId = useRef(1);
  const quantityField = useRef<HTMLInputElement>(null);

  const pick = useCallback(
    (barcode: string) => {
      const id = nextId.current++;
      setTarget({ id, barcode, state: 'loading' });
      setQuantity('');
      show({ tone: 'busy', text: `Looking up ${barcode}…` });
      lookUpBarcodes(client, [barcode]).then(
        ([info]) => {
          const state = cardStateOf(info!);
          setTarget((t) => (t?.id === id ? { ...t, state, info: info! } : t));
          if (state === 'unknown') feedback('error', `Unknown barcode: ${barcode}`);
          else {
            show({ tone: 'idle', text: `${describe(info!)}: type the new quantity, then Enter` });
            quantityField.current?.focus();
          }
        },
        (error: unknown) => {
          setTarget((t) => (t?.id === id ? { ...t, state: 'error', message: (error as Error).message } : t));
          failed(error);
        },
      );
    },
    [client, show, feedback, failed],
  );

  useScans(scans, pick);

  const submitQuantity = (event: FormEvent) => {
    event.preventDefault();
    if (!target || sending) return;
    if (withWarehouses && warehouse === null) return feedback('error', 'Choose a warehouse first (top bar)');
    const row: RowInput = { barcode: target.barcode, quantity: quantity.trim(), ...(warehouse !== null ? { warehouse_name: warehouse } : {}) };
    const name = target.info ? describe(target.info) : target.barcode;
    const before = target.info ? quantityIn(target.info.records, warehouse) : undefined;
    setSending(true);
    client
      .updateStock([row], withWarehouses)
      .then(([outcome]) => {
        const id = nextId.current++;
        if (outcome!.ok) {
          const text = `Saved: ${outcome!.quantity}${before !== undefined ? ` (was ${before})` : ''}`;
          setOutcomes((prev) => [{ id, barcode: row.barcode, name, quantity: row.quantity, warehouse, ok: true, text }, ...prev].slice(0, MAX_KEPT));
          setTarget((t) => (t && t.info ? { ...t, info: withQuantity(t.info, warehouse, outcome!.quantity) } : t));
          setQuantity('');
          quantityField.current?.blur();
          feedback('ok', `${name}: ${outcome!.quantity}${warehouse ? ` in ${warehouse}` : ''} saved`);
        } else {
          const text = errorText(outcome!.errors);
          setOutcomes((prev) => [{ id, barcode: row.barcode, name, quantity: row.quantity, warehouse, ok: false, text }, ...prev].slice(0, MAX_KEPT));
          feedback('error', text);
        }
      }, failed)
      .finally(() => setSending(false));
  };

  return (
    <section className="panel" aria-label="Set stock">
      <div className="set-row">
        <div className="set-target">
          {target ? (
            <StockCard barcode={target.barcode} state={target.state} info={target.info} message={target.message} currentWarehouse={warehouse} />
          ) : (
            <p className="placeholder">Scan the item whose stock you counted.</p>
          )}
        </div>
        <form onSubmit={submitQuantity} className="quantity-form">
          <label htmlFor="quantity">
            New quantity{warehouse ? ` in ${warehouse}` : ''}
          </label>
          <input
            id="quantity"
            ref={quantityField}
            type="text"
            inputMode="numeric"
            autoComplete="off"
            disabled={!target}
            value={quantity}
            onChange={(e) => setQuantity(e.target.value)}
          />
          <button type="submit" disabled={!target || sending}>
            Save
          </button>
        </form>
      </div>
      <ul className="outcomes" data-testid="outcomes">
        {outcomes.map((o) => (
          <li key={o.id} className={o.ok ? 'ok' : 'error'} data-barcode={o.barcode} data-state={o.ok ? 'saved' : 'rejected'}>
            <span className="o-name">{o.name}</span>
            <code>{o.barcode}</code>
            {o.warehouse ? <span className="o-wh">{o.warehouse}</span> : null}
            <span className="o-text">{o.text}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The info of a barcode after its quantity in one warehouse was set. */
function withQuantity(info: BarcodeInfo, warehouse: string | null, quantity: number): BarcodeInfo {
  if (warehouse === null) return { ...info, records: info.records.map((r) => ({ ...r, quantity })) };
  const has = info.records.some((r) => 'warehouse_name' in r && r.warehouse_name === warehouse);
  if (!has) return info;
  return { ...info, records: info.records.map((r) => ('warehouse_name' in r && r.warehouse_name === warehouse ? { ...r, quantity } : r)) };
}
