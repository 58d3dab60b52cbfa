// The barcodes a stocktake counted that the catalogue does not know, with how often each was scanned
// and what was decided about it (or "None."): one table for the counting page and the review.
import type { StocktakeLine } from '../../../shared/index.ts';
import { formatNumber } from '../common/format.ts';
import { stocktakeTexts as texts } from '../common/texts.ts';

/**
 * With `onResolve` (the counting page) each row offers Ignore and Keep, disabled while `readOnly`,
 * and shows its count in bold like the counted lines above it. Without (the review) nothing is
 * decided here, and the rows still to decide are highlighted instead.
 */
export function UnknownLines({
  lines,
  testId,
  onResolve,
  readOnly = false,
}: {
  lines: readonly StocktakeLine[];
  /** The table's data-testid. */
  testId: string;
  onResolve?: (line: StocktakeLine, resolution: 'ignored' | 'kept') => void;
  readOnly?: boolean;
}) {
  if (lines.length === 0) return <p className="muted">{texts.noneUnknown}</p>;
  return (
    <div className="table-scroll">
      <table className="table stack" data-testid={testId}>
        <thead>
          <tr>
            <th scope="col">{texts.columnsCount.barcode}</th>
            <th scope="col" className="num">
              {texts.columnsCount.scanned}
            </th>
            <th scope="col">{texts.columnsCount.resolution}</th>
            {onResolve ? <th scope="col">{texts.columnsCount.actions}</th> : null}
          </tr>
        </thead>
        <tbody>
          {lines.map((line) => (
            <tr
              key={line.id}
              data-testid={onResolve ? 'unknown-line' : undefined}
              data-barcode={line.barcode}
              data-counted={onResolve ? line.counted : undefined}
              data-resolution={line.resolution}
              className={!onResolve && line.resolution === 'pending' ? 'row-attention' : undefined}
            >
              <td className="cell-item">
                <code>{line.barcode}</code>
              </td>
              <td className="num" data-label={texts.columnsCount.scanned}>
                {onResolve ? <strong>{formatNumber(line.counted)}</strong> : formatNumber(line.counted)}
              </td>
              <td data-label={texts.columnsCount.resolution}>{texts.resolution(line.resolution ?? 'pending')}</td>
              {onResolve ? (
                <td className="actions">
                  <button type="button" onClick={() => onResolve(line, 'ignored')} disabled={readOnly}>
                    {texts.ignore}
                  </button>
                  <button type="button" onClick={() => onResolve(line, 'kept')} disabled={readOnly}>
                    {texts.keep}
                  </button>
                </td>
              ) : null}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
