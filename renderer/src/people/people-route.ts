// The People view lives at `#people` (common/hash-route.ts).
import { useHashRoute } from '../common/hash-route.ts';

export const PEOPLE_HREF = '#people';

export const usePeopleRoute = (): boolean => useHashRoute('people');
