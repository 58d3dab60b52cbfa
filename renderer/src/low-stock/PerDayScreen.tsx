// A warehouse's movements per day (`#per-day`, docs/REORDER.md, "Movements per day"), opened from the
// low-stock view: the last 7, 30 or 90 days, one warehouse or all. A bar per day, what was received up
// and what was sold down, the net change a dot, counts and quantities set marked above; a tap on a day
// or the arrows say the day in words (common/chart-parts.tsx); the totals of the period; the same
// figures as a table for screen readers.
import { useEffect, useState } from 'react';
import { type MovementsPerDay, PER_DAY_PERIODS } from '../../../shared/index.ts';
import { useSession } from '../api/session-context.tsx';
import { CHART_PAD as PAD, CHART_WIDTH as WIDTH, ChartDetails, ChartSvg, ValueAxis, nearestIndex, valueY } from '../common/chart-parts.tsx';
import { formatDate, formatDifference, formatNumber } from '../common/format.ts';
import { chartTexts, perDayTexts as texts } from '../common/texts.ts';
import { TopBar } from '../common/TopBar.tsx';
import { ViewHeading, WarehouseFilter, useViewFailure } from './view-parts.tsx';

/** Taller than a card's stock chart: on a phone the bars of 30 days need the height. */
const HEIGHT = 300;
const SOLD = '#b3141b';
const RECEIVED = '#0b7a35';
const COUNTED = '#1f5fbf';
const SET = '#7a4f00';

