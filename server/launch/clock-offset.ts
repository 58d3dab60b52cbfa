// The store's clock moved by $BARCODE_INVENTORY_CLOCK_OFFSET_MS: how tests and simulations play an
// instance whose computer's clock is off. Every process of that instance honours it — `serve`, the
// desktop app and every CLI command — or a `sync now` beside a skewed server would stamp and measure
// with another clock than the server it stands in for.
import type { StoreClock } from '../store/movements/movement-log.ts';

/** For tests and simulations: an instance whose clock is this many milliseconds off. */
export const CLOCK_OFFSET_ENV = 'BARCODE_INVENTORY_CLOCK_OFFSET_MS';

/** The clock the environment asks for; undefined for the computer's own. */
export function clockFromEnvironment(env: NodeJS.ProcessEnv = process.env): StoreClock | undefined {
  const offset = Number(env[CLOCK_OFFSET_ENV] ?? 0);
  return Number.isFinite(offset) && offset !== 0 ? { now: () => Date.now() + offset } : undefined;
}
