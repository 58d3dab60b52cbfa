// The sync view lives at `#sync`, like the stocktake views under `#stocktake` (common/hash-route.ts).
import { useHashRoute } from '../common/hash-route.ts';

export const SYNC_HREF = '#sync';

export const useSyncRoute = (): boolean => useHashRoute('sync');
