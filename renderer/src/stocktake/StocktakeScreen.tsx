// Stocktakes, shown instead of the scanner while the address ends in #stocktake…: the account's
// sessions and a form to start one; a chosen session opens its count view, then its review.
import { type FormEvent, type ReactNode, useEffect, useState } from 'react';
import type { Stocktake, Warehouse } from '../../../shared/index.ts';
import { ApiError } from '../api/request-json.ts';
import { useSession } from '../api/session-context.tsx';
import { WarehouseSelect } from '../common/WarehouseSelect.tsx';
import { CountView } from './CountView.tsx';
import { ReviewView } from './ReviewView.tsx';
import { go, stocktakeHref, useStocktakeRoute } from './stocktake-route.ts';
import './stocktake.css';

/** Renders the stocktake views on their addresses, `otherwise` (the scanner) elsewhere. */
export function StocktakeRouter({ onSignOut, otherwise }: { onSignOut: (message?: string) => void; otherwise: ReactNode }) {
  const { account } = useSession();
  const route = useStocktakeRoute();
  if (!route) return <>{otherwise}</>;
  const failed = (error: unknown) => {
    if (error instanceof ApiError && error.unauthorized) onSignOut(`Signed out: ${error.message}`);
  };
  return (
    <div className="stocktake">
      <header className="topbar">
        <h1>Stocktake</h1>
        <span className="account" data-testid="account">
          {account.account}
        </span>
        <nav className="st-nav">
          <a href={stocktakeHref({ view: 'list' })}>All stocktakes</a>
          <a href="#" onClick={() => go(null)} data-testid="scanner-nav">
            Scanner
          </a>
        </nav>
      </header>
      {route.view === 'list' ? <StocktakeList onFailure={failed} /> : null}
      {route.view === 'count' ? <CountView key={route.id} id={route.id} onFailure={failed} /> : null}
      {route.view === 'review' ? <ReviewView key={route.id} id={route.id} onFailure={failed} /> : null}
    </div>
  );
}

function StocktakeList({ onFailure }: { onFailure: (error: unknown) => void }) {
  const session = useSession();
  const withWarehouses = session.account.warehouses_enabled;
  const [sessions, setSessions] = useState<Stocktake[] | null>(null);
  const [warehouses, setWarehouses] = useState<Warehouse[]>([]);
  const [name, setName] = useState('');
  const [warehouse, setWarehouse] = useState('');
  const [blind, setBlind] = useState(false);
  const [message, setMessage] = useState<string | null>(null);

  useEffect(() => {
    session.client.stocktake.list().then(setSessions, (e: unknown) => {
      setMessage((e as Error).message);
      onFailure(e);
    });
    if (withWarehouses) {
      session.client.warehouses().then((list) => {
        setWarehouses(list);
        setWarehouse((w) => w || list[0]?.name || '');
      }, onFailure);
    }
  }, [session, withWarehouses, onFailure]);

  const start = (event: FormEvent) => {
    event.preventDefault();
    setMessage(null);
    session.client.stocktake
      .create({ ...(name.trim() ? { name: name.trim() } : {}), ...(withWarehouses ? { warehouse_name: warehouse } : {}), blind })
      .then((created) => go({ view: 'count', id: created.id }), (e: unknown) => setMessage((e as Error).message));
  };

  return (
    <main className="st-main">
      <form className="st-form" onSubmit={start} data-testid="new-stocktake">
        <h2>Start a stocktake</h2>
        <label>
          Name <input value={name} onChange={(e) => setName(e.target.value)} placeholder="e.g. Shelf A" data-testid="stocktake-name" />
        </label>
        {withWarehouses ? <WarehouseSelect warehouses={warehouses} value={warehouse} onChange={setWarehouse} testId="stocktake-warehouse" /> : null}
        <label>
          <input type="checkbox" checked={blind} onChange={(e) => setBlind(e.target.checked)} data-testid="stocktake-blind" /> Blind count (hide
          the book quantity while counting)
        </label>
        <button type="submit" data-testid="create-stocktake">
          Start counting
        </button>
        {message ? <p className="st-error">{message}</p> : null}
      </form>
      <h2>Stocktakes</h2>
      {sessions === null ? (
        <p className="st-muted">Loading…</p>
      ) : sessions.length === 0 ? (
        <p className="st-muted">None yet.</p>
      ) : (
        <table className="st-table">
          <thead>
            <tr>
              <th>name</th>
              <th>warehouse</th>
              <th>status</th>
              <th>lines</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {sessions.map((s) => (
              <tr key={s.id} data-testid="stocktake-row" data-id={s.id} data-status={s.status}>
                <td>{s.name}</td>
                <td>{s.warehouse_name ?? ''}</td>
                <td>{s.status}</td>
                <td>
                  {s.totals.known_lines} + {s.totals.unknown_lines} unknown
                </td>
                <td>
                  {s.status === 'open' ? <a href={stocktakeHref({ view: 'count', id: s.id })}>Count</a> : null}{' '}
                  <a href={stocktakeHref({ view: 'review', id: s.id })}>Review</a>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </main>
  );
}
