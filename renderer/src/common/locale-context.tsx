// The UI's language as React state: choosing another in Settings renders the whole UI again in it.
// The words come from texts.ts (which reads the active language); components that skip renders
// (memo) read the language here so they render again too.
import { type ReactNode, createContext, useCallback, useContext, useState } from 'react';
import { type Locale, activateLocale, currentLocale } from './i18n.ts';

interface LocaleState {
  locale: Locale;
  /** Switches the UI to `locale` now, and remembers it on this device. */
  setLocale: (locale: Locale) => void;
}

const LocaleContext = createContext<LocaleState>({ locale: currentLocale(), setLocale: () => undefined });

/** Holds the language; `render` is called again (and with it the whole UI) when it changes. */
export function LocaleRoot({ render }: { render: (locale: Locale) => ReactNode }) {
  const [locale, setState] = useState<Locale>(currentLocale);
  const setLocale = useCallback((next: Locale) => {
    void activateLocale(next, true).then(() => setState(next));
  }, []);
  return <LocaleContext value={{ locale, setLocale }}>{render(locale)}</LocaleContext>;
}

export function useLocale(): LocaleState {
  return useContext(LocaleContext);
}
