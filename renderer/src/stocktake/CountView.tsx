// Scan to count: every scan adds one to its line (a typed amount with the form), and waits in a stored
// queue until the server has it. Other terminals' lines appear as they count; undo and edits fix counts.
import { type FormEvent, useCallback, useEffect, useRef, useState } from 'react';
import type { Stocktake, StocktakeLine } from '../../../shared/index.ts';
import { ApiError } from '../api/request-json.ts';
import { useSession } from '../api/session-context.tsx';
import { playError, playSuccess, warmUpAudio } from '../scan/feedback-sounds.ts';
import { useScanCapture } from '../scan/scan-capture.ts';
import { loadSettings } from '../settings/ui-settings.ts';
import { type QueuedScan, loadQueue, newScanId, saveQueue, terminalName } from './scan-queue.ts';
import { StockHistory } from '../scan/StockHistory.tsx';
import { go, stocktakeHref } from './stocktake-route.ts';

const RETRY_MS = 1000;
const REFRESH_MS = 2000;

export function CountView({ id, onFailure }: { id: number; onFailure: (error: unknown) => void }) {
  const { client } = useSession();
  const [settings] = useState(loadSettings);
  const [session, setSession] = useState<Stocktake | null>(null);
  const [lines, setLines] = useState<StocktakeLine[]>([]);
  const [pending, setPending] = useState<QueuedScan[]>(() => loadQueue(id));
  const [banner, setBanner] = useState<{ tone: 'ok' | 'error' | 'idle'; text: string }>({ tone: 'idle', text: 'Ready: scan to count' });
  const [offline, setOffline] = useState(false);
  const [barcode, setBarcode] = useState('');
  const [amount, setAmount] = useState('1');
  const [editing, setEditing] = useState<{ line: number; value: string } | null>(null);
  const [historyOf, setHistoryOf] = useState<string | null>(null);
  const queue = useRef<QueuedScan[]>(pending);
  const flushing = useRef(false);
  const retry = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const terminal = useRef(terminalName());
  const offlineRef = useRef(false);
  offlineRef.current = offline;

  const feedback = useCallback(
    (tone: 'ok' | 'error', text: string) => {
      setBanner({ tone, text });
      if (settings.sound) (tone === 'ok' ? playSuccess : playError)();
    },
    [settings.sound],
  );

  const mergeLine = useCallback((line: StocktakeLine) => {
    setLines((prev) => (prev.some((l) => l.id === line.id) ? prev.map((l) => (l.id === line.id ? line : l)) : [...prev, line]));
  }, []);

  const refresh = useCallback(() => {
    Promise.all([client.stocktake.get(id), client.stocktake.lines(id)]).then(
      ([s, l]) => {
        setSession(s);
        setLines(l);
        setOffline(false);
      },
      (e: unknown) => {
        if (e instanceof ApiError && e.status === 0) setOffline(true);
        else onFailure(e);
      },
    );
  }, [client, id, onFailure]);

  const setQueue = useCallback(
    (next: QueuedScan[]) => {
      queue.current = next;
      saveQueue(id, next);
      setPending(next);
    },
    [id],
  );

  /** Sends queued scans one at a time, in order; on no answer, tries again shortly. */
  const flush = useCallback(async () => {
    if (flushing.current) return;
    flushing.current = true;
    try {
      while (queue.current.length > 0) {
        const next = queue.current[0]!;
        try {
          const result = await client.stocktake.scan(id, { ...next, terminal: terminal.current });
          mergeLine(result.line);
          setOffline(false);
          // The sound says what the server made of the scan: counted, or queued as unknown.
          if (result.line.known) feedback('ok', `${result.line.name ?? next.barcode}: ${result.line.counted}`);
          else feedback('error', `Unknown barcode ${next.barcode}: kept in the unknown queue (${result.line.counted})`);
        } catch (error) {
          if (error instanceof ApiError && (error.status === 0 || error.status >= 500)) {
            if (!offlineRef.current) feedback('error', 'The server cannot be reached: scans are kept on this device.');
            setOffline(true);
            clearTimeout(retry.current);
            retry.current = setTimeout(() => void flush(), RETRY_MS);
            return;
          }
          feedback('error', `${next.barcode}: ${(error as Error).message}`);
          onFailure(error);
        }
        setQueue(queue.current.filter((s) => s.scan_id !== next.scan_id));
      }
    } finally {
      flushing.current = false;
    }
  }, [client, id, mergeLine, feedback, onFailure, setQueue]);

  useEffect(() => {
    refresh();
    void flush();
    const timer = setInterval(() => {
      if (!flushing.current) refresh();
    }, REFRESH_MS);
    return () => {
      clearInterval(timer);
      clearTimeout(retry.current);
    };
  }, [refresh, flush]);

  const count = useCallback(
    (code: string, howMany = 1) => {
      setQueue([...queue.current, { scan_id: newScanId(), barcode: code, amount: howMany }]);
      setBanner({ tone: 'idle', text: `${code}: +${howMany}` }); // the server's answer follows at once
      void flush();
    },
    [setQueue, flush],
  );

  useScanCapture(settings.scan, count, warmUpAudio);

  const submitManual = (event: FormEvent) => {
    event.preventDefault();
    const n = Number(amount);
    if (barcode === '' || !Number.isInteger(n) || n < 1) return feedback('error', 'Give a barcode and a whole amount of at least 1.');
    count(barcode, n);
    setBarcode('');
    setAmount('1');
  };

  const undo = () => {
    // A scan still waiting is simply not sent; otherwise the server takes back this tab's last one.
    if (queue.current.length > 0) {
      const last = queue.current.at(-1)!;
      setQueue(queue.current.slice(0, -1));
      return feedback('ok', `Undone: ${last.barcode} -${last.amount}`);
    }
    client.stocktake.undo(id, terminal.current).then(
      (result) => {
        feedback('ok', `Undone: ${result.undone.barcode} -${result.undone.amount}`);
        refresh();
      },
      (e: unknown) => feedback('error', (e as Error).message),
    );
  };

  const saveEdit = (event: FormEvent) => {
    event.preventDefault();
    if (!editing) return;
    const n = Number(editing.value);
    if (!Number.isInteger(n) || n < 0) return feedback('error', 'A count is a whole number of at least 0.');
    client.stocktake.setCount(id, editing.line, n).then(
      (line) => {
        mergeLine(line);
        setEditing(null);
        feedback('ok', `${line.barcode}: count set to ${line.counted}`);
      },
      (e: unknown) => feedback('error', (e as Error).message),
    );
  };

  const resolve = (line: StocktakeLine, resolution: 'ignored' | 'kept') =>
    client.stocktake.resolve(id, line.id, resolution).then(mergeLine, (e: unknown) => feedback('error', (e as Error).message));

  const pendingBy = new Map<string, number>();
  for (const scan of pending) pendingBy.set(scan.barcode, (pendingBy.get(scan.barcode) ?? 0) + scan.amount);
  const known = lines.filter((l) => l.known);
  const unknown = lines.filter((l) => !l.known);
  const readOnly = session !== null && session.status !== 'open';

  return (
    <main className="st-main" data-testid="count-view" data-stocktake={id}>
      <h2>
        {session?.name ?? 'Stocktake'} {session?.warehouse_name ? <span className="st-muted">in {session.warehouse_name}</span> : null}
        {session?.blind ? <span className="st-badge">blind</span> : null}
      </h2>
      <p className={`banner banner-${banner.tone}`} data-testid="count-banner">
        {banner.text}
      </p>
      {readOnly ? (
        <p className="st-error">
          This stocktake is {session?.status}: counting is closed. <a href={stocktakeHref({ view: 'review', id })}>See the review</a>.
        </p>
      ) : null}
      <p className={offline ? 'st-error' : 'st-muted'} data-testid="pending" data-pending={pending.length}>
        {offline ? 'The server cannot be reached: scans are kept on this device and sent when it is back. ' : ''}
        {pending.length > 0 ? `${pending.length} scan(s) waiting to be sent.` : 'All scans are saved on the server.'}
      </p>
      <form className="st-inline" onSubmit={submitManual}>
        <label>
          Barcode <input value={barcode} onChange={(e) => setBarcode(e.target.value)} data-testid="manual-barcode" />
        </label>
        <label>
          Amount <input value={amount} onChange={(e) => setAmount(e.target.value)} inputMode="numeric" size={5} data-testid="manual-amount" />
        </label>
        <button type="submit">Add</button>
        <button type="button" onClick={undo} data-testid="undo">
          Undo my last scan
        </button>
        <button type="button" onClick={() => go({ view: 'review', id })} data-testid="review-button">
          Review…
        </button>
      </form>

      <h3>Counted ({known.length})</h3>
      <table className="st-table" data-testid="lines">
        <thead>
          <tr>
            <th>barcode</th>
            <th>name</th>
            <th>counted</th>
            {session?.blind ? null : <th>book</th>}
            <th />
          </tr>
        </thead>
        <tbody>
          {known.map((line) => (
            <tr key={line.id} data-testid="line" data-barcode={line.barcode} data-counted={line.counted}>
              <td>
                <code>{line.barcode}</code>
              </td>
              <td>{line.name}</td>
              <td>
                {editing?.line === line.id ? (
                  <form onSubmit={saveEdit} className="st-inline">
                    <input value={editing.value} onChange={(e) => setEditing({ line: line.id, value: e.target.value })} size={6} autoFocus data-testid="edit-count" />
                    <button type="submit">Save</button>
                  </form>
                ) : (
                  <strong>{line.counted}</strong>
                )}
                {pendingBy.get(line.barcode) ? <span className="st-muted"> +{pendingBy.get(line.barcode)} waiting</span> : null}
              </td>
              {session?.blind ? null : <td>{line.book_quantity ?? ''}</td>}
              <td>
                <button type="button" onClick={() => setEditing({ line: line.id, value: String(line.counted) })} disabled={readOnly}>
                  Edit
                </button>{' '}
                <button type="button" onClick={() => setHistoryOf(historyOf === line.barcode ? null : line.barcode)}>
                  History
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {historyOf ? <StockHistory key={historyOf} barcode={historyOf} /> : null}

      <h3>Unknown barcodes ({unknown.length})</h3>
      {unknown.length === 0 ? (
        <p className="st-muted">None.</p>
      ) : (
        <table className="st-table" data-testid="unknown-lines">
          <tbody>
            {unknown.map((line) => (
              <tr key={line.id} data-testid="unknown-line" data-barcode={line.barcode} data-counted={line.counted} data-resolution={line.resolution}>
                <td>
                  <code>{line.barcode}</code>
                </td>
                <td>
                  scanned <strong>{line.counted}</strong>
                </td>
                <td>{line.resolution}</td>
                <td>
                  <button type="button" onClick={() => void resolve(line, 'ignored')} disabled={readOnly}>
                    Ignore
                  </button>{' '}
                  <button type="button" onClick={() => void resolve(line, 'kept')} disabled={readOnly}>
                    Keep for export
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </main>
  );
}
