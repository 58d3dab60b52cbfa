// An item's stock over time in its history (docs/REORDER.md, "Stock over time"): one line per
// warehouse of the quantity after each movement, the last 7, 30 or 90 days or all, each movement a
// point that says when, how many and why: in its title on hover, and in the details line under the
// chart when tapped or stepped to with the arrows (common/chart-parts.tsx); counts drawn as squares.
// Plain SVG: a few hundred points at most (the server downsamples) need no chart library. The same
// figures are a table for screen readers.
import { useEffect, useState } from 'react';
import { CHART_RANGES, type ChartRange, type StockChart as Chart } from '../../../shared/index.ts';
import { useSession } from '../api/session-context.tsx';
import {
  CHART_COLOURS as COLOURS,
  CHART_PAD as PAD,
  CHART_WIDTH as WIDTH,
  ChartDetails,
  ChartSvg,
  ValueAxis,
  nearestIndex,
  valueY,
} from '../common/chart-parts.tsx';
import { formatDateTime, formatNumber } from '../common/format.ts';
import { chartTexts as texts, historyTexts } from '../common/texts.ts';

export function StockChart({ barcode }: { barcode: string }) {
  const { client } = useSession();
  const [range, setRange] = useState<ChartRange>('30d');
  const [chart, setChart] = useState<Chart | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [picked, setPicked] = useState<number | null>(null);
  useEffect(() => {
    let current = true;
    setError(null);
    setPicked(null);
    client.stockChart(barcode, range).then(
      (answer) => current && setChart(answer),
      (e: unknown) => current && setError((e as Error).message),
    );
    return () => {
      current = false;
    };
  }, [client, barcode, range]);

  const series = chart?.series ?? [];
  const times = series.flatMap((s) => s.points.map((p) => Date.parse(p.at)));
  const quantities = series.flatMap((s) => [...s.points.map((p) => p.quantity), ...(s.start === null ? [] : [s.start])]);
  const from = chart?.since ? Date.parse(chart.since) : Math.min(...times);
  const to = Math.max(from + 1, ...times, chart?.since ? Date.now() : from + 1);
  const low = Math.min(0, ...quantities);
  const high = Math.max(1, ...quantities);
  const x = (t: number) => PAD.left + ((t - from) / (to - from)) * (WIDTH - PAD.left - PAD.right);
  const y = (q: number) => valueY(q, low, high);
  const titleOf = (p: Chart['series'][number]['points'][number]) =>
    texts.point(
      formatDateTime(p.at),
      formatNumber(p.quantity),
      historyTexts.kind(p.kind, p.value),
      historyTexts.source(p.source),
      p.reason,
      p.reference,
    );
  // Every point of every warehouse in time order: what a tap or the arrows pick from.
  const picks = series
    .flatMap((s, i) => s.points.map((p, j) => ({ series: i, index: j, point: p, at: Date.parse(p.at) })))
    .sort((a, b) => a.at - b.at);
  const shown = picked === null ? undefined : picks[picked];
  const details = shown
    ? `${series.length > 1 ? `${series[shown.series]!.warehouse_name ?? texts.stock}: ` : ''}${titleOf(shown.point)}`
    : null;

  return (
    <section className="stock-chart" data-testid="stock-chart" aria-label={texts.title}>
      <div className="chart-ranges" role="group" aria-label={texts.period}>
        {CHART_RANGES.map((r) => (
          <button key={r} type="button" aria-pressed={r === range} onClick={() => setRange(r)} data-range={r}>
            {texts.range(r)}
          </button>
        ))}
      </div>
      {error ? <p className="error-text">{error}</p> : null}
      {chart && series.every((s) => s.points.length === 0) ? <p className="muted">{texts.none}</p> : null}
      {chart && series.some((s) => s.points.length > 0) ? (
        <>
          <ChartSvg
            testId="chart-svg"
            onPick={(event) =>
              setPicked(
                nearestIndex(
                  event,
                  picks.map((p) => x(p.at)),
                ),
              )
            }
          >
            <ValueAxis low={low} high={high} />
            {series.map((s, i) => {
              const colour = COLOURS[i % COLOURS.length]!;
              // A step line: the quantity holds until the next movement.
              const steps: string[] = [];
              let last = s.start;
              if (last !== null) steps.push(`${x(from)},${y(last)}`);
              for (const p of s.points) {
                const px = x(Date.parse(p.at));
                if (last !== null) steps.push(`${px},${y(last)}`);
                steps.push(`${px},${y(p.quantity)}`);
                last = p.quantity;
              }
              if (last !== null) steps.push(`${x(to)},${y(last)}`);
              return (
                <g key={s.warehouse ?? 0} data-warehouse={s.warehouse_name ?? ''}>
                  <polyline points={steps.join(' ')} fill="none" stroke={colour} strokeWidth={2.5} />
                  {s.points.map((p, j) => {
                    const title = titleOf(p);
                    const cx = x(Date.parse(p.at));
                    const cy = y(p.quantity);
                    return p.kind === 'count' ? (
                      <rect key={j} x={cx - 7} y={cy - 7} width={14} height={14} fill={colour} data-testid="chart-point" data-kind="count">
                        <title>{title}</title>
                      </rect>
                    ) : (
                      <circle key={j} cx={cx} cy={cy} r={6} fill={colour} data-testid="chart-point" data-kind={p.kind}>
                        <title>{title}</title>
                      </circle>
                    );
                  })}
                </g>
              );
            })}
            {shown ? (
              <circle
                cx={x(shown.at)}
                cy={y(shown.point.quantity)}
                r={12}
                fill="none"
                stroke="#1c1c1c"
                strokeWidth={3}
                data-testid="chart-picked"
              />
            ) : null}
          </ChartSvg>
          <ChartDetails count={picks.length} picked={picked} onPick={setPicked} text={details} />
          <ul className="chart-legend">
            {series.map((s, i) => (
              <li key={s.warehouse ?? 0}>
                <span className="chart-swatch" style={{ background: COLOURS[i % COLOURS.length] }} aria-hidden="true" />
                {s.warehouse_name ?? texts.stock} {s.downsampled ? texts.downsampled(s.points.length, s.movements) : null}
              </li>
            ))}
          </ul>
          {/* A table keeps its content's width whatever its own: the wrapper is what is hidden. */}
          <div className="visually-hidden">
            <table data-testid="chart-table">
              <caption>{texts.title}</caption>
              <thead>
                <tr>
                  <th scope="col">{texts.when}</th>
                  <th scope="col">{texts.where}</th>
                  <th scope="col">{texts.quantity}</th>
                  <th scope="col">{texts.what}</th>
                </tr>
              </thead>
              <tbody>
                {series.flatMap((s) =>
                  s.points.map((p, j) => (
                    <tr key={`${s.warehouse ?? 0}-${j}`}>
                      <td>{formatDateTime(p.at)}</td>
                      <td>{s.warehouse_name ?? ''}</td>
                      <td>{formatNumber(p.quantity)}</td>
                      <td>
                        {historyTexts.kind(p.kind, p.value)} · {historyTexts.source(p.source)}
                      </td>
                    </tr>
                  )),
                )}
              </tbody>
            </table>
          </div>
        </>
      ) : null}
    </section>
  );
}
