// The language of the scanner UI: English, Turkish, German or French, chosen from the browser's
// languages until the person picks one in Settings (remembered on this device). The words are in the
// catalogues renderer/src/locales/<locale>.po, which a translator edits; `npm run i18n:compile` turns
// them into the compiled modules beside them (Lingui: ICU messages, plurals by the locale's rules),
// so the page carries no message parser. texts.ts is the only place that asks for a message. Only
// the language in use is loaded (each catalogue is a chunk of its own, about 8 KB gzipped).
import { type Messages, i18n } from '@lingui/core';
import { readStored, writeStored } from './device-storage.ts';

export const LOCALES = ['en', 'tr', 'de', 'fr'] as const;
export type Locale = (typeof LOCALES)[number];

/** Each language named in itself, as the person who reads it looks for it. */
export const LOCALE_NAMES: Record<Locale, string> = { en: 'English', tr: 'Türkçe', de: 'Deutsch', fr: 'Français' };

const catalogues: Record<Locale, () => Promise<{ messages: Messages }>> = {
  en: () => import('../locales/en.ts'),
  tr: () => import('../locales/tr.ts'),
  de: () => import('../locales/de.ts'),
  fr: () => import('../locales/fr.ts'),
};
const loaded = new Set<Locale>();

const STORED_KEY = 'language';

const isLocale = (value: unknown): value is Locale => typeof value === 'string' && (LOCALES as readonly string[]).includes(value);

/** The first of the browser's languages this UI speaks ("de-AT" is German), else English. */
export function browserLocale(languages: readonly string[] = typeof navigator === 'undefined' ? [] : navigator.languages): Locale {
  for (const tag of languages) {
    const primary = tag.toLowerCase().split(/[-_]/)[0];
    if (isLocale(primary)) return primary;
  }
  return 'en';
}

/** The language chosen on this device, or none (then the browser's). */
export function storedLocale(): Locale | null {
  const stored = readStored(STORED_KEY);
  return isLocale(stored) ? stored : null;
}

/** The language this device chose, else the browser's: the one the UI starts in. */
export const initialLocale = (): Locale => storedLocale() ?? browserLocale();

/** Makes `locale` the UI's language once its catalogue is loaded; with `remember`, this device keeps it across reloads. */
export async function activateLocale(locale: Locale, remember = false): Promise<void> {
  if (!loaded.has(locale)) {
    i18n.load(locale, (await catalogues[locale]()).messages);
    loaded.add(locale);
  }
  if (remember) writeStored(STORED_KEY, locale);
  i18n.activate(locale);
  if (typeof document !== 'undefined') document.documentElement.lang = locale;
}

/** The language in use now. */
export function currentLocale(): Locale {
  return isLocale(i18n.locale) ? i18n.locale : 'en';
}

/** Values of a message's placeholders: text, or numbers that a plural chooses by (and writes in the locale). */
export type MessageValues = Record<string, string | number>;

/** The message `id` in the current language, its placeholders filled in. */
export function t(id: string, values?: MessageValues): string {
  return i18n._(id, values);
}

/** Text in capitals as the language writes them (Turkish: i → İ, ı → I). */
export const upper = (text: string): string => text.toLocaleUpperCase(currentLocale());
/** Text in small letters as the language writes them (Turkish: I → ı, İ → i). */
export const lower = (text: string): string => text.toLocaleLowerCase(currentLocale());
