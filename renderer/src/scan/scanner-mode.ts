// What the scanner screen gives each of its modes (Look up, Set stock, List): the warehouse of the top
// bar, the status banner they share, and the scans while the mode is shown.
import type { ScanRouter } from './scan-router.ts';

export type Tone = 'idle' | 'busy' | 'ok' | 'error';

export interface Banner {
  tone: Tone;
  text: string;
}

/** The screen's one status line: a result stays in view when the person switches modes. */
export interface StatusBanner {
  /** Shows progress or a prompt, silently. */
  show(banner: Banner): void;
  /** Shows a result; 'ok' and 'error' also sound when sounds are on. */
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

/** Set stock and List both change stock; the screen sends one such change at a time. */
export interface SendingProps {
  sending: boolean;
  setSending: (sending: boolean) => void;
}

/** How many cards or outcomes a mode keeps on screen. */
export const MAX_KEPT = 50;
