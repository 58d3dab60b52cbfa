// Window-level capture of scans: one keydown listener in the capture phase feeds the scan detector,
// whatever has focus, and reports each scan. Keys that came before it listened (the page was still
// loading) are taken from public/early-keys.js first.
import { createContext, useContext, useEffect, useRef } from 'react';
import { isBadgeCode } from '../../../shared/index.ts';
import { type KeyLike, type ScanSettings, createScanDetector } from './scan-detector.ts';

function isTextField(element: Element | null): element is HTMLInputElement | HTMLTextAreaElement {
  if (element instanceof HTMLTextAreaElement) return true;
  return element instanceof HTMLInputElement && ['text', 'search', 'number', 'tel', ''].includes(element.type);
}

/** Sets a field's value so that React's onChange sees it (React tracks the native value setter). */
export function setFieldValue(field: HTMLInputElement | HTMLTextAreaElement, value: string): void {
  const prototype = field instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
  Object.getOwnPropertyDescriptor(prototype, 'value')?.set?.call(field, value);
  field.dispatchEvent(new Event('input', { bubbles: true }));
}

/** What public/early-keys.js keeps while no capture listens. */
interface EarlyKeys {
  keys: KeyLike[];
  listening: boolean;
  /** When the page started listening: keys before it were lost. */
  startedAt: number;
  /** Set by the page's first capture: the app has started. */
  handedOver?: boolean;
}

declare global {
  interface Window {
    barcodeInventoryEarlyKeys?: EarlyKeys;
  }
}

/**
 * Codes read without keys (the camera) are handed to the capture that listens, which treats them as a
 * scan from the scanner: the same reading (GS1, separators), the same mode or stocktake, the same tones.
 */
const otherReaders = new Set<(code: string) => void>();

/** A code the camera read, delivered as a scan; false when no capture listens (nothing takes scans now). */
export function deliverScan(code: string): boolean {
  for (const take of otherReaders) take(code);
  return otherReaders.size > 0;
}

/** Once the app has started, keys older than this when a capture starts (a view switch) are not part of a scan still coming in. */
const EARLY_KEYS_MS = 3000;

/** Drops the keys kept so far: a screen that took them itself (signing in) calls it when it goes. */
export function forgetEarlyKeys(): void {
  window.barcodeInventoryEarlyKeys?.keys.splice(0);
}

/** Input that looked like a scan, or was meant as one, but is not taken: the person is told why. */
export type Refusal =
  | { kind: 'control-character'; code: string }
  /** A scan that began while the page was loading: its first characters may never have reached it. */
  | { kind: 'cut-short'; code: string }
  /** The rest of a scan after the scanner paused in its middle: its start is lost. */
  | { kind: 'fragment'; code: string; gapMs: number }
  | { kind: 'slow'; length: number; gapMs: number; maxGapMs: number }
  /** A person's badge where no shared scanner takes it (a device signed in with a link of its own). */
  | { kind: 'badge' };

/**
 * Where a person's badge goes when it is scanned, whatever view is shown: a shared scanner switches to
 * that person (App). A badge never reaches the views' handlers, so it is never looked up, set or
 * counted; without a receiver it is refused with the reason.
 */
export const BadgeScanContext = createContext<((badge: string) => void) | null>(null);

export interface ScanHandlers {
  onScan: (code: string) => void;
  onRefused?: (refusal: Refusal) => void;
  /** Sees every key first (used to unlock audio). */
  onKey?: () => void;
}

interface Snapshot {
  field: HTMLInputElement | HTMLTextAreaElement;
  value: string;
}

function keyOf(event: KeyboardEvent): KeyLike {
  return {
    key: event.key,
    code: event.code,
    timeStamp: event.timeStamp,
    shiftKey: event.shiftKey,
    ctrlKey: event.ctrlKey,
    altKey: event.altKey,
    metaKey: event.metaKey,
    altGraph: event.getModifierState('AltGraph'),
  };
}

/**
 * Calls `onScan(code)` for every scan, in the order scanned. A scan's suffix key is swallowed here,
 * before any button or form sees it; characters of a scan that landed in a focused text field are
 * taken back out of it. While `enabled` is false (the scanner test listens itself) keys pass
 * untouched. The listener stays the same while settings change; the latest handlers are used.
 */
