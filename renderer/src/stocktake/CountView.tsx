// Scan to count: every scan adds one to its line (a GS1 scan its count, the form a typed amount), and
// waits in a stored queue until the server has it. Other terminals' lines appear as they count; undo
// and edits fix counts; unknown barcodes are listed apart until someone decides about them. The queue
// is use-scan-queue.ts, the lines as other terminals change them use-line-changes.ts.
import { type FormEvent, memo, useCallback, useRef, useState } from 'react';
import { MAX_QUANTITY, MAX_SCAN_AMOUNT, MAY, type StocktakeLine } from '../../../shared/index.ts';
import { useMay, useSession } from '../api/session-context.tsx';
import { CameraButton, CameraPanel, useCamera } from '../camera/CameraButton.tsx';
import { formatDate, formatNumber } from '../common/format.ts';
import { lower } from '../common/i18n.ts';
import { useLocale } from '../common/locale-context.tsx';
import { cardTexts, scanTexts, stocktakeTexts as texts } from '../common/texts.ts';
import { playError, playSuccess, warmUpAudio } from '../scan/feedback-sounds.ts';
import { useScanCapture } from '../scan/scan-capture.ts';
import { type Scan, plainScan, readScan, visibleText } from '../scan/scanned-code.ts';
import type { Banner, Tone } from '../scan/scanner-mode.ts';
import { StockHistory } from '../scan/StockHistory.tsx';
import { loadSettings, separatorsOf } from '../settings/ui-settings.ts';
import type { OnFailure } from './on-failure.ts';
import { go, stocktakeHref } from './stocktake-route.ts';
import { UnknownLines } from './UnknownLines.tsx';
import { useLineChanges } from './use-line-changes.ts';
import { useScanQueue } from './use-scan-queue.ts';

interface CountedLineProps {
  line: StocktakeLine;
  /** The count being typed, when this line is edited. */
  editing: string | undefined;
  onSave: ((event: FormEvent) => void) | undefined;
  /** Scans of this barcode still waiting on this device. */
  waiting: number | undefined;
  blind: boolean;
  readOnly: boolean;
  historyOpen: boolean;
  edit: (line: StocktakeLine) => void;
  changeEdit: (line: number, value: string) => void;
  /** Absent for a role that may not read the stock history: the line has no History button. */
  toggleHistory: ((barcode: string) => void) | undefined;
}

/**
 * One counted line. Memoised: a refresh that changed four lines of 20,000 re-renders four rows; the
 * whole table re-rendered held the page 335-460 ms on every refresh while other terminals scanned.
 */
const CountedLine = memo(function CountedLine({
  line,
  editing,
  onSave,
  waiting,
  blind,
  readOnly,
  historyOpen,
  edit,
  changeEdit,
  toggleHistory,
}: CountedLineProps) {
  useLocale(); // memo: renders again when the language changes
  const name = line.name ?? line.barcode;
  return (
    <tr data-testid="line" data-barcode={line.barcode} data-counted={line.counted}>
      <td className="cell-item">
        <strong>{line.name}</strong>
        <code>{line.barcode}</code>
      </td>
      <td className="num" data-label={texts.columnsCount.counted}>
        {editing !== undefined ? (
          <form onSubmit={onSave} className="inline-form compact">
            <input
              value={editing}
              onChange={(e) => changeEdit(line.id, e.target.value)}
              inputMode="numeric"
              aria-label={texts.editCount(name)}
              autoFocus
              data-testid="edit-count"
            />
            <button type="submit">{texts.save}</button>
          </form>
        ) : (
          <strong>{formatNumber(line.counted)}</strong>
        )}
        {waiting ? <span className="muted"> {texts.waitingFor(waiting)}</span> : null}
      </td>
      {blind ? null : (
        <td className="num" data-label={texts.columnsCount.book}>
          {line.book_quantity === undefined ? '' : formatNumber(line.book_quantity)}
        </td>
      )}
      <td className="actions">
        <button type="button" onClick={() => edit(line)} disabled={readOnly} aria-label={texts.editOf(line.barcode)}>
          {texts.edit}
        </button>
        {toggleHistory ? (
          <button type="button" onClick={() => toggleHistory(line.barcode)} aria-label={texts.historyOf(name)} aria-expanded={historyOpen}>
            {texts.history}
          </button>
        ) : null}
      </td>
    </tr>
  );
});

