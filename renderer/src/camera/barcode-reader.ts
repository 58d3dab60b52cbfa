// What reads barcodes from camera frames: the browser's own BarcodeDetector where it has one for these
// formats (Chrome on Android and macOS), else the barcode-detector polyfill, the same API over ZXing in
// WebAssembly. The polyfill's .wasm is a file of this app, served by our own server (Vite copies it
// into the build as an asset): its default would load it from a CDN, which a shop without internet
// cannot reach. Loaded only when the camera opens, and the polyfill only where it is needed.
import wasmUrl from 'zxing-wasm/reader/zxing_reader.wasm?url';

/** EAN/UPC, Code 128 (GS1-128 is Code 128 with FNC1) and DataMatrix (GS1 DataMatrix too). */
const FORMATS = ['ean_13', 'ean_8', 'upc_a', 'upc_e', 'code_128', 'data_matrix'] as const;

export interface FrameReader {
  /** The codes in this frame, their text as a scanner would send it (GS1 with GS separators). */
  detect(source: HTMLVideoElement): Promise<{ rawValue: string }[]>;
  /** native: the browser's own; polyfill: ZXing in WebAssembly. */
  kind: 'native' | 'polyfill';
}

interface DetectorClass {
  new (options: { formats: string[] }): { detect(source: HTMLVideoElement): Promise<{ rawValue: string }[]> };
  getSupportedFormats(): Promise<string[]>;
}

export async function createFrameReader(): Promise<FrameReader> {
  const Native = (globalThis as { BarcodeDetector?: DetectorClass }).BarcodeDetector;
  if (Native) {
    const supported = await Native.getSupportedFormats().catch(() => [] as string[]);
    const formats = FORMATS.filter((format) => supported.includes(format));
    if (formats.includes('ean_13') && formats.includes('data_matrix')) {
      const detector = new Native({ formats });
      return { kind: 'native', detect: (source) => detector.detect(source) };
    }
  }
  const { BarcodeDetector, prepareZXingModule } = await import('barcode-detector/ponyfill');
  prepareZXingModule({
    overrides: {
      locateFile: (path: string, prefix: string) => (path.endsWith('.wasm') ? new URL(wasmUrl, location.href).href : prefix + path),
    },
  });
  const detector = new BarcodeDetector({ formats: [...FORMATS] });
  return { kind: 'polyfill', detect: (source) => detector.detect(source) };
}