export function PerDayScreen({ onSignOut }: { onSignOut: (message?: string) => void }) {
  const { client } = useSession();
  const [warehouse, setWarehouse] = useState<number | undefined>(undefined);
  const [days, setDays] = useState<number>(30);
  const [answer, setAnswer] = useState<MovementsPerDay | null>(null);
  const [picked, setPicked] = useState<number | null>(null);
  const { problem, setProblem, failed } = useViewFailure(onSignOut);

  useEffect(() => {
    let current = true;
    client.movementsPerDay({ days, ...(warehouse === undefined ? {} : { warehouse }) }).then((got) => {
      if (!current) return;
      setAnswer(got);
      setPicked(null);
      setProblem(null);
    }, failed);
    return () => {
      current = false;
    };
  }, [client, warehouse, days, failed, setProblem]);

  const list = answer?.days ?? [];
  const high = Math.max(1, ...list.map((d) => Math.max(d.receipts.quantity, d.net)));
  const low = Math.min(-1, ...list.map((d) => Math.min(-d.sales.quantity, d.net)));
  const band = (WIDTH - PAD.left - PAD.right) / Math.max(1, list.length);
  const centre = (i: number) => PAD.left + band * (i + 0.5);
  const y = (v: number) => valueY(v, low, high, HEIGHT);
  const bar = Math.max(2, Math.min(24, band * 0.7));
  const shown = picked === null ? undefined : list[picked];

  return (
    <div className="app per-day-view">
      <TopBar view="per-day" onSignOut={() => onSignOut()} />
      <main className="content">
        <ViewHeading title={texts.title} intro={texts.intro} problem={problem} problemTestId="per-day-problem" />
        <div className="low-stock-controls">
          <WarehouseFilter value={warehouse} onChange={setWarehouse} failed={failed} testId="per-day-warehouse" />
          <div className="chart-ranges" role="group" aria-label={chartTexts.period}>
            {PER_DAY_PERIODS.map((d) => (
              <button key={d} type="button" aria-pressed={d === days} onClick={() => setDays(d)} data-days={d}>
                {chartTexts.range(`${d}d`)}
              </button>
            ))}
          </div>
        </div>
        {answer === null ? null : (
          <section className="stock-chart per-day" data-testid="per-day" aria-label={texts.title}>
            <p className="per-day-period" data-testid="per-day-period">
              {formatDate(answer.from)} – {formatDate(answer.to)}
            </p>
            <ChartSvg
              height={HEIGHT}
              testId="per-day-svg"
              onPick={(event) =>
                setPicked(
                  nearestIndex(
                    event,
                    list.map((_, i) => centre(i)),
                  ),
                )
              }
            >
              {shown ? (
                <rect
                  x={centre(picked!) - band / 2}
                  y={PAD.top}
                  width={band}
                  height={HEIGHT - PAD.top - PAD.bottom}
                  className="chart-picked-band"
                />
              ) : null}
              <ValueAxis low={low} high={high} height={HEIGHT} />
              {list.map((d, i) => (
                <g key={d.date} data-testid="per-day-bar" data-date={d.date}>
                  {d.receipts.quantity > 0 ? (
                    <rect
                      x={centre(i) - bar / 2}
                      y={y(d.receipts.quantity)}
                      width={bar}
                      height={y(0) - y(d.receipts.quantity)}
                      fill={RECEIVED}
                    />
                  ) : null}
                  {d.sales.quantity > 0 ? (
                    <rect x={centre(i) - bar / 2} y={y(0)} width={bar} height={y(-d.sales.quantity) - y(0)} fill={SOLD} />
                  ) : null}
                  {d.counts.movements > 0 ? <rect x={centre(i) - 5} y={PAD.top - 12} width={10} height={10} fill={COUNTED} /> : null}
                  {d.sets.movements > 0 ? (
                    <polygon
                      points={`${centre(i)},${PAD.top - 2} ${centre(i) + 5},${PAD.top + 4} ${centre(i)},${PAD.top + 10} ${centre(i) - 5},${PAD.top + 4}`}
                      fill={SET}
                    />
                  ) : null}
                  {d.net !== 0 ? <circle cx={centre(i)} cy={y(d.net)} r={Math.max(2.5, Math.min(5, bar / 3))} fill="#1c1c1c" /> : null}
                </g>
              ))}
            </ChartSvg>
            <ChartDetails
              count={list.length}
              picked={picked}
              onPick={setPicked}
              text={shown ? texts.details(formatDate(shown.date), shown) : null}
            />
            <ul className="chart-legend">
              <li>
                <span className="chart-swatch" style={{ background: SOLD }} aria-hidden="true" />
                {texts.sold}
              </li>
              <li>
                <span className="chart-swatch" style={{ background: RECEIVED }} aria-hidden="true" />
                {texts.received}
              </li>
              <li>
                <span className="chart-swatch" style={{ background: COUNTED }} aria-hidden="true" />
                {texts.counts}
              </li>
              <li>
                <span className="chart-swatch chart-swatch-diamond" style={{ background: SET }} aria-hidden="true" />
                {texts.sets}
              </li>
              <li>
                <span className="chart-swatch chart-swatch-dot" aria-hidden="true" />
                {texts.net}
              </li>
            </ul>
            <h3 className="per-day-totals-title">{texts.totals}</h3>
            <dl className="per-day-totals" data-testid="per-day-totals">
              <div>
                <dt>{texts.sold}</dt>
                <dd data-kind="sales">{formatNumber(answer.totals.sales.quantity)}</dd>
              </div>
              <div>
                <dt>{texts.received}</dt>
                <dd data-kind="receipts">{formatNumber(answer.totals.receipts.quantity)}</dd>
              </div>
              <div>
                <dt>{texts.counts}</dt>
                <dd data-kind="counts">{formatNumber(answer.totals.counts.movements)}</dd>
              </div>
              <div>
                <dt>{texts.sets}</dt>
                <dd data-kind="sets">{formatNumber(answer.totals.sets.movements)}</dd>
              </div>
              <div>
                <dt>{texts.net}</dt>
                <dd data-kind="net">{formatDifference(answer.totals.net)}</dd>
              </div>
            </dl>
            <div className="visually-hidden">
              <table data-testid="per-day-table">
                <caption>{texts.title}</caption>
                <thead>
                  <tr>
                    <th scope="col">{texts.day}</th>
                    <th scope="col">{texts.sold}</th>
                    <th scope="col">{texts.received}</th>
                    <th scope="col">{texts.counts}</th>
                    <th scope="col">{texts.sets}</th>
                    <th scope="col">{texts.net}</th>
                  </tr>
                </thead>
                <tbody>
                  {list.map((d) => (
                    <tr key={d.date} data-date={d.date}>
                      <th scope="row">{formatDate(d.date)}</th>
                      <td>{formatNumber(d.sales.quantity)}</td>
                      <td>{formatNumber(d.receipts.quantity)}</td>
                      <td>{formatNumber(d.counts.movements)}</td>
                      <td>{formatNumber(d.sets.movements)}</td>
                      <td>{formatDifference(d.net)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </section>
        )}
      </main>
    </div>
  );
}
