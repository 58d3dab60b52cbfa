// Set stock mode: scan the item whose stock was counted, type the new quantity, Enter; each save (or
// refusal) is listed newest first. A quantity typed but not confirmed is never dropped: the next scan
// saves it first (or, if it is not a number, keeps it and says so), and it survives a reload. The
// field takes typing from the moment of the scan, while the item is still being looked up: what is
// typed then is kept, and an Enter pressed then saves once the item is found (a slow network must
// not eat the first digits).
import { type FormEvent, useCallback, useEffect, useRef, useState } from 'react';
import { checkUpdateRow, parseQuantity } from '../../../shared/index.ts';
import type { RowInput } from '../api/api-client.ts';
import { useSession } from '../api/session-context.tsx';
import { friendlyErrors, scanTexts, setTexts } from '../common/texts.ts';
import { type BarcodeInfo, describe, lookUpScans, quantityIn } from '../scan/barcode-lookup.ts';
import { type Scan, plainScan } from '../scan/scanned-code.ts';
import { useScans } from '../scan/scan-router.ts';
import { MAX_KEPT, type ModeProps } from '../scan/scanner-mode.ts';
import { type CardEntry, StockCard, cardStateOf } from '../scan/StockCard.tsx';
import { loadSetDraft, saveSetDraft } from './set-draft.ts';

interface SetOutcome {
  id: number;
  barcode: string;
  name: string;
  warehouse: string | null;
  ok: boolean;
  /** Written when shown, in the language of the moment. */
  text: () => string;
}

