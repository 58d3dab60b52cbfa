// Entry of the scanner UI: the language first (texts.ts reads it), then the app, drawn again in full
// when the language changes.
import { createRoot } from 'react-dom/client';
import { App } from './app/App.tsx';
import { activateLocale, initialLocale } from './common/i18n.ts';
import { LocaleRoot } from './common/locale-context.tsx';
import './styles.css';

// Keys typed meanwhile are kept by early-keys.js: loading the catalogue loses no scan.
void activateLocale(initialLocale()).then(() =>
  createRoot(document.getElementById('root')!).render(<LocaleRoot render={(locale) => <App locale={locale} />} />),
);
