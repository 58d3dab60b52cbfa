// The warehouse picker of the scanner's top bar and of the new-stocktake form.
import type { Warehouse } from '../../../shared/index.ts';
import { appTexts } from './texts.ts';

export function WarehouseSelect(props: {
  warehouses: readonly Warehouse[];
  value: string;
  onChange: (name: string) => void;
  /** Each screen's tests find its picker by its own test id. */
  testId: string;
  className?: string;
}) {
  const { warehouses, value, onChange, testId, className } = props;
  return (
    <label className={className}>
      <span className="label-text">{appTexts.warehouse}</span>
      <select value={value} onChange={(e) => onChange(e.target.value)} data-testid={testId}>
        {warehouses.map((w) => (
          <option key={w.id} value={w.name}>
            {w.name}
          </option>
        ))}
      </select>
    </label>
  );
}
