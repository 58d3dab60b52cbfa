// Look up mode: a scan, a typed barcode or a pasted list of up to 50 shows each barcode's stock on a
// card, newest first.
import { type FormEvent, useCallback, useRef, useState } from 'react';
import { MAX_BARCODES_PER_READ } from '../../../shared/index.ts';
import { useSession } from '../api/session-context.tsx';
import { describe, lookUpBarcodes, quantityIn, splitBarcodeList } from './barcode-lookup.ts';
import { useScans } from './scan-router.ts';
import { MAX_KEPT, type ModeProps } from './scanner-mode.ts';
import { type CardEntry, type CardState, StockCard, cardStateOf } from './StockCard.tsx';

export function LookupMode({ warehouse, status, scans }: ModeProps) {
  const { client } = useSession();
  const { show, feedback, failed } = status;
  const [lookups, setLookups] = useState<CardEntry[]>([]);
  const [manual, setManual] = useState('');
  const [pasted, setPasted] = useState('');
  const nextId = useRef(1);

  const lookUp = useCallback(
    (barcodes: string[]) => {
      const entries = barcodes.map((barcode) => ({ id: nextId.current++, barcode, state: 'loading' as CardState }));
      setLookups((prev) => [...entries.slice().reverse(), ...prev].slice(0, MAX_KEPT));
      show({ tone: 'busy', text: barcodes.length === 1 ? `Looking up ${barcodes[0]}…` : `Looking up ${barcodes.length} barcodes…` });
      lookUpBarcodes(client, barcodes).then(
        (infos) => {
          const byId = new Map(entries.map((e, i) => [e.id, infos[i]!]));
          setLookups((prev) => prev.map((e) => (byId.has(e.id) ? { ...e, state: cardStateOf(byId.get(e.id)!), info: byId.get(e.id)! } : e)));
          const unknown = infos.filter((i) => i.records.length === 0);
          if (infos.length === 1) {
            const info = infos[0]!;
            if (unknown.length === 1) feedback('error', `Unknown barcode: ${info.barcode}`);
            else {
              const q = quantityIn(info.records, warehouse);
              feedback('ok', `${describe(info)}: ${q ?? '–'}${warehouse ? ` in ${warehouse}` : ' in stock'}`);
            }
          } else if (unknown.length > 0) feedback('error', `${unknown.length} of ${infos.length} barcodes are unknown`);
          else feedback('ok', `Found all ${infos.length} barcodes`);
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

  useScans(scans, (code) => lookUp([code]));

  const submitManual = (event: FormEvent) => {
    event.preventDefault();
    const code = manual;
    if (code.trim() === '') return;
    setManual('');
    lookUp([code]);
  };

  const submitPasted = (event: FormEvent) => {
    event.preventDefault();
    const list = splitBarcodeList(pasted);
    if (list.length === 0) return;
    if (list.length > MAX_BARCODES_PER_READ) return feedback('error', `At most ${MAX_BARCODES_PER_READ} barcodes at a time (got ${list.length})`);
    setPasted('');
    lookUp(list);
  };

  return (
    <section className="panel" aria-label="Look up">
      <div className="entry-row">
        <form onSubmit={submitManual} className="manual">
          <label htmlFor="manual-barcode">Type a barcode</label>
          <input id="manual-barcode" type="text" autoComplete="off" spellCheck={false} value={manual} onChange={(e) => setManual(e.target.value)} />
          <button type="submit">Look up</button>
        </form>
        <form onSubmit={submitPasted} className="paste">
          <label htmlFor="pasted-barcodes">Paste a list (one per line)</label>
          <textarea id="pasted-barcodes" rows={2} spellCheck={false} value={pasted} onChange={(e) => setPasted(e.target.value)} />
          <button type="submit">Look up all</button>
        </form>
      </div>
      <div className="cards" data-testid="lookups">
        {lookups.map((e) => (
          <StockCard key={e.id} barcode={e.barcode} state={e.state} info={e.info} message={e.message} currentWarehouse={warehouse} />
        ))}
      </div>
    </section>
  );
}