export function CountView({ id, onFailure }: { id: number; onFailure: OnFailure }) {
  const { client } = useSession();
  // The review and the history are a manager's: a counter's page leaves them out.
  const may = useMay();
  const [settings] = useState(loadSettings);
  const [banner, setBanner] = useState<Banner>({ tone: 'idle', text: texts.ready });
  const [offline, setOffline] = useState(false);
  const [barcode, setBarcode] = useState('');
  const [amount, setAmount] = useState('1');
  const [editing, setEditing] = useState<{ line: number; value: string } | null>(null);
  const [historyOf, setHistoryOf] = useState<string | null>(null);
  /** True while the queue sends scans; the lines are not read meanwhile, only between sends. */
  const sending = useRef(false);

  const feedback = useCallback(
    (tone: Tone, text: string) => {
      setBanner({ tone, text });
      if (settings.sound && tone !== 'idle' && tone !== 'busy') (tone === 'ok' ? playSuccess : playError)();
    },
    [settings.sound],
  );

  const { session, lines, mergeLine, refresh } = useLineChanges(id, { onFailure, setOffline, paused: sending });
  const queue = useScanQueue(id, { onFailure, feedback, mergeLine, offline, setOffline, sending });
  const { pending, add } = queue;

  const count = useCallback(
    (scan: Scan, typed?: number) => {
      const howMany = typed ?? scan.gs1?.count ?? 1;
      add(scan.barcodes, howMany);
      const details: string[] = [];
      if (scan.gs1?.batch !== undefined) details.push(`${cardTexts.batch} ${scan.gs1.batch}`);
      if (scan.gs1?.expiry !== undefined) details.push(`${cardTexts.expiry} ${formatDate(scan.gs1.expiry)}`);
      setBanner({ tone: 'busy', text: texts.plus(visibleText(scan.text), howMany) + texts.gs1Details(details) }); // the server's answer follows at once
    },
    [add],
  );

  useScanCapture(settings.scan, {
    onScan: (text) => {
      const reading = readScan(text, separatorsOf(settings));
      if (reading.ok) return count(reading.scan);
      if (reading.problem.kind === 'gs1')
        feedback('error', scanTexts.gs1(reading.problem.error, reading.problem.ai, visibleText(reading.text)));
      else feedback('error', scanTexts.controlCharacter(visibleText(reading.text)));
    },
    onRefused: (refusal) => {
      if (refusal.kind === 'control-character') feedback('error', scanTexts.controlCharacter(visibleText(refusal.code)));
      else if (refusal.kind === 'cut-short') feedback('error', scanTexts.cutShort(visibleText(refusal.code)));
      else if (refusal.kind === 'badge') feedback('warn', scanTexts.badgeNotShared);
      else if (refusal.kind === 'fragment') feedback('error', scanTexts.fragment(visibleText(refusal.code), refusal.gapMs));
      else feedback('warn', scanTexts.slow(refusal.length, refusal.gapMs, refusal.maxGapMs));
    },
    onKey: warmUpAudio,
  });

  const submitManual = (event: FormEvent) => {
    event.preventDefault();
    // A typed barcode is the barcode without the spaces around it, as the server reads a lookup.
    const typed = barcode.trim();
    const n = wholeNumber(amount);
    if (typed === '' || n === null || n < 1) return feedback('error', texts.manualInvalid);
    if (n > MAX_SCAN_AMOUNT) return feedback('error', texts.amountTooLarge(MAX_SCAN_AMOUNT));
    count(plainScan(typed), n);
    setBarcode('');
    setAmount('1');
  };

  const undo = () => {
    // A scan still waiting is simply not sent; otherwise the server takes back this tab's last one.
    const last = queue.takeBackLast();
    if (last) return feedback('ok', texts.undone(nameOf(last.barcode), last.amount));
    client.stocktake.undo(id, queue.terminal).then(
      (result) => {
        feedback('ok', texts.undone(nameOf(result.undone.barcode), result.undone.amount));
        refresh();
      },
      (e: unknown) => feedback('error', (e as Error).message),
    );
  };

  // Stable across renders, so that a counted line re-renders only when it changed (CountedLine).
  const startEdit = useCallback((line: StocktakeLine) => setEditing({ line: line.id, value: String(line.counted) }), []);
  const changeEdit = useCallback((line: number, value: string) => setEditing({ line, value }), []);
  const toggleHistory = useCallback((barcode: string) => setHistoryOf((open) => (open === barcode ? null : barcode)), []);

  const saveEdit = (event: FormEvent) => {
    event.preventDefault();
    if (!editing) return;
    // The count's own rule, as Set stock reads a quantity: digits (and a minus), nothing else ("1e9" is not a count).
    const n = wholeNumber(editing.value);
    if (n === null) return feedback('error', texts.countInvalid);
    if (n < 0) return feedback('error', texts.countNegative(n));
    if (n > MAX_QUANTITY) return feedback('error', texts.countTooLarge(MAX_QUANTITY));
    client.stocktake.setCount(id, editing.line, n).then(
      (line) => {
        mergeLine(line);
        setEditing(null);
        feedback('ok', texts.countSet(line.name ?? line.barcode, line.counted));
      },
      (e: unknown) => feedback('error', (e as Error).message),
    );
  };

  const resolveUnknown = (line: StocktakeLine, resolution: 'ignored' | 'kept') => {
    client.stocktake.resolve(id, line.id, resolution).then(mergeLine, (e: unknown) => feedback('error', (e as Error).message));
  };

  const pendingBy = new Map<string, number>();
  for (const scan of pending) pendingBy.set(scan.barcode, (pendingBy.get(scan.barcode) ?? 0) + scan.amount);
  const known = lines.filter((l) => l.known);
  const unknown = lines.filter((l) => !l.known);
  const unresolved = unknown.filter((l) => l.resolution === 'pending').length;
  const readOnly = session !== null && session.status !== 'open';
  const camera = useCamera();
  /** A barcode's item name when this page knows it (a banner names what a person recognises). */
  const nameOf = (code: string) => lines.find((l) => l.barcode === code)?.name ?? code;
  const historyLine = historyOf === null ? undefined : lines.find((l) => l.barcode === historyOf);

  return (
    <section className="count-view" data-testid="count-view" data-stocktake={id} aria-labelledby="count-title">
      <h2 id="count-title" className="view-title">
        <span>{session?.name ?? texts.title}</span>
        {session?.warehouse_name ? <span className="muted">{texts.inWarehouse(session.warehouse_name)}</span> : null}
        {session?.blind ? <span className="badge">{texts.blindBadge}</span> : null}
      </h2>
      {readOnly && banner.tone === 'idle' ? null : ( // not "Ready: scan to count" where counting is closed
        <div className={`banner banner-${banner.tone}`} role="status" aria-live="polite" data-testid="count-banner" data-tone={banner.tone}>
          {banner.text}
        </div>
      )}
      {readOnly ? (
        <p className="notice notice-error">
          {texts.closed(lower(texts.status(session.status)))}{' '}
          {may(MAY.commitStocktake) ? <a href={stocktakeHref({ view: 'review', id })}>{texts.seeReview}</a> : null}
        </p>
      ) : null}
      <p className={offline ? 'notice notice-error' : 'muted'} data-testid="pending" data-pending={pending.length}>
        {offline ? `${texts.offline} ` : ''}
        {pending.length > 0 ? texts.waiting(pending.length) : texts.allSaved}
      </p>
      {/* A session no longer open is read in its review: no counting here, and its lines (a zeroing
          commit adds one per item of the warehouse, 85,335 on a 100k catalogue) are not loaded. */}
      {readOnly ? null : (
        <>
          <CameraPanel open={camera.open} onClose={camera.close} />
          <form className="inline-form" onSubmit={submitManual}>
            <label>
              {texts.barcode}
              <input
                value={barcode}
                onChange={(e) => setBarcode(e.target.value)}
                data-testid="manual-barcode"
                autoComplete="off"
                spellCheck={false}
              />
            </label>
            <label className="narrow">
              {texts.amount}
              <input value={amount} onChange={(e) => setAmount(e.target.value)} inputMode="numeric" data-testid="manual-amount" />
            </label>
            <button type="submit">{texts.add}</button>
          </form>
          <div className="button-row">
            <CameraButton open={camera.open} onToggle={camera.toggle} />
            <button type="button" onClick={undo} data-testid="undo">
              {texts.undo}
            </button>
            {may(MAY.commitStocktake) ? (
              <button type="button" className="primary" onClick={() => go({ view: 'review', id })} data-testid="review-button">
                {texts.toReview}
              </button>
            ) : null}
          </div>

          <h3>{texts.counted(known.length)}</h3>
          <div className="table-scroll">
            <table className="table stack" data-testid="lines">
              <thead>
                <tr>
                  <th scope="col">{texts.columnsCount.name}</th>
                  <th scope="col" className="num">
                    {texts.columnsCount.counted}
                  </th>
                  {session?.blind ? null : (
                    <th scope="col" className="num">
                      {texts.columnsCount.book}
                    </th>
                  )}
                  <th scope="col">{texts.columnsCount.actions}</th>
                </tr>
              </thead>
              <tbody>
                {known.map((line) => (
                  <CountedLine
                    key={line.id}
                    line={line}
                    editing={editing?.line === line.id ? editing.value : undefined}
                    onSave={editing?.line === line.id ? saveEdit : undefined}
                    waiting={pendingBy.get(line.barcode)}
                    blind={session?.blind === true}
                    readOnly={readOnly}
                    historyOpen={historyOf === line.barcode}
                    edit={startEdit}
                    changeEdit={changeEdit}
                    toggleHistory={may(MAY.history) ? toggleHistory : undefined}
                  />
                ))}
              </tbody>
            </table>
          </div>
          {historyOf ? (
            <section className="card history-card" aria-labelledby="count-history-title" data-testid="count-history">
              <h3 id="count-history-title" className="history-title">
                <span>{texts.historyOf(historyLine?.name ?? historyOf)}</span>
                <code>{historyOf}</code>
                <button type="button" onClick={() => setHistoryOf(null)}>
                  {texts.closeHistory}
                </button>
              </h3>
              <StockHistory key={historyOf} barcode={historyOf} open />
            </section>
          ) : null}

          <h3 data-testid="unknown-heading">{texts.unknownHeading(unknown.length, unresolved)}</h3>
          <UnknownLines lines={unknown} testId="unknown-lines" onResolve={resolveUnknown} readOnly={readOnly} />
        </>
      )}
    </section>
  );
}

/** A whole number typed as digits with an optional minus (spaces around allowed); null for anything else ("12a", "1e9", "1.5"). */
function wholeNumber(text: string): number | null {
  return /^\s*-?\d+\s*$/.test(text) ? Number(text.trim()) : null;
}
