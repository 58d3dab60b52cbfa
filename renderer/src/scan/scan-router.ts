// Hands each scan to the one scanner mode that is shown: that mode claims the scans while it is
// shown, and the screen's single scan capture delivers to whoever holds the claim.
import { useLayoutEffect, useRef } from 'react';
import type { Scan } from './scanned-code.ts';

export type ScanHandler = (scan: Scan) => void;

export interface ScanRouter {
  /** Gives a scan to the mode holding the claim; with none (between modes) the scan is dropped. */
  deliver(scan: Scan): void;
  /** Makes `handler` the receiver of every scan until the returned release is called. */
  claim(handler: ScanHandler): () => void;
}

export function createScanRouter(): ScanRouter {
  let current: ScanHandler | null = null;
  return {
    deliver: (scan) => current?.(scan),
    claim(handler) {
      current = handler;
      return () => {
        // A release that comes after the next mode's claim must not take that claim away.
        if (current === handler) current = null;
      };
    },
  };
}

/**
 * Receives the scans while the calling component is shown; the latest `onScan` is used. Layout effects
 * run during the commit that shows or hides a mode (React's Activity runs them again on every switch),
 * so a scan right after F2/F3/F4 already reaches the new mode.
 */
export function useScans(router: ScanRouter, onScan: ScanHandler): void {
  const latest = useRef(onScan);
  latest.current = onScan;
  useLayoutEffect(() => router.claim((scan) => latest.current(scan)), [router]);
}
