// Short tones, because the person looks at the shelf, not at the screen: one bright beep for
// success, two low buzzes for an error.

// Web Audio, created on the first key press or click anywhere on the page: browsers allow sound only
// after a user gesture, and a context first made when the first scan's beep is due (the keys of a scan
// typed while the page loaded are replayed, not pressed again) starts suspended, and that beep is lost.
let context: AudioContext | undefined;

function audio(): AudioContext | undefined {
  if (typeof AudioContext === 'undefined') return undefined;
  context ??= new AudioContext();
  if (context.state === 'suspended') void context.resume().catch(() => undefined);
  return context;
}

/** Plays `sound` now, or as soon as the context runs (a suspended context would swallow it). */
function play(sound: (ctx: AudioContext) => void): void {
  const ctx = audio();
  if (!ctx) return;
  if (ctx.state === 'running') return sound(ctx);
  void ctx.resume().then(
    () => sound(ctx),
    () => undefined,
  );
}

if (typeof window !== 'undefined') {
  const unlock = () => {
    audio();
    window.removeEventListener('keydown', unlock, true);
    window.removeEventListener('pointerdown', unlock, true);
  };
  window.addEventListener('keydown', unlock, true);
  window.addEventListener('pointerdown', unlock, true);
}

function tone(ctx: AudioContext, frequency: number, start: number, duration: number, type: OscillatorType): void {
  const oscillator = ctx.createOscillator();
  const gain = ctx.createGain();
  oscillator.type = type;
  oscillator.frequency.value = frequency;
  // Short ramps avoid clicks at the edges of the tone.
  gain.gain.setValueAtTime(0.0001, start);
  gain.gain.exponentialRampToValueAtTime(0.25, start + 0.01);
  gain.gain.exponentialRampToValueAtTime(0.0001, start + duration);
  oscillator.connect(gain).connect(ctx.destination);
  oscillator.start(start);
  oscillator.stop(start + duration + 0.02);
}

export function playSuccess(): void {
  play((ctx) => tone(ctx, 1320, ctx.currentTime, 0.09, 'sine'));
}

export function playError(): void {
  play((ctx) => {
    tone(ctx, 220, ctx.currentTime, 0.14, 'square');
    tone(ctx, 180, ctx.currentTime + 0.2, 0.2, 'square');
  });
}

/** Lets the first key press unlock audio without playing anything. */
export function warmUpAudio(): void {
  audio();
}
