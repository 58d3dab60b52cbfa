// The independent decoder of the label tests: ZXing-C++ (zxing-wasm) in Node, loaded from the package's
// own .wasm file (its default is a CDN). It reads image files (PNG, PGM) and returns every barcode in
// them with its format and text, GS1 element strings in their bracketed form.
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import path from 'node:path';
import { promisify } from 'node:util';
import { ensureCommands } from './debian-packages.ts';
import { prepareZXingModule, readBarcodes } from 'zxing-wasm/reader';

const run = promisify(execFile);
const wasmFile = createRequire(import.meta.url).resolve('zxing-wasm/reader/zxing_reader.wasm');
let ready: Promise<unknown> | undefined;

export interface Decoded {
  format: string;
  text: string;
}

/** Every barcode ZXing finds in an image file's bytes. */
export async function decodeImage(bytes: Uint8Array): Promise<Decoded[]> {
  ready ??= prepareZXingModule({ overrides: { wasmBinary: readFileSync(wasmFile).buffer as ArrayBuffer }, fireImmediately: true });
  await ready;
  const found = await readBarcodes(new Blob([bytes as Uint8Array<ArrayBuffer>]), { formats: [], maxNumberOfSymbols: 255, tryHarder: true });
  return found.filter((result) => result.isValid).map((result) => ({ format: result.format, text: result.text }));
}

/** A greyscale picture (one byte per pixel, 0 black) as a PGM file, which ZXing's image reader takes. */
export function pgm(width: number, height: number, pixels: Uint8Array): Uint8Array {
  return Buffer.concat([Buffer.from(`P5\n${width} ${height}\n255\n`), pixels]);
}

/** The pages of a PDF as PNG files' bytes, rendered by poppler's pdftoppm at `dpi` in a folder of
 * its own that is removed after (tests run many times; /tmp must not keep their pages). */
export async function pdfPages(pdfFile: string, dpi: number): Promise<Uint8Array[]> {
  await ensureCommands({ pdftoppm: 'poppler-utils' });
  const outDir = mkdtempSync(path.join(tmpdir(), 'pdf-pages-'));
  try {
    await run('pdftoppm', ['-r', String(dpi), '-png', pdfFile, path.join(outDir, 'page')]);
    return readdirSync(outDir)
      .filter((name) => name.startsWith('page') && name.endsWith('.png'))
      .sort()
      .map((name) => readFileSync(path.join(outDir, name)));
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}
