// "Print labels" where barcodes are shown (Look up, List, a stocktake's unknown barcodes): a layout,
// how many of each, optionally the warehouse on the label, and labels.pdf from the server (docs/LABELS.md),
// which the browser opens or saves for printing. In Look up it can also add an item for goods without a
// barcode (loose goods, own products) with a code of the shop's own, and print its label.
import { useState } from 'react';
import { DEFAULT_SHEET_LAYOUT, LABEL_LAYOUTS, MAX_LABEL_COPIES, MAY } from '../../../shared/index.ts';
import { useMay, useSession } from '../api/session-context.tsx';
import { labelTexts } from '../common/texts.ts';

export interface PrintLabelsProps {
  /** The labels' source as labels.pdf takes it: `{ barcodes: 'a,b' }` or `{ stocktake: '12' }`; null when there is nothing yet. */
  source: Record<string, string> | null;
  /** How many barcodes that is, for the message. */
  count: number;
  /** The warehouse shown, offered to be printed on the labels. */
  warehouse?: string | null;
  /** Offer to add an item with a code of the shop's own (Look up). */
  makeCodes?: boolean;
  title?: string;
  testId?: string;
}

function download(pdf: Blob): void {
  const link = document.createElement('a');
  link.href = URL.createObjectURL(pdf);
  link.download = 'labels.pdf';
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
}

export function PrintLabels({
  source,
  count,
  warehouse = null,
  makeCodes = false,
  title = labelTexts.print,
  testId = 'print-labels',
}: PrintLabelsProps) {
  const { client } = useSession();
  const may = useMay();
  const [layout, setLayout] = useState(DEFAULT_SHEET_LAYOUT);
  const [copies, setCopies] = useState('1');
  const [withWarehouse, setWithWarehouse] = useState(false);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ error: boolean; text: string } | null>(null);

  const print = (from: Record<string, string>, done: string) => {
    setBusy(true);
    setMessage({ error: false, text: labelTexts.printing });
    const query: Record<string, string> = { ...from, layout, copies: String(Math.max(1, Number(copies) || 1)) };
    if (withWarehouse && warehouse) query.warehouse = warehouse;
    return client
      .labelsPdf(query)
      .then(
        (pdf) => {
          download(pdf);
          setMessage({ error: false, text: done });
        },
        (error: unknown) => setMessage({ error: true, text: (error as Error).message }),
      )
      .finally(() => setBusy(false));
  };

  const printShown = () => {
    if (source === null) return setMessage({ error: true, text: labelTexts.none });
    void print(source, labelTexts.ready(count));
  };

  const [newItem, setNewItem] = useState('');
  const makeAndPrint = () => {
    if (newItem.trim() === '') return setMessage({ error: true, text: labelTexts.nameFirst });
    setBusy(true);
    client.makeCodes([newItem.trim()]).then(
      (codes) => {
        setNewItem('');
        void print({ items: codes.map((code) => code.item).join(',') }, labelTexts.madeCodes(codes[0]!.name, codes[0]!.barcode));
      },
      (error: unknown) => {
        setBusy(false);
        setMessage({ error: true, text: (error as Error).message });
      },
    );
  };

  // Folded until asked for: on a phone the cards of the scans come first.
  return (
    <details className="label-print-box" data-testid={testId}>
      <summary>{title}</summary>
      <div className="label-print">
        <label>
          {labelTexts.layout}
          <select value={layout} onChange={(e) => setLayout(e.target.value)} data-testid="label-layout">
            {LABEL_LAYOUTS.map((l) => (
              <option key={l.id} value={l.id}>
                {labelTexts.layoutTitle(l.id, l.title)}
              </option>
            ))}
          </select>
        </label>
        <label>
          {labelTexts.copies}
          <input
            type="number"
            min={1}
            max={MAX_LABEL_COPIES}
            value={copies}
            onChange={(e) => setCopies(e.target.value)}
            inputMode="numeric"
          />
        </label>
        {warehouse ? (
          <label className="check">
            <input type="checkbox" checked={withWarehouse} onChange={(e) => setWithWarehouse(e.target.checked)} />
            {labelTexts.withWarehouse(warehouse)}
          </label>
        ) : null}
        <button type="button" onClick={printShown} disabled={busy} data-testid="print-labels-button">
          {title}
        </button>
        {makeCodes && may(MAY.makeCodes) ? (
          <>
            <label>
              {labelTexts.newItem}
              <input value={newItem} onChange={(e) => setNewItem(e.target.value)} autoComplete="off" data-testid="new-item-name" />
            </label>
            <button type="button" onClick={makeAndPrint} disabled={busy} data-testid="make-code-button">
              {labelTexts.makeCode}
            </button>
          </>
        ) : null}
        {message ? (
          <p className={message.error ? 'notice notice-error' : 'muted'} role="status" data-testid="label-message">
            {message.text}
          </p>
        ) : null}
      </div>
    </details>
  );
}
