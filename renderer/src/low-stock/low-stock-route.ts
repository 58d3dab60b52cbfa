// The low-stock view lives at `#low-stock`, the movements per day at `#per-day` (common/hash-route.ts).
import { useHashRoute } from '../common/hash-route.ts';

export const LOW_STOCK_HREF = '#low-stock';
export const PER_DAY_HREF = '#per-day';

export const useLowStockRoute = (): boolean => useHashRoute('low-stock');
export const usePerDayRoute = (): boolean => useHashRoute('per-day');
