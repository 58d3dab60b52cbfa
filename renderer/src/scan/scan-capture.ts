// Window-level capture of scans: one keydown listener in the capture phase feeds the scan detector,
// whatever has focus, and reports each scan.
import { useEffect, useRef } from 'react';
import { type ScanSettings, createScanDetector } from './scan-detector.ts';

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

interface Snapshot {
  field: HTMLInputElement | HTMLTextAreaElement;
  value: string;
}

/**
 * Calls `onScan(code)` for every scan, in the order scanned. A scan's suffix key is swallowed here,
 * before any button or form sees it; characters of a scan that landed in a focused text field are
 * taken back out of it. `onKey` sees every key first (used to unlock audio). The listener stays the
 * same while settings change; the latest callbacks are used.
 */
export function useScanCapture(settings: ScanSettings, onScan: (code: string) => void, onKey?: () => void): void {
  const onScanRef = useRef(onScan);
  const onKeyRef = useRef(onKey);
  onScanRef.current = onScan;
  onKeyRef.current = onKey;

  useEffect(() => {
    const detector = createScanDetector(settings);
    let snapshot: Snapshot | null = null;

    const onKeyDown = (event: KeyboardEvent) => {
      if (event.isComposing) return;
      onKeyRef.current?.();
      const focused = document.activeElement;
      const verdict = detector.feed(event);
      if (verdict.kind === 'char') {
        if (verdict.startsBurst) snapshot = isTextField(focused) ? { field: focused, value: focused.value } : null;
        // Outside text fields a character does nothing useful, but Space would press a focused button.
        if (!isTextField(focused) && !(verdict.startsBurst && event.key === ' ')) event.preventDefault();
        return;
      }
      if (verdict.kind === 'scan') {
        event.preventDefault();
        event.stopImmediatePropagation();
        if (snapshot && snapshot.field.isConnected && snapshot.field.value !== snapshot.value) {
          setFieldValue(snapshot.field, snapshot.value);
        }
        snapshot = null;
        onScanRef.current(verdict.code);
        return;
      }
      if (verdict.kind === 'other') snapshot = null;
    };
    const onBlur = () => detector.reset();

    window.addEventListener('keydown', onKeyDown, { capture: true });
    window.addEventListener('blur', onBlur);
    return () => {
      window.removeEventListener('keydown', onKeyDown, { capture: true });
      window.removeEventListener('blur', onBlur);
    };
  }, [settings]);
}
