// Look up mode: a scan, a typed barcode or a pasted list of up to 50 shows each barcode's stock on a
// card, newest first. A GS1 scan shows its batch, expiry, serial and count on the card too.
import { type FormEvent, useCallback, useRef, useState } from 'react';
import { MAX_BARCODES_PER_READ } from '../../../shared/index.ts';
import { useSession } from '../api/session-context.tsx';
import { lookupTexts, scanTexts } from '../common/texts.ts';
import { describe, lookUpScans, splitBarcodeList } from './barcode-lookup.ts';
import { type Scan, hasControlCharacter, plainScan } from './scanned-code.ts';
import { useScans } from './scan-router.ts';
import { MAX_KEPT, type ModeProps } from './scanner-mode.ts';
import { PrintLabels } from '../labels/PrintLabels.tsx';
import { LOW_STOCK_HREF } from '../low-stock/low-stock-route.ts';
import { type CardEntry, type CardState, StockCard, cardStateOf } from './StockCard.tsx';

export function LookupMode({ warehouse, status, scans }: ModeProps) {
  const { client } = useSession();
  const { show, feedback, failed } = status;
  const [lookups, setLookups] = useState<CardEntry[]>([]);
  const [manual, setManual] = useState('');
  const [pasted, setPasted] = useState('');
  const nextId = useRef(1);

  const lookUp = useCallback(
    (wanted: Scan[]) => {
      const entries = wanted.map((scan) => ({ id: nextId.current++, barcode: scan.text, state: 'loading' as CardState }));
      setLookups((prev) => [...entries.slice().reverse(), ...prev].slice(0, MAX_KEPT));
      show({ tone: 'busy', text: wanted.length === 1 ? scanTexts.lookingUp(wanted[0]!.text) : scanTexts.lookingUpMany(wanted.length) });
      lookUpScans(client, wanted).then(
        (infos) => {
          const byId = new Map(entries.map((e, i) => [e.id, infos[i]!]));
          setLookups((prev) =>
            prev.map((e) => (byId.has(e.id) ? { ...e, state: cardStateOf(byId.get(e.id)!), info: byId.get(e.id)! } : e)),
          );
          const unknown = infos.filter((i) => i.records.length === 0);
          if (infos.length === 1) {
            const info = infos[0]!;
            if (unknown.length === 1) feedback('error', scanTexts.unknown(info.scanned ?? info.barcode));
            else {
              // Before the warehouse list has arrived, name the warehouse of the figure shown.
              const record =
                warehouse === null ? info.records[0] : info.records.find((r) => 'warehouse_name' in r && r.warehouse_name === warehouse);
              const where = record && 'warehouse_name' in record ? (record.warehouse_name as string) : null;
              feedback('ok', scanTexts.stockIn(describe(info), record?.quantity, where));
            }
          } else if (unknown.length > 0) feedback('error', scanTexts.unknownOfMany(unknown.length, infos.length));
          else feedback('ok', scanTexts.foundAll(infos.length));
        },
        (error: unknown) => {
          const ids = new Set(entries.map((e) => e.id));
          setLookups((prev) => prev.map((e) => (ids.has(e.id) ? { ...e, state: 'error', message: (error as Error).message } : e)));
          failed(error);
        },
      );
    },
    [client, warehouse, show, feedback, failed],
  );

  useScans(scans, (scan) => lookUp([scan]));

  const submitManual = (event: FormEvent) => {
    event.preventDefault();
    // A typed barcode is the barcode without the spaces around it: the server reads a lookup so, and
    // the card must match what it answers.
    const code = manual.trim();
    if (code === '') return;
    if (hasControlCharacter(code)) return feedback('error', scanTexts.badTypedBarcode);
    setManual('');
    lookUp([plainScan(code)]);
  };

  const submitPasted = (event: FormEvent) => {
    event.preventDefault();
    const list = splitBarcodeList(pasted);
    if (list.length === 0) return;
    if (list.length > MAX_BARCODES_PER_READ) return feedback('error', scanTexts.tooManyPasted(list.length));
    if (list.some(hasControlCharacter)) return feedback('error', scanTexts.badTypedBarcode);
    setPasted('');
    lookUp(list.map(plainScan));
  };

  // The barcodes of the cards shown, once each: what "Print labels" prints (at most a read's worth).
  const shownBarcodes = [...new Set(lookups.map((e) => e.barcode))].slice(0, MAX_BARCODES_PER_READ);

  return (
    <section className="panel" aria-label={lookupTexts.panel}>
      <div className="entry-row">
        <form onSubmit={submitManual} className="manual">
          <label htmlFor="manual-barcode">{lookupTexts.typeLabel}</label>
          <input
            id="manual-barcode"
            type="text"
            autoComplete="off"
            spellCheck={false}
            value={manual}
            onChange={(e) => setManual(e.target.value)}
          />
          <button type="submit">{lookupTexts.typeButton}</button>
        </form>
        <form onSubmit={submitPasted} className="paste">
          <label htmlFor="pasted-barcodes">{lookupTexts.pasteLabel}</label>
          <textarea id="pasted-barcodes" rows={2} spellCheck={false} value={pasted} onChange={(e) => setPasted(e.target.value)} />
          <button type="submit">{lookupTexts.pasteButton}</button>
        </form>
      </div>
      <p className="low-stock-link">
        <a href={LOW_STOCK_HREF} data-testid="low-stock-link">
          {lookupTexts.lowStockLink}
        </a>
      </p>
      <div className="cards" role="region" data-testid="lookups" aria-label={lookupTexts.cards}>
        {lookups.map((e) => (
          <StockCard key={e.id} entry={e} currentWarehouse={warehouse} />
        ))}
      </div>
      <PrintLabels
        source={shownBarcodes.length > 0 ? { barcodes: shownBarcodes.join(',') } : null}
        count={shownBarcodes.length}
        warehouse={warehouse}
        makeCodes
      />
    </section>
  );
}
