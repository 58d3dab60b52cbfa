// What the scanner screen gives each of its modes (Look up, Set stock, List): the warehouse of the top
// bar, the mode's own status banner, and the scans while the mode is shown.
import type { ScanRouter } from './scan-router.ts';

/** busy: waiting for the server; warn: done, but something needs the person's attention. */
export type Tone = 'idle' | 'busy' | 'ok' | 'warn' | 'error';

export interface Banner {
  tone: Tone;
  text: string;
}

/**
 * A mode's status line. Each mode has its own, so an answer that arrives after the person switched
 * modes never overwrites what the visible mode says, and a mode's stale error is not shown in another.
 */
export interface StatusBanner {
  /** Shows progress or a prompt, silently. */
  show(banner: Banner): void;
  /** Shows a result; 'ok', 'warn' and 'error' also sound when sounds are on and the mode is shown. */
  feedback(tone: Tone, text: string): void;
  /** A request failed as a whole: a revoked token signs out, anything else is shown as an error. */
  failed(error: unknown): void;
}

export interface ModeProps {
  /** The warehouse chosen in the top bar; null without warehouses, or before the list has arrived. */
  warehouse: string | null;
  status: StatusBanner;
  scans: ScanRouter;
}

/** How many cards or outcomes a mode keeps on screen. */
export const MAX_KEPT = 50;
