// The scanner: scans arrive from anywhere on the page (scan-capture.ts) and go to the current mode.
// Look up shows stock; Set stock posts one quantity per scan; List collects up to 50 counted rows and
// posts them in one request. Everything works from the keyboard: F2/F3/F4 switch modes, Esc lets go
// of a field.
import { type FormEvent, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { MAX_BARCODES_PER_READ, MAX_ROWS_PER_UPDATE, type Warehouse } from '../../../shared/index.ts';
import type { RowInput } from '../api/api-client.ts';
import { ApiError } from '../api/request-json.ts';
import { useSession } from '../api/session-context.tsx';
import { playError, playSuccess, warmUpAudio } from '../scan/feedback-sounds.ts';
import { ListPanel, type ListRow } from '../list/ListPanel.tsx';
import { type BarcodeInfo, describe, lookUpBarcodes, quantityIn, splitBarcodeList } from '../scan/barcode-lookup.ts';
import { useScanCapture } from '../scan/scan-capture.ts';
import { SettingsPanel } from '../settings/SettingsPanel.tsx';
import { type CardState, StockCard } from '../scan/StockCard.tsx';
import { type UiSettings, loadSettings, saveSettings } from '../settings/ui-settings.ts';
import { loadWarehouse, saveWarehouse } from './account-storage.ts';
import { WarehouseSelect } from '../common/WarehouseSelect.tsx';

type Mode = 'lookup' | 'set' | 'list';
const MODES: { mode: Mode; label: string; key: string }[] = [
  { mode: 'lookup', label: 'Look up', key: 'F2' },
  { mode: 'set', label: 'Set stock', key: 'F3' },
  { mode: 'list', label: 'List', key: 'F4' },
];

type Tone = 'idle' | 'busy' | 'ok' | 'error';
interface Banner {
  tone: Tone;
  text: string;
}

/** A barcode shown on a StockCard: a looked-up one, or the target of Set stock. */
interface CardEntry {
  id: number;
  barcode: string;
  state: CardState;
  info?: BarcodeInfo;
  message?: string;
}

interface SetOutcome {
  id: number;
  barcode: string;
  name: string;
  quantity: string;
  warehouse: string | null;
  ok: boolean;
  text: string;
}

const MAX_KEPT = 50;

function errorText(errors: Record<string, string>): string {
  return Object.values(errors).join(' ');
}

function cardStateOf(info: BarcodeInfo): CardState {
  return info.records.length > 0 ? 'found' : 'unknown';
}

export function ScannerScreen({ onSignOut }: { onSignOut: (message?: string) => void }) {
  const { client, account } = useSession();
  const withWarehouses = account.warehouses_enabled;
  const [mode, setMode] = useState<Mode>('lookup');
  const [settings, setSettings] = useState<UiSettings>(loadSettings);
  const [showSettings, setShowSettings] = useState(false);
  const [warehouses, setWarehouses] = useState<Warehouse[]>([]);
  const [warehouse, setWarehouse] = useState<string | null>(null);
  const [banner, setBanner] = useState<Banner>({ tone: 'idle', text: 'Ready: scan a barcode' });
  const [lookups, setLookups] = useState<CardEntry[]>([]);
  const [target, setTarget] = useState<CardEntry | null>(null);
  const [quantity, setQuantity] = useState('');
  const [outcomes, setOutcomes] = useState<SetOutcome[]>([]);
  const [rows, setRows] = useState<ListRow[]>([]);
  const [manual, setManual] = useState('');
  const [pasted, setPasted] = useState('');
  const [sending, setSending] = useState(false);
  const nextId = useRef(1);
  const quantityField = useRef<HTMLInputElement>(null);
  const soundOn = settings.sound;

  const feedback = useCallback(
    (tone: Tone, text: string) => {
      setBanner({ tone, text });
      if (!soundOn) return;
      if (tone === 'ok') playSuccess();
      if (tone === 'error') playError();
    },
    [soundOn],
  );

  /** A request failed as a whole: a revoked token signs out, anything else is shown. */
  const failed = useCallback(
    (error: unknown) => {
      if (error instanceof ApiError && error.unauthorized) return onSignOut(`Signed out: ${error.message}`);
      feedback('error', (error as Error).message);
    },
    [feedback, onSignOut],
  );

  useEffect(() => {
    if (!withWarehouses) return;
    client.warehouses().then((list) => {
      setWarehouses(list);
      const remembered = loadWarehouse(account.account);
      setWarehouse(list.find((w) => w.name === remembered)?.name ?? list[0]?.name ?? null);
    }, failed);
  }, [client, account.account, withWarehouses, failed]);

  const chooseWarehouse = (name: string) => {
    setWarehouse(name);
    saveWarehouse(account.account, name);
  };

  const currentWarehouse = withWarehouses ? warehouse : null;

  // ---- Look up -------------------------------------------------------------------------------
  const lookUp = useCallback(
    (barcodes: string[]) => {
      const entries = barcodes.map((barcode) => ({ id: nextId.current++, barcode, state: 'loading' as CardState }));
      setLookups((prev) => [...entries.slice().reverse(), ...prev].slice(0, MAX_KEPT));
      setBanner({ tone: 'busy', text: barcodes.length === 1 ? `Looking up ${barcodes[0]}…` : `Looking up ${barcodes.length} barcodes…` });
      lookUpBarcodes(client, barcodes).then(
        (infos) => {
          const byId = new Map(entries.map((e, i) => [e.id, infos[i]!]));
          setLookups((prev) => prev.map((e) => (byId.has(e.id) ? { ...e, state: cardStateOf(byId.get(e.id)!), info: byId.get(e.id)! } : e)));
          const unknown = infos.filter((i) => i.records.length === 0);
          if (infos.length === 1) {
            const info = infos[0]!;
            if (unknown.length === 1) feedback('error', `Unknown barcode: ${info.barcode}`);
            else {
              const q = quantityIn(info.records, currentWarehouse);
              feedback('ok', `${describe(info)}: ${q ?? '–'}${currentWarehouse ? ` in ${currentWarehouse}` : ' in stock'}`);
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
    [client, currentWarehouse, feedback, failed],
  );

  // ---- Set stock -----------------------------------------------------------------------------
  const pick = useCallback(
    (barcode: string) => {
      const id = nextId.current++;
      setTarget({ id, barcode, state: 'loading' });
      setQuantity('');
      setBanner({ tone: 'busy', text: `Looking up ${barcode}…` });
      lookUpBarcodes(client, [barcode]).then(
        ([info]) => {
          const state = cardStateOf(info!);
          setTarget((t) => (t?.id === id ? { ...t, state, info: info! } : t));
          if (state === 'unknown') feedback('error', `Unknown barcode: ${barcode}`);
          else {
            setBanner({ tone: 'idle', text: `${describe(info!)}: type the new quantity, then Enter` });
            quantityField.current?.focus();
          }
        },
        (error: unknown) => {
          setTarget((t) => (t?.id === id ? { ...t, state: 'error', message: (error as Error).message } : t));
          failed(error);
        },
      );
    },
    [client, feedback, failed],
  );

  const submitQuantity = (event: FormEvent) => {
    event.preventDefault();
    if (!target || sending) return;
    if (withWarehouses && currentWarehouse === null) return feedback('error', 'Choose a warehouse first (top bar)');
    const row: RowInput = { barcode: target.barcode, quantity: quantity.trim(), ...(currentWarehouse !== null ? { warehouse_name: currentWarehouse } : {}) };
    const name = target.info ? describe(target.info) : target.barcode;
    const before = target.info ? quantityIn(target.info.records, currentWarehouse) : undefined;
    setSending(true);
    client
      .updateStock([row], withWarehouses)
      .then(([outcome]) => {
        const id = nextId.current++;
        if (outcome!.ok) {
          const text = `Saved: ${outcome!.quantity}${before !== undefined ? ` (was ${before})` : ''}`;
          setOutcomes((prev) => [{ id, barcode: row.barcode, name, quantity: row.quantity, warehouse: currentWarehouse, ok: true, text }, ...prev].slice(0, MAX_KEPT));
          setTarget((t) => (t && t.info ? { ...t, info: withQuantity(t.info, currentWarehouse, outcome!.quantity) } : t));
          setQuantity('');
          quantityField.current?.blur();
          feedback('ok', `${name}: ${outcome!.quantity}${currentWarehouse ? ` in ${currentWarehouse}` : ''} saved`);
        } else {
          const text = errorText(outcome!.errors);
          setOutcomes((prev) => [{ id, barcode: row.barcode, name, quantity: row.quantity, warehouse: currentWarehouse, ok: false, text }, ...prev].slice(0, MAX_KEPT));
          feedback('error', text);
        }
      }, failed)
      .finally(() => setSending(false));
  };

  // ---- List ----------------------------------------------------------------------------------
  // Scans can arrive faster than React renders, so the list's latest value is kept in a ref as well.
  const rowsRef = useRef<ListRow[]>([]);
  const updateRows = useCallback((change: (rows: ListRow[]) => ListRow[]) => {
    rowsRef.current = change(rowsRef.current);
    setRows(rowsRef.current);
  }, []);

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
      setBanner({ tone: 'busy', text: `Counted ${barcode}…` });
      // Names the row, and warns at once (tone included) when the barcode is unknown.
      lookUpBarcodes(client, [barcode]).then(([info]) => {
        const known = info!.records.length > 0;
        updateRows((list) => list.map((r) => (r.id === id ? { ...r, known, name: known ? describe(info!) : undefined } : r)));
        if (known) feedback('ok', `${describe(info!)}: 1`);
        else feedback('error', `Unknown barcode: ${barcode}`);
      }, failed);
    },
    [client, feedback, failed, updateRows],
  );

  const sendList = () => {
    if (rowsRef.current.length === 0 || sending) return;
    if (withWarehouses && currentWarehouse === null) return feedback('error', 'Choose a warehouse first (top bar)');
    const sent = rowsRef.current;
    const inputs: RowInput[] = sent.map((r) => ({ barcode: r.barcode, quantity: r.quantity.trim(), ...(currentWarehouse !== null ? { warehouse_name: currentWarehouse } : {}) }));
    setSending(true);
    setBanner({ tone: 'busy', text: `Sending ${sent.length} rows…` });
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

  // ---- Scans and keys ------------------------------------------------------------------------
  const handleCode = useCallback(
    (code: string) => {
      if (mode === 'lookup') lookUp([code]);
      else if (mode === 'set') pick(code);
      else addToList(code);
    },
    [mode, lookUp, pick, addToList],
  );

  useScanCapture(settings.scan, handleCode, warmUpAudio);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const chosen = MODES.find((m) => m.key === event.key);
      if (chosen) {
        event.preventDefault();
        setMode(chosen.mode);
      } else if (event.key === 'Escape' && document.activeElement instanceof HTMLElement) {
        document.activeElement.blur();
        setShowSettings(false);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const submitManual = (event: FormEvent) => {
    event.preventDefault();
    const code = manual;
    if (code.trim() === '') return;
    setManual('');
    handleCode(code);
  };

  const submitPasted = (event: FormEvent) => {
    event.preventDefault();
    const list = splitBarcodeList(pasted);
    if (list.length === 0) return;
    if (list.length > MAX_BARCODES_PER_READ) return feedback('error', `At most ${MAX_BARCODES_PER_READ} barcodes at a time (got ${list.length})`);
    setPasted('');
    lookUp(list);
  };

  const saveNewSettings = (next: UiSettings) => {
    saveSettings(next);
    setSettings(next);
    setShowSettings(false);
  };

  const modeHint = useMemo(
    () =>
      ({
        lookup: 'Scan to see stock. Several scans or a pasted list of up to 50 barcodes work too.',
        set: 'Scan, type the new quantity, press Enter.',
        list: `Each scan counts one. Correct the numbers, then send up to ${MAX_ROWS_PER_UPDATE} rows at once.`,
      })[mode],
    [mode],
  );

  return (
    <div className="scanner" data-ready={!withWarehouses || warehouse !== null}>
      <header className="topbar">
        <h1>Barcode inventory</h1>
        <span className="account" data-testid="account">
          {account.account}
        </span>
        {withWarehouses ? (
          <WarehouseSelect className="warehouse" warehouses={warehouses} value={warehouse ?? ''} onChange={chooseWarehouse} testId="warehouse-select" />
        ) : null}
        <span className="spacer" />
        <a href="#stocktake" data-testid="stocktake-nav">Stocktake</a>
        <button type="button" onClick={() => saveNewSettings({ ...settings, sound: !settings.sound })} aria-pressed={settings.sound}>
          {settings.sound ? 'Sound on' : 'Sound off'}
        </button>
        <button type="button" onClick={() => setShowSettings((s) => !s)} aria-expanded={showSettings}>
          Settings
        </button>
        <button type="button" onClick={() => onSignOut()} data-testid="sign-out">
          Sign out
        </button>
      </header>

      <nav className="modes" aria-label="Mode">
        {MODES.map((m) => (
          <button key={m.mode} type="button" className={m.mode === mode ? 'active' : undefined} aria-current={m.mode === mode} onClick={() => setMode(m.mode)}>
            {m.label} <kbd>{m.key}</kbd>
          </button>
        ))}
      </nav>

      {showSettings ? <SettingsPanel settings={settings} onSave={saveNewSettings} onCancel={() => setShowSettings(false)} /> : null}

      <div className={`banner banner-${banner.tone}`} role="status" aria-live="polite" data-testid="banner" data-tone={banner.tone}>
        {banner.text}
      </div>
      <p className="mode-hint">{modeHint}</p>

      {mode === 'lookup' ? (
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
              <StockCard key={e.id} barcode={e.barcode} state={e.state} info={e.info} message={e.message} currentWarehouse={currentWarehouse} />
            ))}
          </div>
        </section>
      ) : null}

      {mode === 'set' ? (
        <section className="panel" aria-label="Set stock">
          <div className="set-row">
            <div className="set-target">
              {target ? (
                <StockCard barcode={target.barcode} state={target.state} info={target.info} message={target.message} currentWarehouse={currentWarehouse} />
              ) : (
                <p className="placeholder">Scan the item whose stock you counted.</p>
              )}
            </div>
            <form onSubmit={submitQuantity} className="quantity-form">
              <label htmlFor="quantity">
                New quantity{currentWarehouse ? ` in ${currentWarehouse}` : ''}
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
      ) : null}

      {mode === 'list' ? (
        <ListPanel
          rows={rows}
          sending={sending}
          warehouse={currentWarehouse}
          onChange={(id, value) => updateRows((prev) => prev.map((r) => (r.id === id ? { ...r, quantity: value } : r)))}
          onRemove={(id) => updateRows((prev) => prev.filter((r) => r.id !== id))}
          onClear={() => updateRows(() => [])}
          onSend={sendList}
        />
      ) : null}
    </div>
  );
}

/** The info of a barcode after its quantity in one warehouse was set. */
function withQuantity(info: BarcodeInfo, warehouse: string | null, quantity: number): BarcodeInfo {
  if (warehouse === null) return { ...info, records: info.records.map((r) => ({ ...r, quantity })) };
  const has = info.records.some((r) => 'warehouse_name' in r && r.warehouse_name === warehouse);
  if (!has) return info;
  return { ...info, records: info.records.map((r) => ('warehouse_name' in r && r.warehouse_name === warehouse ? { ...r, quantity } : r)) };
}