export function useScanCapture(settings: ScanSettings, handlers: ScanHandlers, enabled = true): void {
  const handlersRef = useRef(handlers);
  handlersRef.current = handlers;
  const enabledRef = useRef(enabled);
  enabledRef.current = enabled;
  const onBadge = useContext(BadgeScanContext);
  const onBadgeRef = useRef(onBadge);
  onBadgeRef.current = onBadge;

  useEffect(() => {
    const detector = createScanDetector(settings);
    let snapshot: Snapshot | null = null;
    const early = window.barcodeInventoryEarlyKeys;
    // The burst in progress: when it began, its last key, its longest pause between keys.
    let burst = { start: 0, last: 0, gap: 0 };
    const track = (verdict: ReturnType<typeof detector.feed>, timeStamp: number) => {
      if (verdict.kind !== 'char') return;
      burst = verdict.startsBurst
        ? { start: timeStamp, last: timeStamp, gap: 0 }
        : { ...burst, last: timeStamp, gap: Math.max(burst.gap, timeStamp - burst.last) };
    };
    /**
     * Whether a key of this scan may have come before the page listened at all (and is lost): its
     * first key came within one of its own pauses (a scanner types evenly) after the page started.
     */
    const cutShort = (endTime: number) => {
      if (!early) return false;
      const pause = Math.max(burst.gap, endTime - burst.last);
      return burst.start - early.startedAt <= Math.min(settings.maxGapMs, 2 * pause + 5);
    };

    const report = (verdict: ReturnType<typeof detector.feed>, timeStamp: number) => {
      if (verdict.kind === 'scan' && isBadgeCode(verdict.code)) {
        // A badge cut short is still a badge: the sign-in says it is not whole. It is never a barcode.
        if (onBadgeRef.current) onBadgeRef.current(verdict.code);
        else handlersRef.current.onRefused?.({ kind: 'badge' });
      } else if (verdict.kind === 'scan' && cutShort(timeStamp)) handlersRef.current.onRefused?.({ kind: 'cut-short', code: verdict.code });
      else if (verdict.kind === 'scan') handlersRef.current.onScan(verdict.code);
      else if (verdict.kind === 'refused' && verdict.reason === 'fragment')
        handlersRef.current.onRefused?.({ kind: 'fragment', code: verdict.code, gapMs: verdict.gapMs });
      else if (verdict.kind === 'refused') handlersRef.current.onRefused?.({ kind: 'control-character', code: verdict.code });
      else if (verdict.kind === 'other' && verdict.slow)
        handlersRef.current.onRefused?.({ kind: 'slow', ...verdict.slow, maxGapMs: settings.maxGapMs });
    };

    const onKeyDown = (event: KeyboardEvent) => {
      if (event.isComposing || !enabledRef.current) return;
      handlersRef.current.onKey?.();
      const focused = document.activeElement;
      const inTextField = isTextField(focused);
      const verdict = detector.feed(keyOf(event), { inTextField });
      track(verdict, event.timeStamp);
      if (verdict.kind === 'char') {
        // A run that resumes after a scanner's hiccup keeps the field's text from before the whole scan.
        if (verdict.startsBurst && !verdict.resumes) snapshot = inTextField ? { field: focused, value: focused.value } : null;
        // Outside text fields a character does nothing useful, but Space would press a focused button.
        if (!inTextField && !(verdict.startsBurst && event.key === ' ')) event.preventDefault();
        return;
      }
      if (verdict.kind === 'scan' || verdict.kind === 'refused') {
        event.preventDefault();
        event.stopImmediatePropagation();
        if (snapshot && snapshot.field.isConnected && snapshot.field.value !== snapshot.value) {
          setFieldValue(snapshot.field, snapshot.value);
        }
        snapshot = null;
        report(verdict, event.timeStamp);
        return;
      }
      if (verdict.kind === 'other') {
        snapshot = null;
        report(verdict, event.timeStamp);
      }
    };
    const onBlur = () => detector.reset();

    // Keys that arrived before this listener: a scan begun while the page loaded is completed by the
    // keys still to come, so it is neither lost nor cut short.
    if (early) {
      early.listening = false;
      // The page's first capture takes every key since the page started, however long starting took
      // (an old shop PC, a cold desktop start, a slow sign-in check): a scan made meanwhile was lost
      // when only the last 3 s counted. Later captures (a view switch) take the last EARLY_KEYS_MS.
      const since = early.handedOver ? performance.now() - EARLY_KEYS_MS : early.startedAt;
      early.handedOver = true;
      for (const key of early.keys.splice(0)) {
        if (key.timeStamp < since) continue;
        const verdict = detector.feed(key);
        track(verdict, key.timeStamp);
        // Only scans: what a person typed on the sign-in screen was for that screen.
        if (verdict.kind === 'scan') report(verdict, key.timeStamp);
      }
    }
    window.addEventListener('keydown', onKeyDown, { capture: true });
    window.addEventListener('blur', onBlur);
    const fromCamera = (code: string) => {
      if (enabledRef.current) handlersRef.current.onScan(code);
    };
    otherReaders.add(fromCamera);
    return () => {
      otherReaders.delete(fromCamera);
      window.removeEventListener('keydown', onKeyDown, { capture: true });
      window.removeEventListener('blur', onBlur);
      if (early) early.listening = true;
    };
  }, [settings]);
}
