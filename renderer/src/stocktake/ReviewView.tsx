// Review and commit: book vs counted per line, what was expected but not scanned, the unknown
// barcodes; then the confirmed commit, after which the session is read-only and shows what was applied.
import { useCallback, useEffect, useState } from 'react';
import type { CommitResult, StocktakeReview } from '../../../shared/index.ts';
import { useSession } from '../api/session-context.tsx';
import { stocktakeHref } from './stocktake-route.ts';

export function ReviewView({ id, onFailure }: { id: number; onFailure: (error: unknown) => void }) {
  const { client } = useSession();
  const [review, setReview] = useState<StocktakeReview | null>(null);
  const [zero, setZero] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<CommitResult | null>(null);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(() => {
    client.stocktake.review(id).then(setReview, (e: unknown) => {
      setError((e as Error).message);
      onFailure(e);
    });
  }, [client, id, onFailure]);
  useEffect(load, [load]);

  // Setting the not-scanned lines to zero is an explicit choice, confirmed with the rest of the commit.
  const commit = () => {
    setBusy(true);
    setError(null);
    client.stocktake
      .commit(id, zero)
      .then(
        (answer) => {
          setResult(answer);
          setConfirming(false);
          load();
        },
        (e: unknown) => setError(`${(e as Error).message} Commit again to resume: lines already applied are not applied twice.`),
      )
      .finally(() => setBusy(false));
  };

  if (!review) return <main className="st-main">{error ? <p className="st-error">{error}</p> : <p className="st-muted">Loading…</p>}</main>;
  const { stocktake, lines, not_scanned: notScanned, unknown } = review;
  const changed = lines.filter((l) => l.difference !== 0).length;

  return (
    <main className="st-main" data-testid="review-view" data-status={stocktake.status}>
      <h2>
        Review: {stocktake.name} {stocktake.warehouse_name ? <span className="st-muted">in {stocktake.warehouse_name}</span> : null}{' '}
        <span className="st-badge" data-testid="review-status">
          {stocktake.status}
        </span>
      </h2>
      {stocktake.status === 'open' ? <a href={stocktakeHref({ view: 'count', id })}>Back to counting</a> : null}

      <h3>Counted ({lines.length}, {changed} differ from the book)</h3>
      <table className="st-table" data-testid="review-lines">
        <thead>
          <tr>
            <th>barcode</th>
            <th>name</th>
            <th>book</th>
            <th>counted</th>
            <th>difference</th>
            <th>commit</th>
          </tr>
        </thead>
        <tbody>
          {lines.map((l) => (
            <tr key={l.id} data-testid="review-line" data-barcode={l.barcode} data-book={l.book_quantity} data-counted={l.counted} className={l.difference ? 'st-diff' : undefined}>
              <td>
                <code>{l.barcode}</code>
              </td>
              <td>{l.name}</td>
              <td>{l.book_quantity}</td>
              <td>{l.counted}</td>
              <td>{l.difference && l.difference > 0 ? `+${l.difference}` : l.difference}</td>
              <td>{l.commit ? `${l.commit.state}${l.commit.errors ? `: ${Object.values(l.commit.errors).join(' ')}` : ''}` : l.zeroed ? 'set to 0' : ''}</td>
            </tr>
          ))}
        </tbody>
      </table>

      <h3>Expected but not scanned ({notScanned.length})</h3>
      {notScanned.length === 0 ? (
        <p className="st-muted">None.</p>
      ) : (
        <table className="st-table" data-testid="not-scanned">
          <tbody>
            {notScanned.map((n) => (
              <tr key={n.barcode} data-testid="not-scanned-line" data-barcode={n.barcode}>
                <td>
                  <code>{n.barcode}</code>
                </td>
                <td>{n.name}</td>
                <td>book {n.book_quantity}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}

      <h3>Unknown barcodes ({unknown.length})</h3>
      {unknown.length === 0 ? (
        <p className="st-muted">None.</p>
      ) : (
        <ul data-testid="review-unknown">
          {unknown.map((u) => (
            <li key={u.id} data-barcode={u.barcode}>
              <code>{u.barcode}</code> scanned {u.counted} — {u.resolution}
            </li>
          ))}
        </ul>
      )}

      {stocktake.status !== 'committed' ? (
        <section className="st-commit">
          <h3>Commit</h3>
          <p>Each counted line becomes the new quantity{stocktake.warehouse_name ? ` in ${stocktake.warehouse_name}` : ''}. Unknown barcodes are not applied.</p>
          <label>
            <input type="checkbox" checked={zero} disabled={stocktake.status === 'committing'} onChange={(e) => setZero(e.target.checked)} data-testid="zero-uncounted" />{' '}
            Also set the {notScanned.length} expected but not scanned to 0
          </label>
          {confirming ? (
            <p className="st-confirm" data-testid="confirm-panel">
              Apply {lines.length} count(s){zero ? ` and set ${notScanned.length} line(s) to 0` : ''}? This changes the stock and cannot be undone.{' '}
              <button type="button" onClick={commit} disabled={busy} data-testid="confirm-commit">
                {busy ? 'Committing…' : 'Yes, commit'}
              </button>{' '}
              <button type="button" onClick={() => setConfirming(false)} disabled={busy}>
                Cancel
              </button>
            </p>
          ) : (
            <button type="button" onClick={() => setConfirming(true)} data-testid="commit-button">
              {stocktake.status === 'committing' ? 'Resume the commit…' : 'Commit…'}
            </button>
          )}
        </section>
      ) : null}
      {error ? <p className="st-error">{error}</p> : null}
      {result ? (
        <section data-testid="commit-result" data-applied={result.applied} data-failed={result.failed}>
          <p className={result.failed > 0 ? 'st-error' : 'banner banner-ok'}>
            Applied {result.applied} line(s){result.failed > 0 ? `; ${result.failed} failed` : ''}.
          </p>
          {result.errors.length > 0 ? (
            <table className="st-table">
              <tbody>
                {result.errors.map((e) => (
                  <tr key={e.line}>
                    <td>
                      <code>{String((e.data as { barcode?: string }).barcode ?? '')}</code>
                    </td>
                    <td>{Object.values(e.errors).join(' ')}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : null}
        </section>
      ) : null}
      {stocktake.status === 'committed' ? (
        <p className="st-muted">
          Committed {stocktake.committed_at ? new Date(stocktake.committed_at).toLocaleString() : ''}: this stocktake is read-only and kept.
        </p>
      ) : null}
    </main>
  );
}
