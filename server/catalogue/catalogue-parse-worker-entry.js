// Where the catalogue import's parse worker starts (catalogue-file-events.ts), in plain JavaScript:
// with Node's compile cache on in this thread too, the TypeScript it loads comes stripped from the
// cache, and the type stripper is not loaded a second time (about 7 MB of the worker's memory; the
// CLI turns the cache on for the main thread the same way, bin/barcode-inventory.js).
import module from 'node:module';

module.enableCompileCache?.();
await import('./catalogue-parse-worker.ts');
