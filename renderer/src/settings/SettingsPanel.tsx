// Scan settings: how fast keys must come to count as a scan, the shortest scan, the scanner's suffix, sound.
import { type FormEvent, useState } from 'react';
import { SCAN_LIMITS, SUFFIX_CHOICES, type UiSettings, suffixName } from './ui-settings.ts';

export function SettingsPanel(props: { settings: UiSettings; onSave: (settings: UiSettings) => void; onCancel: () => void }) {
  const [gap, setGap] = useState(String(props.settings.scan.maxGapMs));
  const [length, setLength] = useState(String(props.settings.scan.minLength));
  const [suffix, setSuffix] = useState(suffixName(props.settings.scan.terminators));
  const [sound, setSound] = useState(props.settings.sound);
  const [error, setError] = useState<string | undefined>();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const maxGapMs = Number(gap);
    const minLength = Number(length);
    const inRange = (n: number, r: { min: number; max: number }) => Number.isInteger(n) && n >= r.min && n <= r.max;
    if (!inRange(maxGapMs, SCAN_LIMITS.maxGapMs)) return setError(`Gap: a whole number from ${SCAN_LIMITS.maxGapMs.min} to ${SCAN_LIMITS.maxGapMs.max}.`);
    if (!inRange(minLength, SCAN_LIMITS.minLength)) return setError(`Length: a whole number from ${SCAN_LIMITS.minLength.min} to ${SCAN_LIMITS.minLength.max}.`);
    props.onSave({ scan: { maxGapMs, minLength, terminators: SUFFIX_CHOICES[suffix]! }, sound });
  };

  return (
    <form className="settings" onSubmit={submit} aria-label="Settings">
      <label>
        Longest pause between a scan's keys (ms)
        <input type="text" inputMode="numeric" value={gap} onChange={(e) => setGap(e.target.value)} autoFocus />
      </label>
      <label>
        Shortest scan (characters)
        <input type="text" inputMode="numeric" value={length} onChange={(e) => setLength(e.target.value)} />
      </label>
      <label>
        Scanner suffix
        <select value={suffix} onChange={(e) => setSuffix(e.target.value)}>
          {Object.keys(SUFFIX_CHOICES).map((name) => (
            <option key={name}>{name}</option>
          ))}
        </select>
      </label>
      <label className="check">
        <input type="checkbox" checked={sound} onChange={(e) => setSound(e.target.checked)} /> Sounds
      </label>
      {error ? <p className="settings-error">{error}</p> : null}
      <div className="settings-actions">
        <button type="submit" className="primary">
          Save settings
        </button>
        <button type="button" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
