// Short tones, because the person looks at the shelf, not at the screen: one bright beep for
// success, two low buzzes for an error.

// Web Audio, created on the first key press: browsers allow sound only after a user gesture.
let context: AudioContext | undefined;

function audio(): AudioContext | undefined {
  if (typeof AudioContext === 'undefined') return undefined;
  context ??= new AudioContext();
  if (context.state === 'suspended') void context.resume();
  return context;
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
  const ctx = audio();
  if (!ctx) return;
  tone(ctx, 1320, ctx.currentTime, 0.09, 'sine');
}

export function playError(): void {
  const ctx = audio();
  if (!ctx) return;
  tone(ctx, 220, ctx.currentTime, 0.14, 'square');
  tone(ctx, 180, ctx.currentTime + 0.2, 0.2, 'square');
}

/** Lets the first key press unlock audio without playing anything. */
export function warmUpAudio(): void {
  audio();
}
