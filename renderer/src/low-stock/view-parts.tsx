// What the low-stock view and the movements per day share: the account's warehouses as a filter
// ("All warehouses" or one), the view's heading, and a failure shown on the view (a token no
// longer valid signs out).
import { useCallback, useEffect, useState } from 'react';
import type { Warehouse } from '../../../shared/index.ts';
import { ApiError } from '../api/request-json.ts';
import { useSession } from '../api/session-context.tsx';
import { appTexts, reorderTexts } from '../common/texts.ts';

/** The view's problem to show (null: none), and the handler its calls fail into. */
export function useViewFailure(onSignOut: (message?: string) => void) {
  const [problem, setProblem] = useState<string | null>(null);
  const failed = useCallback(
    (error: unknown) => {
      if (error instanceof ApiError && error.unauthorized) onSignOut(appTexts.signedOut(error.message));
      else setProblem((error as Error).message);
    },
    [onSignOut],
  );
  return { problem, setProblem, failed };
}

/** A view's title, what it shows, and its problem when it has one (`problemTestId` names the notice). */
export function ViewHeading(props: { title: string; intro: string; problem: string | null; problemTestId: string }) {
  return (
    <>
      <h2 className="view-title">{props.title}</h2>
      <p className="muted">{props.intro}</p>
      {props.problem ? (
        <p className="notice notice-error" role="alert" data-testid={props.problemTestId}>
          {props.problem}
        </p>
      ) : null}
    </>
  );
}

/** "All warehouses" or one of the account's; nothing for an account without warehouses. */
export function WarehouseFilter(props: {
  value: number | undefined;
  onChange: (warehouse: number | undefined) => void;
  failed: (error: unknown) => void;
  testId: string;
}) {
  const { client, account } = useSession();
  const [warehouses, setWarehouses] = useState<Warehouse[]>([]);
  const { failed } = props;
  useEffect(() => {
    if (account.warehouses_enabled) client.warehouses().then(setWarehouses, failed);
  }, [client, account.warehouses_enabled, failed]);
  if (!account.warehouses_enabled) return null;
  return (
    <label>
      {appTexts.warehouse}{' '}
      <select
        data-testid={props.testId}
        value={props.value ?? ''}
        onChange={(e) => props.onChange(e.target.value === '' ? undefined : Number(e.target.value))}
      >
        <option value="">{reorderTexts.allWarehouses}</option>
        {warehouses.map((w) => (
          <option key={w.id} value={w.id}>
            {w.name}
          </option>
        ))}
      </select>
    </label>
  );
}
