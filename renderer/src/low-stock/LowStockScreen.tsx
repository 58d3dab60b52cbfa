// The low-stock view (`#low-stock`, docs/REORDER.md): everything at or below its minimum, most urgent
// first, with what to order; one warehouse or all; more pages on demand; the same list as CSV for the
// supplier. The numbers a person orders by are large and come first on a phone.
import { useEffect, useState } from 'react';
import { type LowStockEntry, MAY } from '../../../shared/index.ts';
import { useMay, useSession } from '../api/session-context.tsx';
import { perDayTexts, reorderTexts as texts } from '../common/texts.ts';
import { TopBar } from '../common/TopBar.tsx';
import { PER_DAY_HREF } from './low-stock-route.ts';
import { ViewHeading, WarehouseFilter, useViewFailure } from './view-parts.tsx';

function download(file: Blob, name: string): void {
  const link = document.createElement('a');
  link.href = URL.createObjectURL(file);
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
}

export function LowStockScreen({ onSignOut }: { onSignOut: (message?: string) => void }) {
  const { client, account } = useSession();
  const [warehouse, setWarehouse] = useState<number | undefined>(undefined);
  const [entries, setEntries] = useState<LowStockEntry[] | null>(null);
  const [next, setNext] = useState<string | null>(null);
  const { problem, setProblem, failed } = useViewFailure(onSignOut);
  const mayReadHistory = useMay()(MAY.history);

  useEffect(() => {
    let current = true;
    setEntries(null);
    client.lowStock({ ...(warehouse === undefined ? {} : { warehouse }) }).then((page) => {
      if (!current) return;
      setEntries(page.results);
      setNext(page.next_cursor);
      setProblem(null);
    }, failed);
    return () => {
      current = false;
    };
  }, [client, warehouse, failed, setProblem]);

  const more = () => {
    if (next === null) return;
    client.lowStock({ cursor: next, ...(warehouse === undefined ? {} : { warehouse }) }).then((page) => {
      setEntries((shown) => [...(shown ?? []), ...page.results]);
      setNext(page.next_cursor);
    }, failed);
  };

  return (
    <div className="app low-stock-view">
      <TopBar view="low-stock" onSignOut={() => onSignOut()} />
      <main className="content">
        <ViewHeading title={texts.title} intro={texts.intro} problem={problem} problemTestId="low-stock-problem" />
        <div className="low-stock-controls">
          <WarehouseFilter value={warehouse} onChange={setWarehouse} failed={failed} testId="low-stock-warehouse" />
          <button
            type="button"
            data-testid="low-stock-csv"
            onClick={() => client.lowStockCsv(warehouse).then((csv) => download(csv, 'low-stock.csv'), failed)}
          >
            {texts.csv}
          </button>
          {/* What moved each day is read from the history: managers'. */}
          {mayReadHistory ? (
            <a href={PER_DAY_HREF} data-testid="per-day-link">
              {perDayTexts.title}
            </a>
          ) : null}
        </div>
        {entries === null ? (
          <p className="muted">{texts.loading}</p>
        ) : entries.length === 0 ? (
          <p className="notice notice-ok" data-testid="nothing-low">
            {texts.nothingLow}
          </p>
        ) : (
          <table className="low-stock-table" data-testid="low-stock-table">
            <thead>
              <tr>
                <th scope="col">{texts.item}</th>
                {account.warehouses_enabled ? <th scope="col">{texts.where}</th> : null}
                <th scope="col" className="num">
                  {texts.inStock}
                </th>
                <th scope="col" className="num">
                  {texts.minimumColumn}
                </th>
                <th scope="col" className="num">
                  {texts.sold}
                </th>
                <th scope="col" className="num">
                  {texts.toOrder}
                </th>
              </tr>
            </thead>
            <tbody>
              {entries.map((e) => (
                <tr key={`${e.barcode}\u0000${e.warehouse ?? ''}`} data-barcode={e.barcode} data-warehouse={e.warehouse_name ?? ''}>
                  <th scope="row">
                    <span className="low-stock-name">{e.variant_name === null ? e.item_name : `${e.item_name} · ${e.variant_name}`}</span>
                    <code className="low-stock-barcode">{e.barcode}</code>
                  </th>
                  {account.warehouses_enabled ? <td data-label={texts.where}>{e.warehouse_name}</td> : null}
                  <td className="num" data-label={texts.inStock}>
                    {texts.number(e.quantity)}
                  </td>
                  <td className="num" data-label={texts.minimumColumn}>
                    {texts.number(e.minimum)}
                  </td>
                  <td className="num" data-label={texts.sold}>
                    {texts.number(e.sold)}
                  </td>
                  <td className="num order" data-label={texts.toOrder} data-testid="suggested-order">
                    {texts.number(e.suggested_order)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {next !== null ? (
          <button type="button" data-testid="low-stock-more" onClick={more}>
            {texts.more}
          </button>
        ) : null}
      </main>
    </div>
  );
}
