// The pieces every chart of the UI is drawn with (plain SVG: the stock over time of a card, the
// movements per day of a warehouse): the drawing's size and margins, its colours, the value axis, and
// the details line. A point's details are text under the chart, not only an SVG title, because a
// phone has no hover: a tap anywhere on the chart picks the nearest point, the arrows beside the line
// step through the points from the keyboard, and the line says what the picked point is.
import type { MouseEvent, ReactNode } from 'react';
import { formatNumber } from './format.ts';
import { chartTexts } from './texts.ts';

export const CHART_WIDTH = 640;
export const CHART_HEIGHT = 220;
export const CHART_PAD = { left: 64, right: 12, top: 16, bottom: 16 };
export const CHART_COLOURS = ['#1f5fbf', '#b3141b', '#0b7a35', '#7a4f00'];

/** The vertical position of value `v` on a chart `height` high whose values run from `low` to `high`. */
export const valueY = (v: number, low: number, high: number, height = CHART_HEIGHT) =>
  CHART_PAD.top + (1 - (v - low) / (high - low)) * (height - CHART_PAD.top - CHART_PAD.bottom);

/** The zero line and the highest and lowest values, left of the plot. */
export function ValueAxis({ low, high, height = CHART_HEIGHT }: { low: number; high: number; height?: number }) {
  const y = (v: number) => valueY(v, low, high, height);
  return (
    <>
      <line x1={CHART_PAD.left} x2={CHART_WIDTH - CHART_PAD.right} y1={y(0)} y2={y(0)} className="chart-zero" />
      <text x={CHART_PAD.left - 8} y={y(high) + 8} textAnchor="end" className="chart-label">
        {formatNumber(high)}
      </text>
      <text x={CHART_PAD.left - 8} y={y(low) + 4} textAnchor="end" className="chart-label">
        {formatNumber(low)}
      </text>
    </>
  );
}

/** The index of the position in `xs` (the drawing's units) nearest to where the chart was tapped or clicked. */
export function nearestIndex(event: MouseEvent<SVGSVGElement>, xs: readonly number[]): number | null {
  if (xs.length === 0) return null;
  const box = event.currentTarget.getBoundingClientRect();
  const x = ((event.clientX - box.left) / box.width) * CHART_WIDTH;
  let best = 0;
  for (let i = 1; i < xs.length; i++) if (Math.abs(xs[i]! - x) < Math.abs(xs[best]! - x)) best = i;
  return best;
}

/** The chart's drawing: hidden from screen readers (the table beside it says the same), tappable. */
export function ChartSvg(props: {
  onPick: (event: MouseEvent<SVGSVGElement>) => void;
  testId: string;
  height?: number;
  children: ReactNode;
}) {
  return (
    <svg
      viewBox={`0 0 ${CHART_WIDTH} ${props.height ?? CHART_HEIGHT}`}
      className="chart-svg"
      aria-hidden="true"
      data-testid={props.testId}
      onClick={props.onPick}
    >
      {props.children}
    </svg>
  );
}

/**
 * What the picked point is, with the arrows that step through the points: `count` points, `picked`
 * the one shown (null: none yet, the hint shows), `text` its details.
 */
export function ChartDetails(props: { count: number; picked: number | null; onPick: (index: number) => void; text: string | null }) {
  const { count, picked, onPick } = props;
  return (
    <div className="chart-details">
      <button
        type="button"
        onClick={() => onPick(picked === null ? count - 1 : Math.max(0, picked - 1))}
        disabled={count === 0 || picked === 0}
        data-testid="chart-previous"
      >
        <span aria-hidden="true">‹</span>
        <span className="visually-hidden">{chartTexts.previous}</span>
      </button>
      <p aria-live="polite" data-testid="chart-details" data-picked={picked ?? ''}>
        {props.text ?? chartTexts.pickHint}
      </p>
      <button
        type="button"
        onClick={() => onPick(picked === null ? 0 : Math.min(count - 1, picked + 1))}
        disabled={count === 0 || picked === count - 1}
        data-testid="chart-next"
      >
        <span aria-hidden="true">›</span>
        <span className="visually-hidden">{chartTexts.next}</span>
      </button>
    </div>
  );
}
