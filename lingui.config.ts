// Lingui's configuration: the scanner UI's catalogues (renderer/src/locales/<locale>.po, one message
// per id, edited by translators) and the compiled modules `npm run i18n:compile` writes beside them.
// Ids are explicit (`list.sendSet`), so a catalogue needs no extraction from the code; the test
// test/ui/ui-catalogues.test.ts keeps the four catalogues, the compiled modules and the code in step.
import { defineConfig } from '@lingui/conf';
import { formatter } from '@lingui/format-po';

export default defineConfig({
  sourceLocale: 'en',
  locales: ['en', 'tr', 'de', 'fr'],
  catalogs: [{ path: '<rootDir>/renderer/src/locales/{locale}', include: ['<rootDir>/renderer/src'] }],
  format: formatter({ explicitIdAsDefault: true, origins: false }),
  compileNamespace: 'ts',
});
