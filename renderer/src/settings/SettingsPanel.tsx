// Scan settings: how fast keys must come to count as a scan, the shortest scan in a field, the
// scanner's suffix, prefix and keyboard layout, the GS1 separator, sound; and the scanner test that
// finds most of these by itself. Also says whether the account matches GTINs by their 14-digit form.
import { type FormEvent, useState } from 'react';
import { useSession } from '../api/session-context.tsx';
import { LanguageSelect } from '../common/LanguageSelect.tsx';
import { roleTexts, settingsTexts as texts } from '../common/texts.ts';
import type { KeyReading, ScanSettings } from '../scan/scan-detector.ts';
import { ScannerTest } from './ScannerTest.tsx';
import { MAX_PREFIX_LENGTH, SCAN_LIMITS, SUFFIX_CHOICES, type UiSettings, isValidSeparator, suffixName } from './ui-settings.ts';

export function SettingsPanel(props: {
  settings: UiSettings;
  gtinEquivalence: boolean;
  account: string;
  onSave: (settings: UiSettings) => void;
  /** Saves without closing (the scanner test's findings). */
  onApply: (settings: UiSettings) => void;
  onCancel: () => void;
  onTesting: (testing: boolean) => void;
}) {
  const { scan } = props.settings;
  const [gap, setGap] = useState(String(scan.maxGapMs));
  const [length, setLength] = useState(String(scan.minLength));
  const [fast, setFast] = useState(String(scan.fastGapMs));
  const [suffix, setSuffix] = useState(suffixName(scan.terminators));
  const [reading, setReading] = useState<KeyReading>(scan.reading);
  const [prefix, setPrefix] = useState(scan.prefix);
  const [separator, setSeparator] = useState(props.settings.gs1Separator);
  const [sound, setSound] = useState(props.settings.sound);
  const [error, setError] = useState<string | undefined>();
  const { role } = useSession().account;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const maxGapMs = Number(gap);
    const minLength = Number(length);
    const fastGapMs = Number(fast);
    const inRange = (n: number, r: { min: number; max: number }) => Number.isInteger(n) && n >= r.min && n <= r.max;
    if (!inRange(maxGapMs, SCAN_LIMITS.maxGapMs)) return setError(texts.gapRange(SCAN_LIMITS.maxGapMs.min, SCAN_LIMITS.maxGapMs.max));
    if (!inRange(minLength, SCAN_LIMITS.minLength))
      return setError(texts.lengthRange(SCAN_LIMITS.minLength.min, SCAN_LIMITS.minLength.max));
    if (!inRange(fastGapMs, { min: SCAN_LIMITS.fastGapMs.min, max: maxGapMs }))
      return setError(texts.fastRange(SCAN_LIMITS.fastGapMs.min, maxGapMs));
    if (!isValidSeparator(separator)) return setError(texts.separatorOne);
    props.onSave({
      scan: { maxGapMs, minLength, fastGapMs, terminators: SUFFIX_CHOICES[suffix]!, reading, prefix: prefix.slice(0, MAX_PREFIX_LENGTH) },
      gs1Separator: separator,
      sound,
    });
  };

  // The test's findings are saved at once, and shown in the fields.
  const applyTest = (found: ScanSettings) => {
    setGap(String(found.maxGapMs));
    setFast(String(found.fastGapMs));
    setReading(found.reading);
    setPrefix(found.prefix);
    props.onApply({ ...props.settings, scan: found });
  };

  return (
    <section className="settings-panel" aria-labelledby="settings-title">
      <h2 id="settings-title">{texts.title}</h2>
      <LanguageSelect />
      <form className="settings" onSubmit={submit}>
        <label>
          {texts.maxGap}
          <input type="text" inputMode="numeric" value={gap} onChange={(e) => setGap(e.target.value)} autoFocus />
        </label>
        <label>
          {texts.minLength}
          <input type="text" inputMode="numeric" value={length} onChange={(e) => setLength(e.target.value)} />
        </label>
        <label>
          {texts.fastGap}
          <input type="text" inputMode="numeric" value={fast} onChange={(e) => setFast(e.target.value)} />
        </label>
        <label>
          {texts.suffix}
          <select value={suffix} onChange={(e) => setSuffix(e.target.value)}>
            {Object.keys(SUFFIX_CHOICES).map((name) => (
              <option key={name} value={name}>
                {texts.suffixChoice(name)}
              </option>
            ))}
          </select>
        </label>
        <label>
          {texts.reading}
          <select value={reading} onChange={(e) => setReading(e.target.value as KeyReading)} data-testid="reading-select">
            <option value="positions">{texts.readingPositions}</option>
            <option value="characters">{texts.readingCharacters}</option>
          </select>
        </label>
        <label>
          {texts.prefix}
          <input type="text" value={prefix} maxLength={MAX_PREFIX_LENGTH} onChange={(e) => setPrefix(e.target.value)} spellCheck={false} />
        </label>
        <label>
          {texts.separator}
          <input type="text" value={separator} maxLength={2} onChange={(e) => setSeparator(e.target.value)} spellCheck={false} />
        </label>
        <label className="check">
          <input type="checkbox" checked={sound} onChange={(e) => setSound(e.target.checked)} /> {texts.sounds}
        </label>
        {error ? (
          <p className="error-text" role="alert">
            {error}
          </p>
        ) : null}
        <div className="button-row">
          <button type="submit" className="primary">
            {texts.save}
          </button>
          <button type="button" onClick={props.onCancel}>
            {texts.cancel}
          </button>
        </div>
      </form>
      <p className="muted" data-testid="gtin-setting">
        {props.gtinEquivalence ? (
          texts.gtinOn
        ) : (
          <>
            {texts.gtinOff} <code>{texts.gtinCommand(props.account)}</code>
          </>
        )}
      </p>
      <p className="muted" data-testid="role-setting" data-role={role}>
        {roleTexts.signedInAs(roleTexts.name(role))}
      </p>
      <ScannerTest scan={props.settings.scan} onTesting={props.onTesting} onApply={applyTest} />
    </section>
  );
}
