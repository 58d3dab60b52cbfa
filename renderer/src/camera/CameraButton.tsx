// The camera button of the scanner and the counting page, and the panel that shows the camera view.
// The view and everything that reads frames (the polyfill, its WebAssembly) are chunks of their own,
// fetched the first time the camera is opened: a shop PC with a scanner never downloads them
// (docs/UI.md, "The camera").
import { Suspense, lazy, useCallback, useEffect, useState } from 'react';
import { cameraTexts } from '../common/texts.ts';

const CameraView = lazy(() => import('./CameraView.tsx'));

/** Whether the camera is open, and a stable way to close it (the view stops the camera when it closes). */
export function useCamera() {
  const [open, setOpen] = useState(false);
  const close = useCallback(() => setOpen(false), []);
  const toggle = useCallback(() => setOpen((o) => !o), []);
  return { open, close, toggle };
}

/**
 * False once the browser says the device has no camera at all (a shop PC without a webcam). On a page
 * that is not secure the browser says nothing (no mediaDevices): the button stays, and the view says
 * how to reach the server over HTTPS.
 */
function useHasCamera(): boolean {
  const [has, setHas] = useState(true);
  useEffect(() => {
    navigator.mediaDevices
      ?.enumerateDevices()
      .then((devices) => setHas(devices.some((device) => device.kind === 'videoinput')))
      .catch(() => undefined);
  }, []);
  return has;
}

export function CameraButton({ open, onToggle }: { open: boolean; onToggle: () => void }) {
  const hasCamera = useHasCamera();
  if (!hasCamera && !open) return null;
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
