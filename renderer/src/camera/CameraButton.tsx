// The camera button of the scanner and the counting page, and the panel that shows the camera view.
// The view and everything that reads frames (the polyfill, its WebAssembly) are chunks of their own,
// fetched the first time the camera is opened: a shop PC with a scanner never downloads them
// (docs/UI.md, "The camera").
import { Suspense, lazy, useCallback, useState } from 'react';
import { cameraTexts } from '../common/texts.ts';

const CameraView = lazy(() => import('./CameraView.tsx'));

/** Whether the camera is open, and a stable way to close it (the view stops the camera when it closes). */
export function useCamera() {
  const [open, setOpen] = useState(false);
  const close = useCallback(() => setOpen(false), []);
  const toggle = useCallback(() => setOpen((o) => !o), []);
  return { open, close, toggle };
}

export function CameraButton({ open, onToggle }: { open: boolean; onToggle: () => void }) {
  return (
    <button type="button" className="camera-button" onClick={onToggle} aria-expanded={open} data-testid="camera-button">
      {open ? cameraTexts.close : cameraTexts.open}
    </button>
  );
}

export function CameraPanel({ open, onClose }: { open: boolean; onClose: () => void }) {
  if (!open) return null;
  return (
    <Suspense fallback={<div className="camera-view camera-loading">{cameraTexts.starting}</div>}>
      <CameraView onClose={onClose} />
    </Suspense>
  );
}