export function SetStockMode({ warehouse, status, scans }: ModeProps) {
  const { client, account } = useSession();
  const withWarehouses = account.warehouses_enabled;
  const { show, feedback, failed } = status;
  const [target, setTarget] = useState<CardEntry | null>(null);
  const [quantity, setQuantityState] = useState('');
  const [outcomes, setOutcomes] = useState<SetOutcome[]>([]);
  const [sending, setSending] = useState(false);
  const nextId = useRef(1);
  const quantityField = useRef<HTMLInputElement>(null);
  // Scans can come faster than React renders: the latest target and typed text are kept in refs too.
  const targetRef = useRef<CardEntry | null>(null);
  const quantityRef = useRef('');
  /** The target whose quantity was confirmed with Enter while it was still being looked up. */
  const saveWhenFound = useRef<number | null>(null);
  /** Quantities typed for an item still being looked up when the next scan came: saved once it is found. */
  const carried = useRef(new Map<number, string>());
  /** The item and negative quantity an Enter asked to confirm; the next Enter on the same saves it. */
  const confirmNegative = useRef<string | null>(null);

  const setQuantity = useCallback(
    (text: string) => {
      quantityRef.current = text;
      setQuantityState(text);
      const t = targetRef.current;
      saveSetDraft(account.account, t ? { barcode: t.info?.barcode ?? t.barcode, quantity: text } : null);
    },
    [account.account],
  );

  const changeTarget = (change: (t: CardEntry | null) => CardEntry | null) => {
    targetRef.current = change(targetRef.current);
    setTarget(targetRef.current);
  };

  /** Saves `typed` as the quantity of `entry` in the current warehouse; records the outcome. */
  const save = useCallback(
    (entry: CardEntry, typed: string, note?: () => string): Promise<boolean> => {
      if (withWarehouses && warehouse === null) {
        feedback('error', setTexts.chooseWarehouse);
        return Promise.resolve(false);
      }
      const barcode = entry.info?.barcode ?? entry.barcode;
      const row: RowInput = { barcode, quantity: typed.trim(), ...(warehouse !== null ? { warehouse_name: warehouse } : {}) };
      const name = entry.info ? describe(entry.info) : barcode;
      const before = entry.info ? quantityIn(entry.info.records, warehouse) : undefined;
      const record = (ok: boolean, text: () => string) =>
        setOutcomes((prev) =>
          [
            { id: nextId.current++, barcode, name, warehouse, ok, text: note ? () => setTexts.withNote(text(), note()) : text },
            ...prev,
          ].slice(0, MAX_KEPT),
        );
      setSending(true);
      return client
        .updateStock([row], withWarehouses)
        .then(
          ([outcome]) => {
            if (outcome!.ok) {
              record(true, () => setTexts.savedRow(outcome!.quantity, before));
              changeTarget((t) => (t?.id === entry.id && t.info ? { ...t, info: withQuantity(t.info, warehouse, outcome!.quantity) } : t));
              feedback('ok', setTexts.saved(name, outcome!.quantity, warehouse));
              return true;
            }
            const errors = outcome!.errors;
            record(false, () => friendlyErrors(errors, row as unknown as Record<string, unknown>));
            feedback('error', setTexts.refused(name, friendlyErrors(errors, row as unknown as Record<string, unknown>)));
            return false;
          },
          (error: unknown) => {
            failed(error);
            return false;
          },
        )
        .finally(() => setSending(false));
    },
    [client, warehouse, withWarehouses, feedback, failed],
  );

  /** What is wrong with `typed` as the quantity of a found item, in words; undefined if it can be sent. */
  const quantityProblem = useCallback(
    (info: NonNullable<CardEntry['info']>, typed: string): string | undefined => {
      const check = checkUpdateRow(
        { barcode: info.barcode, quantity: typed, ...(warehouse !== null ? { warehouse_name: warehouse } : {}) },
        withWarehouses,
      );
      return !check.ok && check.errors.quantity ? friendlyErrors({ quantity: check.errors.quantity }, { quantity: typed }) : undefined;
    },
    [warehouse, withWarehouses],
  );

  /** Saves the typed quantity of the item on screen; the field empties once it is saved. */
  const saveTyped = useCallback(
    (entry: CardEntry) => {
      void save(entry, quantityRef.current).then((ok) => {
        if (targetRef.current?.id !== entry.id) return;
        // Refused: the text stays to be corrected, selected, so what is typed next replaces it ("12a" then "5" is "5", not "12a5").
        if (!ok) return quantityField.current?.select();
        setQuantity('');
        quantityField.current?.blur();
      });
    },
    [save, setQuantity],
  );

  /** Enter on a found item: a count below 0 (no shelf holds less than nothing) is asked about first and saved on a second Enter. */
  const confirmThenSave = useCallback(
    (entry: CardEntry) => {
      const typed = quantityRef.current.trim();
      if (isNegative(typed) && confirmNegative.current !== `${entry.id}:${typed}`) {
        confirmNegative.current = `${entry.id}:${typed}`;
        quantityField.current?.select();
        return feedback('warn', setTexts.confirmNegative(entry.info ? describe(entry.info) : entry.barcode, Number(typed)));
      }
      confirmNegative.current = null;
      saveTyped(entry);
    },
    [feedback, saveTyped],
  );

  const pick = useCallback(
    (scan: Scan, restoredQuantity?: string) => {
      // A quantity typed for the item on screen but not confirmed with Enter: save it first, or
      // keep it (and the item) when it cannot be saved, rather than drop it.
      const current = targetRef.current;
      const typed = quantityRef.current.trim();
      if (current && current.state === 'found' && typed !== '' && restoredQuantity === undefined) {
        const problem = quantityProblem(current.info!, typed) ?? (isNegative(typed) ? setTexts.negativeProblem : undefined);
        if (problem !== undefined) {
          quantityField.current?.select();
          return feedback('error', setTexts.unconfirmedInvalid(describe(current.info!), typed, problem));
        }
        void save(current, typed, () => setTexts.savedOnScan);
      }
      // Typed for an item whose lookup has not answered yet: kept, and saved when it does.
      if (current && current.state === 'loading' && typed !== '' && restoredQuantity === undefined) carried.current.set(current.id, typed);
      const id = nextId.current++;
      saveWhenFound.current = null;
      changeTarget(() => ({ id, barcode: scan.text, state: 'loading' }));
      setQuantity(restoredQuantity ?? '');
      show({ tone: 'busy', text: scanTexts.lookingUp(scan.text) });
      lookUpScans(client, [scan]).then(
        ([info]) => {
          const state = cardStateOf(info!);
          const typedBefore = carried.current.get(id);
          if (typedBefore !== undefined) {
            // The next item was scanned before this one was found: its typed quantity is saved now.
            carried.current.delete(id);
            if (state !== 'found') return feedback('error', setTexts.carriedNotSaved(scan.text, typedBefore));
            const entry: CardEntry = { id, barcode: scan.text, state, info: info! };
            const problem = quantityProblem(info!, typedBefore);
            if (problem !== undefined) return feedback('error', setTexts.carriedNotSaved(describe(info!), typedBefore, problem));
            if (isNegative(typedBefore))
              return feedback('error', setTexts.carriedNotSaved(describe(info!), typedBefore, setTexts.negativeProblem));
            void save(entry, typedBefore, () => setTexts.savedOnScan);
            return;
          }
          changeTarget((t) => (t?.id === id ? { ...t, state, info: info! } : t));
          if (targetRef.current?.id === id) setQuantity(quantityRef.current); // remembers the catalogue's barcode
          const confirmed = saveWhenFound.current === id;
          if (confirmed) saveWhenFound.current = null;
          if (state === 'unknown') return feedback('error', setTexts.unknownTarget);
          const name = describe(info!);
          // Enter pressed while it was looked up: saved now, or asked first like any Enter (a count below 0).
          if (confirmed && targetRef.current?.id === id) return confirmThenSave(targetRef.current);
          // A GS1 count (30)/(37) is what was counted: it fills the field, the person confirms it
          // (unless they typed a quantity while it was being looked up).
          if (info!.gs1?.count !== undefined && restoredQuantity === undefined && quantityRef.current.trim() === '') {
            setQuantity(String(info!.gs1.count));
            show({ tone: 'idle', text: setTexts.countFromScan(name, info!.gs1.count) });
          } else show({ tone: 'idle', text: setTexts.typeNow(name) });
        },
        (error: unknown) => {
          changeTarget((t) => (t?.id === id ? { ...t, state: 'error', message: (error as Error).message } : t));
          failed(error);
        },
      );
    },
    [client, show, feedback, failed, save, saveTyped, confirmThenSave, setQuantity, quantityProblem],
  );

  useScans(scans, pick);

  // The item and the typed quantity of before a reload come back.
  const restored = useRef(false);
  useEffect(() => {
    if (restored.current) return;
    restored.current = true;
    const draft = loadSetDraft(account.account);
    if (draft) pick(plainScan(draft.barcode), draft.quantity);
  }, [account.account, pick]);

  // A scanned item (being looked up or found), or coming back to Set stock with one on screen: the
  // quantity field is ready for typing (it is enabled by the render that shows the item, so this
  // runs after it).
  const targetId = target?.id;
  const targetState = target?.state;
  const typable = targetState === 'loading' || targetState === 'found';
  useEffect(() => {
    if (typable) quantityField.current?.focus();
  }, [targetId, typable]);

  const submitQuantity = (event: FormEvent) => {
    event.preventDefault();
    const entry = targetRef.current;
    if (!entry || sending) return;
    if (entry.state === 'loading' && quantityRef.current.trim() !== '') {
      saveWhenFound.current = entry.id;
      show({ tone: 'busy', text: setTexts.savingWhenFound(entry.barcode, quantityRef.current.trim()) });
      return;
    }
    if (entry.state !== 'found') return;
    confirmThenSave(entry);
  };

  return (
    <section className="panel" aria-label={setTexts.panel}>
      <div className="set-row">
        <form onSubmit={submitQuantity} className="quantity-form">
          <label htmlFor="quantity">{setTexts.quantityLabel(warehouse)}</label>
          <input
            id="quantity"
            ref={quantityField}
            type="text"
            inputMode="numeric"
            autoComplete="off"
            disabled={!typable}
            value={quantity}
            onChange={(e) => setQuantity(e.target.value)}
          />
          <button type="submit" className="primary" disabled={!typable || sending}>
            {setTexts.save}
          </button>
        </form>
        <div className="set-target">
          {target ? <StockCard entry={target} currentWarehouse={warehouse} /> : <p className="placeholder">{setTexts.placeholder}</p>}
        </div>
      </div>
      <ul className="outcomes" data-testid="outcomes" aria-label={setTexts.results}>
        {outcomes.map((o) => (
          <li key={o.id} className={o.ok ? 'ok' : 'error'} data-barcode={o.barcode} data-state={o.ok ? 'saved' : 'rejected'}>
            <span className="o-name">{o.name}</span>
            <code>{o.barcode}</code>
            {o.warehouse ? <span className="o-wh">{o.warehouse}</span> : null}
            <span className="o-text">{o.text()}</span>
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

/** Whether a typed quantity is a whole number below 0 (a count no shelf can hold: asked first). */
function isNegative(typed: string): boolean {
  const parsed = parseQuantity(typed);
  return typeof parsed === 'number' && parsed < 0;
}
