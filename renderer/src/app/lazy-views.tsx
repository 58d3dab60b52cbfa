// The views a device opens now and then (People, Sync, Low stock, Movements per day) load when first
// opened, not with the scanner: the page a shop PC or a phone loads first stays small (the build's
// main chunk had grown past 500 kB). Each router shows its view at its hash, `otherwise` elsewhere.
import { type ReactNode, Suspense, lazy } from 'react';
import { MAY } from '../../../shared/index.ts';
import { useMay } from '../api/session-context.tsx';
import { useLowStockRoute, usePerDayRoute } from '../low-stock/low-stock-route.ts';
import { usePeopleRoute } from '../people/people-route.ts';
import { useSyncRoute } from '../sync/sync-route.ts';

const PeopleScreen = lazy(async () => ({ default: (await import('../people/PeopleScreen.tsx')).PeopleScreen }));
const SyncScreen = lazy(async () => ({ default: (await import('../sync/SyncScreen.tsx')).SyncScreen }));
const LowStockScreen = lazy(async () => ({ default: (await import('../low-stock/LowStockScreen.tsx')).LowStockScreen }));
const PerDayScreen = lazy(async () => ({ default: (await import('../low-stock/PerDayScreen.tsx')).PerDayScreen }));

interface RouterProps {
  onSignOut: (message?: string) => void;
  otherwise: ReactNode;
}

function shownOr(shown: boolean, view: ReactNode, otherwise: ReactNode) {
  return shown ? <Suspense fallback={null}>{view}</Suspense> : <>{otherwise}</>;
}

/** The People view on `#people` for a role that may manage people. */
export function PeopleRouter({ onSignOut, otherwise }: RouterProps) {
  const shown = usePeopleRoute();
  const may = useMay()(MAY.people);
  return shownOr(shown && may, <PeopleScreen onSignOut={onSignOut} />, otherwise);
}

export function SyncRouter({ onSignOut, otherwise }: RouterProps) {
  return shownOr(useSyncRoute(), <SyncScreen onSignOut={onSignOut} />, otherwise);
}

export function LowStockRouter({ onSignOut, otherwise }: RouterProps) {
  return shownOr(useLowStockRoute(), <LowStockScreen onSignOut={onSignOut} />, otherwise);
}

export function PerDayRouter({ onSignOut, otherwise }: RouterProps) {
  return shownOr(usePerDayRoute(), <PerDayScreen onSignOut={onSignOut} />, otherwise);
}
