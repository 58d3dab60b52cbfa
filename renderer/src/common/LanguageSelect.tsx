// The language picker (Settings, and the sign-in screen): each language named in itself, so a person
// finds theirs whatever the screen is in now. The choice applies at once and is kept on this device.
import { LOCALES, LOCALE_NAMES, type Locale } from './i18n.ts';
import { useLocale } from './locale-context.tsx';
import { settingsTexts } from './texts.ts';

export function LanguageSelect() {
  const { locale, setLocale } = useLocale();
  return (
    <label className="language">
      <span className="label-text">{settingsTexts.language}</span>
      <select value={locale} onChange={(e) => setLocale(e.target.value as Locale)} data-testid="language-select">
        {LOCALES.map((l) => (
          <option key={l} value={l} lang={l}>
            {LOCALE_NAMES[l]}
          </option>
        ))}
      </select>
    </label>
  );
}
