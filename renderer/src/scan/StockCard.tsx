// One barcode as a person at the shelf sees it: big name, barcode, quantity per warehouse, and what a
// GS1 scan said about this very pack (batch, expiry, serial, count).
import { type Gs1Data, MAY, type ReorderPoint, type StockRecord } from '../../../shared/index.ts';
import { useMay } from '../api/session-context.tsx';
import { cardTexts } from '../common/texts.ts';
import { type BarcodeInfo, describe } from './barcode-lookup.ts';
import { visibleText } from './scanned-code.ts';
import { ReorderForm, ReorderMark, useReorderPoints } from './ReorderPoints.tsx';
import { StockHistory } from './StockHistory.tsx';

export type CardState = 'loading' | 'found' | 'unknown' | 'error';

/** A barcode shown on a StockCard: a looked-up one, or the target of Set stock. */
export interface CardEntry {
  id: number;
  /** As scanned or typed. */
  barcode: string;
  state: CardState;
  info?: BarcodeInfo;
  message?: string;
}

export function cardStateOf(info: BarcodeInfo): CardState {
  return info.records.length > 0 ? 'found' : 'unknown';
}

export function StockCard({ entry, currentWarehouse }: { entry: CardEntry; currentWarehouse: string | null }) {
  const { state, info, message } = entry;
  const may = useMay();
  const shownBarcode = state === 'found' && info ? info.barcode : entry.barcode;
  const [points, setPoints] = useReorderPoints(state === 'found' && info ? info.barcode : null);
  const perWarehouse = info?.records.some((r) => 'warehouse_name' in r) ?? false;
  // The minimum is set for the warehouse being worked in (the first one shown before one is chosen).
  const formWarehouse = perWarehouse
    ? (currentWarehouse ?? (info?.records.find((r) => 'warehouse_name' in r) as { warehouse_name?: string } | undefined)?.warehouse_name)
    : undefined;
  const anyLow = points.some((p) => p.low);
  return (
    <article
      className={`card card-${state}${anyLow ? ' card-low' : ''}`}
      data-barcode={entry.barcode}
      data-catalogue-barcode={info?.barcode}
      data-state={state}
      data-low={anyLow}
    >
      <header className="card-head">
        <h3 className="card-name">
          {state === 'found' && info
            ? describe(info)
            : state === 'unknown'
              ? cardTexts.unknown
              : state === 'loading'
                ? cardTexts.loading
                : cardTexts.failed}
        </h3>
        <code className="card-barcode">{visibleText(shownBarcode)}</code>
        {state === 'found' && info?.scanned && info.scanned !== info.barcode ? (
          <span className="card-scanned">{cardTexts.scannedAs(visibleText(info.scanned))}</span>
        ) : null}
      </header>
      {state === 'found' && info ? <Quantities records={info.records} currentWarehouse={currentWarehouse} points={points} /> : null}
      {state === 'found' && info ? (
        <ReorderForm
          barcode={info.barcode}
          warehouse={formWarehouse}
          point={points.find((p) => (p.warehouse_name ?? undefined) === formWarehouse)}
          onSaved={setPoints}
        />
      ) : null}
      {info?.gs1 ? <Gs1Details data={info.gs1} /> : null}
      {message ? <p className="card-message">{message}</p> : null}
      {/* The stock history is everyone's changes: a manager's to read. */}
      {state === 'found' && info && may(MAY.history) ? <StockHistory barcode={info.barcode} /> : null}
    </article>
  );
}

function Quantities({
  records,
  currentWarehouse,
  points,
}: {
  records: StockRecord[];
  currentWarehouse: string | null;
  points: readonly ReorderPoint[];
}) {
  const perWarehouse = records.filter((r): r is StockRecord & { warehouse_name: string } => 'warehouse_name' in r);
  if (perWarehouse.length === 0) {
    const quantity = records[0]?.quantity;
    return (
      <p className="qty-single">
        <span className="qty" data-quantity={quantity}>
          {quantity === undefined ? '' : cardTexts.quantity(quantity)}
        </span>{' '}
        {cardTexts.inStock} <ReorderMark point={points[0]} />
      </p>
    );
  }
  return (
    <ul className="qty-list">
      {perWarehouse.map((r) => (
        <li
          key={r.warehouse_name}
          data-warehouse={r.warehouse_name}
          className={r.warehouse_name === currentWarehouse ? 'current' : undefined}
        >
          <span className="qty" data-quantity={r.quantity}>
            {cardTexts.quantity(r.quantity)}
          </span>
          <span className="wh">{r.warehouse_name}</span>
          <ReorderMark point={points.find((p) => p.warehouse_name === r.warehouse_name)} />
        </li>
      ))}
    </ul>
  );
}

/** The pack-level data of a GS1 scan; nothing for what the scan did not carry. */
export function Gs1Details({ data }: { data: Gs1Data }) {
  const rows: [string, string, string][] = [];
  if (data.batch !== undefined) rows.push(['batch', cardTexts.batch, data.batch]);
  if (data.expiry !== undefined) rows.push(['expiry', cardTexts.expiry, cardTexts.expiryDate(data.expiry)]);
  if (data.serial !== undefined) rows.push(['serial', cardTexts.serial, data.serial]);
  if (data.count !== undefined) rows.push(['count', cardTexts.countInScan, cardTexts.quantity(data.count)]);
  if (rows.length === 0) return null;
  return (
    <dl className="gs1" data-testid="gs1-details">
      {rows.map(([key, label, value]) => (
        <div key={key} data-gs1={key}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
