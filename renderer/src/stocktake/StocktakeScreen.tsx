// Stocktakes, shown instead of the scanner while the address ends in #stocktake…: the account's
// sessions and a form to start one; a chosen session opens its count view, then its review. Same top
// bar, banners, tables and buttons as the scanner.
import { type FormEvent, type ReactNode, useCallback, useEffect, useState } from 'react';
import { MAY, type Stocktake, type Warehouse } from '../../../shared/index.ts';
import { ApiError } from '../api/request-json.ts';
import { useMay, useSession } from '../api/session-context.tsx';
import { formatDateTime } from '../common/format.ts';
import { appTexts, roleTexts, stocktakeTexts as texts } from '../common/texts.ts';
import { TopBar } from '../common/TopBar.tsx';
import { WarehouseSelect } from '../common/WarehouseSelect.tsx';
import { CountView } from './CountView.tsx';
import type { OnFailure } from './on-failure.ts';
import { ReviewView } from './ReviewView.tsx';
import { go, stocktakeHref, useStocktakeRoute } from './stocktake-route.ts';

/** Renders the stocktake views on their addresses, `otherwise` (the scanner) elsewhere. */
export function StocktakeRouter({ onSignOut, otherwise }: { onSignOut: (message?: string) => void; otherwise: ReactNode }) {
  const route = useStocktakeRoute();
  const [problem, setProblem] = useState<string | null>(null);
  // One stable handler: views depend on it, and a new one every render would refetch and restart their timers.
  const failed = useCallback<OnFailure>(
    (error) => {
      if (error instanceof ApiError && error.unauthorized) onSignOut(appTexts.signedOut(error.message));
      else setProblem((error as Error).message);
    },
    [onSignOut],
  );
  const routeKey = route ? `${route.view}:${'id' in route ? route.id : ''}` : '';
  useEffect(() => setProblem(null), [routeKey]);
  if (!route) return <>{otherwise}</>;
  return (
    <div className="app stocktake">
      <TopBar view="stocktake" onSignOut={() => onSignOut()} />
      <main className="content">
        {route.view !== 'list' ? (
          <nav className="breadcrumbs" aria-label={texts.title}>
            <a href={stocktakeHref({ view: 'list' })}>{texts.all}</a>
          </nav>
        ) : null}
        {problem ? (
          <p className="notice notice-error" role="alert" data-testid="stocktake-problem">
            {problem}
          </p>
        ) : null}
        {route.view === 'list' ? <StocktakeList onFailure={failed} /> : null}
        {route.view === 'count' ? <CountView key={route.id} id={route.id} onFailure={failed} /> : null}
        {route.view === 'review' ? <ReviewView key={route.id} id={route.id} onFailure={failed} /> : null}
      </main>
    </div>
  );
}

function StocktakeList({ onFailure }: { onFailure: OnFailure }) {
  const session = useSession();
  const may = useMay();
  // Starting is a manager's, and so is the review: a counter counts into the sessions a manager started.
  const mayStart = may(MAY.startStocktake);
  const withWarehouses = session.account.warehouses_enabled;
  const [sessions, setSessions] = useState<Stocktake[] | null>(null);
  const [warehouses, setWarehouses] = useState<Warehouse[]>([]);
  const [name, setName] = useState('');
  const [warehouse, setWarehouse] = useState('');
  const [blind, setBlind] = useState(false);
  const [message, setMessage] = useState<string | null>(null);

  useEffect(() => {
    session.client.stocktake.list().then(setSessions, onFailure);
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
      .then(
        (created) => go({ view: 'count', id: created.id }),
        (e: unknown) => setMessage((e as Error).message),
      );
  };

  return (
    <>
      {mayStart ? null : (
        <p className="muted" data-testid="manager-starts">
          {roleTexts.managerStarts}
        </p>
      )}
      <section className="card form-card" aria-labelledby="new-stocktake-title" hidden={!mayStart}>
        <form className="stack-form" onSubmit={start} data-testid="new-stocktake">
          <h2 id="new-stocktake-title">{texts.start}</h2>
          <label>
            {texts.name}
            <input
              value={name}
              onChange={(e) => setName(e.target.value)}
              placeholder={texts.namePlaceholder}
              data-testid="stocktake-name"
            />
          </label>
          {withWarehouses ? (
            <WarehouseSelect
              className="field"
              warehouses={warehouses}
              value={warehouse}
              onChange={setWarehouse}
              testId="stocktake-warehouse"
            />
          ) : null}
          <label className="check">
            <input type="checkbox" checked={blind} onChange={(e) => setBlind(e.target.checked)} data-testid="stocktake-blind" />{' '}
            {texts.blind}
          </label>
          <div className="button-row">
            <button type="submit" className="primary" data-testid="create-stocktake">
              {texts.startButton}
            </button>
          </div>
          {message ? (
            <p className="error-text" role="alert">
              {message}
            </p>
          ) : null}
        </form>
      </section>
      <section aria-labelledby="stocktakes-title">
        <h2 id="stocktakes-title">{texts.sessions}</h2>
        {sessions === null ? (
          <p className="muted">{texts.loading}</p>
        ) : sessions.length === 0 ? (
          <p className="muted">{texts.none}</p>
        ) : (
          <div className="table-scroll">
            <table className="table stack">
              <thead>
                <tr>
                  <th scope="col">{texts.columns.name}</th>
                  {withWarehouses ? <th scope="col">{texts.columns.warehouse}</th> : null}
                  <th scope="col">{texts.columns.status}</th>
                  <th scope="col">{texts.columns.lines}</th>
                  <th scope="col">{texts.columns.started}</th>
                  <th scope="col">{texts.columns.open}</th>
                </tr>
              </thead>
              <tbody>
                {sessions.map((s) => (
                  <tr key={s.id} data-testid="stocktake-row" data-id={s.id} data-status={s.status}>
                    <td className="cell-item">
                      <strong>{s.name}</strong>
                    </td>
                    {withWarehouses ? <td data-label={texts.columns.warehouse}>{s.warehouse_name ?? ''}</td> : null}
                    <td data-label={texts.columns.status}>
                      <span className={`badge badge-${s.status}`}>{texts.status(s.status)}</span>
                    </td>
                    <td data-label={texts.columns.lines}>{texts.lines(s.totals.known_lines, s.totals.unknown_lines)}</td>
                    <td data-label={texts.columns.started}>{formatDateTime(s.created_at)}</td>
                    <td className="links">
                      {s.status === 'open' ? <a href={stocktakeHref({ view: 'count', id: s.id })}>{texts.count}</a> : null}
                      {may(MAY.commitStocktake) ? <a href={stocktakeHref({ view: 'review', id: s.id })}>{texts.review}</a> : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </>
  );
}
