// The camera as a scanner: a large viewfinder for a phone held in one hand, a light switch where the
// camera has one, and each code read handed to the page's scan capture, so it takes exactly the path
// a scanner's scan takes (GS1 reading, the mode or the stocktake, the tones). One read per code: after
// a read the camera waits a moment, and the same code is read again only once it has left the frame
// (the next tin of the same kind, not the same tin twenty times). The camera stops when the view
// closes or the page is hidden.
import { useEffect, useRef, useState } from 'react';
import { cameraTexts } from '../common/texts.ts';
import { deliverScan } from '../scan/scan-capture.ts';
import { visibleText } from '../scan/scanned-code.ts';
import { createFrameReader } from './barcode-reader.ts';

/** How often a frame is read: enough to feel instant, little enough for an old phone. */
const FRAME_MS = 120;
/** After a read, no frame is read for this long: the code is still in front of the camera. */
const PAUSE_MS = 1200;

type CameraState = { kind: 'starting' } | { kind: 'running' } | { kind: 'failed'; message: string };

interface TorchTrack extends MediaStreamTrack {
  getCapabilities(): MediaTrackCapabilities & { torch?: boolean };
}

function failure(error: unknown): string {
  const name = (error as { name?: string }).name;
  if (name === 'NotAllowedError' || name === 'SecurityError') return cameraTexts.denied;
  if (name === 'NotFoundError' || name === 'OverconstrainedError') return cameraTexts.none;
  return cameraTexts.failed((error as Error).message ?? String(error));
}

export default function CameraView({ onClose }: { onClose: () => void }) {
  const video = useRef<HTMLVideoElement>(null);
  const [state, setState] = useState<CameraState>({ kind: 'starting' });
  const [last, setLast] = useState<string | null>(null);
  const [torch, setTorch] = useState<{ track: TorchTrack; on: boolean } | null>(null);
  const closeRef = useRef(onClose);
  closeRef.current = onClose;

  useEffect(() => {
    const element = video.current!;
    let stream: MediaStream | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const stop = () => {
      stopped = true;
      clearTimeout(timer);
      for (const track of stream?.getTracks() ?? []) track.stop();
      element.srcObject = null;
    };
    const onHidden = () => {
      if (document.hidden) closeRef.current();
    };
    document.addEventListener('visibilitychange', onHidden);

    void (async () => {
      if (!window.isSecureContext || !navigator.mediaDevices?.getUserMedia) {
        setState({ kind: 'failed', message: cameraTexts.insecure });
        return;
      }
      try {
        const reader = await createFrameReader();
        stream = await navigator.mediaDevices.getUserMedia({
          video: { facingMode: { ideal: 'environment' }, width: { ideal: 1280 }, height: { ideal: 720 } },
          audio: false,
        });
        if (stopped) return stop();
        element.srcObject = stream;
        await element.play();
        const track = stream.getVideoTracks()[0] as TorchTrack | undefined;
        if (track && typeof track.getCapabilities === 'function' && track.getCapabilities().torch) setTorch({ track, on: false });
        setState({ kind: 'running' });
        element.dataset.reader = reader.kind;

        // The code read last, until a frame without it shows it has left the camera.
        let held: string | null = null;
        const readFrame = async () => {
          if (stopped) return;
          let wait = FRAME_MS;
          try {
            const codes = element.readyState >= 2 ? await reader.detect(element) : [];
            const values = codes.map((code) => code.rawValue).filter((value) => value !== '');
            if (held !== null && !values.includes(held)) held = null;
            const code = values.find((value) => value !== held);
            if (code !== undefined && !stopped) {
              held = code;
              setLast(code);
              deliverScan(code);
              wait = PAUSE_MS;
            }
          } catch {
            // A frame the reader could not take (the video between sizes): the next one will do.
          }
          if (!stopped) timer = setTimeout(() => void readFrame(), wait);
        };
        void readFrame();
      } catch (error) {
        if (!stopped) setState({ kind: 'failed', message: failure(error) });
        stop();
      }
    })();
    return () => {
      document.removeEventListener('visibilitychange', onHidden);
      stop();
    };
  }, []);

  const switchTorch = () => {
    if (!torch) return;
    const on = !torch.on;
    torch.track.applyConstraints({ advanced: [{ torch: on } as MediaTrackConstraintSet] }).then(
      () => setTorch({ ...torch, on }),
      () => setTorch(null),
    );
  };

  return (
    <section className="camera-view" aria-label={cameraTexts.title} data-testid="camera-view" data-state={state.kind}>
      <div className="viewfinder">
        <video ref={video} muted playsInline data-testid="camera-video" />
        {state.kind === 'running' ? <div className="aim" aria-hidden="true" /> : null}
      </div>
      <p className={state.kind === 'failed' ? 'notice notice-error' : 'camera-status'} role="status" data-testid="camera-status">
        {state.kind === 'failed'
          ? state.message
          : state.kind === 'starting'
            ? cameraTexts.starting
            : last !== null
              ? cameraTexts.read(visibleText(last))
              : cameraTexts.aim}
      </p>
      <div className="camera-controls">
        {torch ? (
          <button type="button" onClick={switchTorch} aria-pressed={torch.on}>
            {torch.on ? cameraTexts.torchOff : cameraTexts.torchOn}
          </button>
        ) : null}
        <button type="button" onClick={onClose} data-testid="camera-close">
          {cameraTexts.close}
        </button>
      </div>
    </section>
  );
}
