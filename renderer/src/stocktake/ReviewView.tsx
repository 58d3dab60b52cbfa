// Review and commit: on the books vs counted per item, what was expected but not scanned, the unknown
// barcodes; then the confirmed commit (with a warning, and an explicit choice, while unknown barcodes
// are not resolved), after which the session is read-only and shows what was applied.
import { useCallback, useEffect, useState } from 'react';
import type { CommitResult, StocktakeReview } from '../../../shared/index.ts';
import { useSession } from '../api/session-context.tsx';
import { formatDateTime, formatDifference, formatNumber } from '../common/format.ts';
import { friendlyErrors, stocktakeTexts as texts } from '../common/texts.ts';
import type { OnFailure } from './on-failure.ts';
import { stocktakeHref } from './stocktake-route.ts';
import { UnknownLines } from './UnknownLines.tsx';
import { PrintLabels } from '../labels/PrintLabels.tsx';
import { labelTexts } from '../common/texts.ts';

/** How often a running commit's progress is asked for. */
const PROGRESS_POLL_MS = 1000;

export function ReviewView({ id, onFailure }: { id: number; onFailure: OnFailure }) {
  const { client } = useSession();
  const [review, setReview] = useState<StocktakeReview | null>(null);
  const [zero, setZero] = useState(false);
  const [withUnresolved, setWithUnresolved] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<CommitResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  /** While the commit runs: how far it got, read from the session (a commit of thousands of counts takes seconds). */
  const [progress, setProgress] = useState<{ done: number; of: number } | null>(null);

  const [downloading, setDownloading] = useState(false);

  /** Every line as the counts CSV, saved as a file: the review lists only those that need a look first. */
  const downloadCounts = () => {
    setDownloading(true);
    client.stocktake
      .countsCsv(id)
      .then((csv) => {
        const link = document.createElement('a');
        link.href = URL.createObjectURL(csv);
        link.download = `stocktake-${id}-counts.csv`;
        link.click();
        setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
      }, onFailure)
      .finally(() => setDownloading(false));
  };

  const load = useCallback(() => {
    client.stocktake.review(id).then(setReview, onFailure);
  }, [client, id, onFailure]);
  useEffect(load, [load]);

  // Setting the not-scanned lines to zero is an explicit choice, confirmed with the rest of the commit.
  const commit = () => {
    setBusy(true);
    setError(null);
    const poll = setInterval(() => {
      client.stocktake.get(id).then(
        (session) => setProgress({ done: session.totals.committed_lines, of: session.totals.known_lines }),
        () => undefined, // the commit's own answer says what went wrong
      );
    }, PROGRESS_POLL_MS);
    // Resuming, the zero option is the one the commit started with (the server refuses the other).
    const resuming = review?.stocktake.status === 'committing';
    client.stocktake
      .commit(id, resuming ? review.stocktake.zero_uncounted === true : zero)
      .then(
        (answer) => {
          setResult(answer);
          setConfirming(false);
          load();
        },
        (e: unknown) => setError(texts.resumeHint((e as Error).message)),
      )
      .finally(() => {
        clearInterval(poll);
        setProgress(null);
        setBusy(false);
      });
  };

  if (!review) return <p className="muted">{texts.loading}</p>;
  const {
    stocktake,
    lines,
    lines_total: linesTotal,
    lines_changed: linesChanged,
    not_scanned: notScanned,
    not_scanned_total: notScannedTotal,
    unknown,
  } = review;
  const unresolved = unknown.filter((u) => u.resolution === 'pending').length;
  const blocked = unresolved > 0 && !withUnresolved;

  return (
    <section className="review-view" data-testid="review-view" data-status={stocktake.status} aria-labelledby="review-title">
      <h2 id="review-title" className="view-title">
        <span>{texts.reviewTitle(stocktake.name)}</span>
        {stocktake.warehouse_name ? <span className="muted">{texts.inWarehouse(stocktake.warehouse_name)}</span> : null}
        <span className={`badge badge-${stocktake.status}`} data-testid="review-status" data-status={stocktake.status}>
          {texts.status(stocktake.status)}
        </span>
      </h2>
      {stocktake.status === 'open' ? (
        <p>
          <a href={stocktakeHref({ view: 'count', id })}>{texts.backToCounting}</a>
        </p>
      ) : null}

      <h3>{texts.reviewCounted(linesTotal, linesChanged)}</h3>
      {linesTotal > lines.length ? (
        <>
          <p className="muted" data-testid="review-lines-more">
            {texts.reviewLinesMore(lines.length, linesTotal)}
          </p>
          <div className="button-row">
            <button type="button" onClick={downloadCounts} disabled={downloading} data-testid="download-counts">
              {downloading ? texts.downloadingCounts : texts.downloadCounts}
            </button>
          </div>
        </>
      ) : null}
      <div className="table-scroll">
        <table className="table stack" data-testid="review-lines">
          <thead>
            <tr>
              <th scope="col">{texts.columnsReview.name}</th>
              <th scope="col" className="num">
                {texts.columnsReview.book}
              </th>
              <th scope="col" className="num">
                {texts.columnsReview.counted}
              </th>
              <th scope="col" className="num">
                {texts.columnsReview.difference}
              </th>
              <th scope="col" className="num">
                {texts.columnsReview.change}
              </th>
              <th scope="col">{texts.columnsReview.result}</th>
            </tr>
          </thead>
          <tbody>
            {lines.map((l) => (
              <tr
                key={l.id}
                data-testid="review-line"
                data-barcode={l.barcode}
                data-book={l.book_quantity}
                data-counted={l.counted}
                className={l.difference ? 'row-differs' : undefined}
              >
                <td className="cell-item">
                  <strong>{l.name}</strong>
                  <code>{l.barcode}</code>
                  {l.counted_by && l.counted_by.length > 0 ? (
                    <small className="counted-by" data-testid="counted-by">
                      {texts.countedBy(l.counted_by)}
                    </small>
                  ) : null}
                </td>
                <td className="num" data-label={texts.columnsReview.book}>
                  {l.book_quantity === undefined ? '' : formatNumber(l.book_quantity)}
                </td>
                <td className="num" data-label={texts.columnsReview.counted}>
                  {formatNumber(l.counted)}
                </td>
                {/* Counted − books reads as the arithmetic of the two columns before it; what the commit will
                    change differs from it when sales or a set came after the count, and is shown beside it. */}
                <td className="num" data-label={texts.columnsReview.difference} data-testid="review-line-difference">
                  {l.book_quantity === undefined ? '' : formatDifference(l.counted - l.book_quantity)}
                </td>
                <td className="num" data-label={texts.columnsReview.change} data-testid="review-line-change">
                  {changeOf(l, stocktake.status)}
                </td>
                <td data-label={texts.columnsReview.result} data-testid="review-line-result">
                  {l.commit
                    ? texts.commitState(
                        l.commit.state,
                        l.commit.errors ? friendlyErrors(l.commit.errors, { quantity: l.counted }) : undefined,
                      )
                    : l.zeroed
                      ? texts.setToZero
                      : l.moved_since_count !== undefined && l.moved_since_count !== 0 && l.after_commit !== undefined
                        ? texts.sinceCount(l.moved_since_count, l.after_commit)
                        : ''}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>

      <h3 data-testid="not-scanned-heading">{texts.notScanned(notScannedTotal)}</h3>
      {notScanned.length === 0 ? (
        <p className="muted">{texts.noneUnknown}</p>
      ) : (
        <div className="table-scroll">
          <table className="table stack" data-testid="not-scanned">
            <thead>
              <tr>
                <th scope="col">{texts.columnsReview.name}</th>
                <th scope="col" className="num">
                  {texts.columnsReview.book}
                </th>
              </tr>
            </thead>
            <tbody>
              {notScanned.map((n) => (
                <tr key={n.barcode} data-testid="not-scanned-line" data-barcode={n.barcode}>
                  <td className="cell-item">
                    <strong>{n.name}</strong>
                    <code>{n.barcode}</code>
                  </td>
                  <td className="num" data-label={texts.columnsReview.book}>
                    {formatNumber(n.book_quantity)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {notScannedTotal > notScanned.length ? (
            <p className="muted" data-testid="not-scanned-more">
              {texts.notScannedMore(notScanned.length, notScannedTotal - notScanned.length)}
            </p>
          ) : null}
        </div>
      )}

      <h3 data-testid="review-unknown-heading">{texts.reviewUnknown(unknown.length, unresolved)}</h3>
      <UnknownLines lines={unknown} testId="review-unknown" />
      {unknown.length > 0 ? (
        <PrintLabels
          source={{ stocktake: String(id) }}
          count={unknown.length}
          title={labelTexts.unknownLabels}
          testId="print-unknown-labels"
        />
      ) : null}

      {/* Gone with the commit's answer, not only once the review is read again (seconds for a large session). */}
      {stocktake.status !== 'committed' && !result ? (
        <section className="card commit-card" aria-labelledby="commit-title">
          <h3 id="commit-title">{texts.commitTitle}</h3>
          <p>{texts.commitExplain(stocktake.warehouse_name)}</p>
          {unresolved > 0 && stocktake.status === 'open' ? (
            <div className="notice notice-warn" data-testid="unresolved-warning">
              <p>{texts.unresolvedWarning(unresolved)}</p>
              <label className="check">
                <input
                  type="checkbox"
                  checked={withUnresolved}
                  onChange={(e) => setWithUnresolved(e.target.checked)}
                  data-testid="commit-with-unresolved"
                />{' '}
                {texts.commitAnyway}
              </label>
            </div>
          ) : null}
          {stocktake.status === 'open' && (notScannedTotal > 0 || zero) ? (
            <label className="check">
              <input type="checkbox" checked={zero} onChange={(e) => setZero(e.target.checked)} data-testid="zero-uncounted" />{' '}
              {texts.zeroOption(notScannedTotal)}
            </label>
          ) : null}
          {stocktake.status === 'committing' && !busy ? (
            <p data-testid="commit-stopped">{texts.committedSoFar(stocktake.totals.committed_lines, stocktake.totals.known_lines)}</p>
          ) : null}
          {confirming ? (
            <div className="notice notice-error" data-testid="confirm-panel">
              <p>
                {stocktake.status === 'committing'
                  ? texts.confirmResume(stocktake.totals.known_lines - stocktake.totals.committed_lines)
                  : texts.confirm(linesTotal, zero ? notScannedTotal : 0)}
              </p>
              <div className="button-row">
                <button type="button" className="danger" onClick={commit} disabled={busy} data-testid="confirm-commit">
                  {busy ? texts.committingNow : texts.yes}
                </button>
                <button type="button" onClick={() => setConfirming(false)} disabled={busy}>
                  {texts.cancel}
                </button>
              </div>
            </div>
          ) : (
            <div className="button-row">
              <button
                type="button"
                className="primary"
                onClick={() => setConfirming(true)}
                disabled={blocked && stocktake.status === 'open'}
                data-testid="commit-button"
              >
                {stocktake.status === 'committing' ? texts.resumeButton : texts.commitButton}
              </button>
            </div>
          )}
          {busy && progress ? (
            <p role="status" data-testid="commit-progress" data-done={progress.done} data-of={progress.of}>
              {texts.commitProgress(progress.done, progress.of)}
            </p>
          ) : null}
        </section>
      ) : null}
      {error ? (
        <p className="notice notice-error" role="alert">
          {error}
        </p>
      ) : null}
      {result ? (
        <section data-testid="commit-result" data-applied={result.applied} data-failed={result.failed}>
          <p className={`notice ${result.failed > 0 ? 'notice-error' : 'notice-ok'}`} role="status">
            {texts.applied(result.applied, result.failed)}
          </p>
          {result.errors.length > 0 ? (
            <div className="table-scroll">
              <table className="table">
                <tbody>
                  {result.errors.map((e) => (
                    <tr key={e.line}>
                      <td>
                        <code>{String((e.data as { barcode?: string }).barcode ?? '')}</code>
                      </td>
                      <td>{friendlyErrors(e.errors, e.data as Record<string, unknown>)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          ) : null}
        </section>
      ) : null}
      {stocktake.status === 'committed' ? (
        <p className="muted">
          {texts.committedAt(stocktake.committed_at ? formatDateTime(stocktake.committed_at) : '', stocktake.committed_by)}
        </p>
      ) : null}
    </section>
  );
}

/** What the commit changes a line's stock by: before the commit, what it will change; after it, what it changed. */
function changeOf(line: StocktakeReview['lines'][number], status: string): string {
  if (status === 'committed') return line.difference === undefined ? '' : formatDifference(line.difference);
  if (line.after_commit !== undefined && line.book_quantity !== undefined) return formatDifference(line.after_commit - line.book_quantity);
  return line.difference === undefined ? '' : formatDifference(line.difference);
}
