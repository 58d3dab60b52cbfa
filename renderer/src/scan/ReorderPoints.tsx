// A barcode's reorder points on its stock card (docs/REORDER.md): the card marks a warehouse whose
// quantity is at or below its minimum, and a manager sets the minimum (and what to order up to) right
// there: scan, type the minimum, Enter.
import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { MAX_QUANTITY, MAY, type ReorderPoint, parseQuantity } from '../../../shared/index.ts';
import { useMay, useSession } from '../api/session-context.tsx';
import { reorderTexts as texts } from '../common/texts.ts';

/** The reorder points of `barcode` (none until they arrive; a failed read shows none: the card still shows the stock). */
export function useReorderPoints(barcode: string | null): [ReorderPoint[], (points: ReorderPoint[]) => void] {
  const { client } = useSession();
  const may = useMay();
  const [points, setPoints] = useState<ReorderPoint[]>([]);
  useEffect(() => {
    if (barcode === null || !may(MAY.lowStock)) return;
    let current = true;
    client.reorderPoints([barcode]).then(
      (found) => current && setPoints(found),
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [client, barcode, may]);
  return [points, setPoints];
}

/** The mark beside a quantity: "Low · minimum 5", or the minimum alone while the quantity is above it. */
export function ReorderMark({ point }: { point: ReorderPoint | undefined }) {
  if (!point) return null;
  return (
    <span className={point.low ? 'reorder-mark low' : 'reorder-mark'} data-testid="reorder-mark" data-low={point.low}>
      {point.low ? <strong className="low-badge">{texts.low}</strong> : null} {texts.minimum(point.minimum)}
    </span>
  );
}

/** A level as typed: empty is none; otherwise a whole number from 0 to MAX_QUANTITY, or undefined when it is not one. */
function typedLevel(text: string): number | null | undefined {
  if (text.trim() === '') return null;
  const value = parseQuantity(text.trim());
  return typeof value === 'number' && value >= 0 && value <= MAX_QUANTITY ? value : undefined;
}

/** Sets the minimum (and target) of `barcode` in `warehouse` (undefined: the account keeps one figure); a manager's. */
export function ReorderForm(props: {
  barcode: string;
  warehouse: string | undefined;
  point: ReorderPoint | undefined;
  onSaved: (points: ReorderPoint[]) => void;
}) {
  const { client } = useSession();
  const may = useMay();
  const { barcode, warehouse, point, onSaved } = props;
  const [minimum, setMinimum] = useState(point ? String(point.minimum) : '');
  const [target, setTarget] = useState(point?.target != null ? String(point.target) : '');
  const [message, setMessage] = useState<{ tone: 'ok' | 'error'; text: string } | null>(null);
  useEffect(() => {
    setMinimum(point ? String(point.minimum) : '');
    setTarget(point?.target != null ? String(point.target) : '');
  }, [point]);

  const save = useCallback(
    (event: FormEvent) => {
      event.preventDefault();
      const min = typedLevel(minimum);
      const upTo = typedLevel(target);
      if (min === undefined || upTo === undefined) return setMessage({ tone: 'error', text: texts.notANumber });
      if (min !== null && upTo !== null && upTo < min) return setMessage({ tone: 'error', text: texts.targetBelowMinimum });
      client
        .setReorderPoints([{ barcode, ...(warehouse === undefined ? {} : { warehouse_name: warehouse }), minimum: min, target: upTo }])
        .then(
          (points) => {
            onSaved(points);
            setMessage({ tone: 'ok', text: min === null ? texts.removed : texts.saved(min) });
          },
          (error: unknown) => setMessage({ tone: 'error', text: (error as Error).message }),
        );
    },
    [client, barcode, warehouse, minimum, target, onSaved],
  );

  if (!may(MAY.setReorderPoints)) return null;
  const id = `reorder-${barcode}-${warehouse ?? ''}`.replace(/[^\w-]/g, '_');
  return (
    <form
      className="reorder-form"
      onSubmit={save}
      data-testid="reorder-form"
      aria-label={warehouse ? texts.formTitleIn(warehouse) : texts.formTitle}
    >
      <span className="reorder-form-title">{warehouse ? texts.formTitleIn(warehouse) : texts.formTitle}</span>
      <label htmlFor={`${id}-min`}>{texts.minimumLabel}</label>
      <input
        id={`${id}-min`}
        data-testid="reorder-minimum"
        inputMode="numeric"
        autoComplete="off"
        value={minimum}
        onChange={(e) => setMinimum(e.target.value)}
      />
      <label htmlFor={`${id}-target`}>{texts.targetLabel}</label>
      <input
        id={`${id}-target`}
        data-testid="reorder-target"
        inputMode="numeric"
        autoComplete="off"
        value={target}
        onChange={(e) => setTarget(e.target.value)}
      />
      <button type="submit" data-testid="reorder-save">
        {texts.save}
      </button>
      {message ? (
        <p className={`reorder-message ${message.tone}`} role="status" data-testid="reorder-message">
          {message.text}
        </p>
      ) : null}
    </form>
  );
}
