// One barcode as a person at the shelf sees it: big name, barcode, and quantity per warehouse.
import type { StockRecord } from '../../../shared/index.ts';
import { type BarcodeInfo, describe } from './barcode-lookup.ts';
import { StockHistory } from './StockHistory.tsx';

export type CardState = 'loading' | 'found' | 'unknown' | 'error';

/** A barcode shown on a StockCard: a looked-up one, or the target of Set stock. */
export interface CardEntry {
  id: number;
  barcode: string;
  state: CardState;
  info?: BarcodeInfo;
  message?: string;
}

export function cardStateOf(info: BarcodeInfo): CardState {
  return info.records.length > 0 ? 'found' : 'unknown';
}

export function StockCard(props: {
  barcode: string;
  state: CardState;
  info?: BarcodeInfo | undefined;
  message?: string | undefined;
  currentWarehouse: string | null;
}) {
  const { barcode, state, info, message, currentWarehouse } = props;
  return (
    <article className={`card card-${state}`} data-barcode={barcode} data-state={state}>
      <header className="card-head">
        <span className="card-name">
          {state === 'found' && info ? describe(info) : state === 'unknown' ? 'Unknown barcode' : state === 'loading' ? 'Looking up…' : 'Could not look up'}
        </span>
        <code className="card-barcode">{barcode}</code>
      </header>
      {state === 'found' && info ? <Quantities records={info.records} currentWarehouse={currentWarehouse} /> : null}
      {message ? <p className="card-message">{message}</p> : null}
      {state === 'found' ? <StockHistory barcode={barcode} /> : null}
    </article>
  );
}

function Quantities({ records, currentWarehouse }: { records: StockRecord[]; currentWarehouse: string | null }) {
  const perWarehouse = records.filter((r): r is StockRecord & { warehouse_name: string } => 'warehouse_name' in r);
  if (perWarehouse.length === 0) {
    return (
      <p className="qty-single">
        <span className="qty" data-quantity={records[0]?.quantity}>{records[0]?.quantity}</span> in stock
      </p>
    );
  }
  return (
    <ul className="qty-list">
      {perWarehouse.map((r) => (
        <li key={r.warehouse_name} data-warehouse={r.warehouse_name} className={r.warehouse_name === currentWarehouse ? 'current' : undefined}>
          <span className="qty">{r.quantity}</span>
          <span className="wh">{r.warehouse_name}</span>
        </li>
      ))}
    </ul>
  );
}
