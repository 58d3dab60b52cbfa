// A label document as ZPL II, for Zebra and compatible thermal printers (docs/LABELS.md): one ^XA…^XZ
// format per label, sized to the roll. The barcode is bwip-js's encoding (its bars or matrix modules)
// sent as a ^GF bitmap in whole printer dots per module, so the printer prints exactly what the PDF
// shows, with bars of equal width; names go in the printer's scalable font (^A0), UTF-8 (^CI28).
import bwipjs from 'bwip-js';
import type { LabelSymbol } from '../../shared/index.ts';
import type { LabelJob, PrintedLabel } from './label-document.ts';

/** Dots per millimetre: 8 is a 203 dpi printer (most), 12 a 300 dpi one. */
export const DEFAULT_DOTS_PER_MM = 8;
const PADDING_MM = 2;
const QUIET_MODULES = 11;

/** A 1-bit picture, rows of bytes, most significant bit leftmost (^GF's layout). */
interface Bitmap {
  width: number;
  height: number;
  rowBytes: number;
  rows: Uint8Array[];
}

function blank(width: number, height: number): Bitmap {
  const rowBytes = Math.ceil(width / 8);
  return { width, height, rowBytes, rows: Array.from({ length: height }, () => new Uint8Array(rowBytes)) };
}

function setRun(row: Uint8Array, from: number, length: number): void {
  for (let x = from; x < from + length; x++) row[x >> 3]! |= 0x80 >> (x & 7);
}

/** The symbol at whole dots per module, at most `maxWidth` × `maxHeight` dots (a linear one as tall as allowed). */
export function barcodeBitmap(symbol: LabelSymbol, maxWidth: number, maxHeight: number): Bitmap {
  const [raw] = bwipjs.raw({ bcid: symbol.bcid, text: symbol.data }) as unknown as [
    { sbs?: number[]; pixs?: number[]; pixx?: number; pixy?: number },
  ];
  if (raw.pixs && raw.pixx && raw.pixy) {
    const module = Math.max(1, Math.floor(Math.min(maxWidth / raw.pixx, maxHeight / raw.pixy)));
    const bitmap = blank(raw.pixx * module, raw.pixy * module);
    for (let y = 0; y < raw.pixy; y++) {
      for (let x = 0; x < raw.pixx; x++) {
        if (raw.pixs[y * raw.pixx + x] !== 1) continue;
        for (let dy = 0; dy < module; dy++) setRun(bitmap.rows[y * module + dy]!, x * module, module);
      }
    }
    return bitmap;
  }
  const sbs = raw.sbs!;
  const modules = sbs.reduce((sum, width) => sum + width, 0);
  const module = Math.max(1, Math.floor(maxWidth / (modules + 2 * QUIET_MODULES)));
  const bitmap = blank(modules * module, maxHeight);
  let x = 0;
  const first = bitmap.rows[0]!;
  sbs.forEach((width, i) => {
    if (i % 2 === 0) setRun(first, x * module, width * module);
    x += width;
  });
  for (const row of bitmap.rows) row.set(first);
  return bitmap;
}

/** ^GFA with each row in hex; a row equal to the one before is ':' (ZPL's repeat), so bars cost one row. */
function graphicField(bitmap: Bitmap): string {
  const total = bitmap.rowBytes * bitmap.height;
  let data = '';
  let previous = '';
  for (const row of bitmap.rows) {
    const hex = Buffer.from(row).toString('hex').toUpperCase();
    data += hex === previous ? ':' : hex;
    previous = hex;
  }
  return `^GFA,${total},${total},${bitmap.rowBytes},${data}`;
}

/** Field data as ^FH reads it: anything but plain letters, digits and a few signs as _XX bytes of UTF-8. */
function fieldText(text: string): string {
  let out = '';
  for (const char of text) {
    if (/[A-Za-z0-9 .,:;()/+*#=&%-]/.test(char)) out += char;
    else for (const byte of Buffer.from(char, 'utf8')) out += `_${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

function labelFormat(label: PrintedLabel, widthMm: number, heightMm: number, dpmm: number): string {
  const dots = (value: number) => Math.round(value * dpmm);
  const pad = dots(PADDING_MM);
  const width = dots(widthMm);
  const height = dots(heightMm);
  const innerWidth = width - 2 * pad;
  const innerHeight = height - 2 * pad;
  const size = Math.max(dots(2.2), Math.min(dots(3.5), Math.round(innerHeight * 0.11)));
  const parts = ['^XA', '^CI28', `^PW${width}`, `^LL${height}`, '^LH0,0'];
  const textBlock = (x: number, y: number, w: number): number => {
    let at = y;
    if (label.itemName !== null) {
      parts.push(`^FO${x},${at}^A0N,${size},${size}^FB${w},2,0,L,0^FH_^FD${fieldText(label.itemName)}^FS`);
      at += size * (label.itemName.length * size * 0.5 > w ? 2 : 1) + 2;
    }
    for (const line of [label.variantName, label.warehouse]) {
      if (line === null || line === '') continue;
      const small = Math.round(size * 0.85);
      parts.push(`^FO${x},${at}^A0N,${small},${small}^FB${w},1,0,L,0^FH_^FD${fieldText(line)}^FS`);
      at += small + 2;
    }
    return at - y;
  };
  if (label.symbol.matrix) {
    const side = Math.min(innerHeight, Math.floor(innerWidth * 0.42));
    const bitmap = barcodeBitmap(label.symbol, side, side);
    parts.push(`^FO${pad},${pad + Math.floor((innerHeight - bitmap.height) / 2)}${graphicField(bitmap)}^FS`);
    const x = pad + bitmap.width + pad;
    const used = textBlock(x, pad, width - pad - x);
    const small = Math.round(size * 0.8);
    const elements = label.symbol.text.split(/(?=\()/);
    parts.push(
      `^FO${x},${pad + Math.max(used + 4, Math.floor(innerHeight * 0.45))}^A0N,${small},${small}^FB${width - pad - x},${elements.length},0,L,0^FH_^FD${elements.map(fieldText).join('\\&')}^FS`,
    );
  } else {
    const hasText = label.itemName !== null || label.variantName !== null || label.warehouse !== null;
    const used = hasText ? textBlock(pad, pad, innerWidth) : 0;
    const digits = Math.round(size * 0.9);
    const barsTop = pad + used + 4;
    const bitmap = barcodeBitmap(label.symbol, innerWidth, height - pad - barsTop - digits - 4);
    parts.push(`^FO${pad + Math.floor((innerWidth - bitmap.width) / 2)},${barsTop}${graphicField(bitmap)}^FS`);
    parts.push(
      `^FO${pad},${barsTop + bitmap.height + 3}^A0N,${digits},${digits}^FB${innerWidth},1,0,C,0^FH_^FD${fieldText(label.symbol.text)}^FS`,
    );
  }
  parts.push('^XZ');
  return parts.join('\n');
}

/** Labels formatted between two turns of the event loop, so a long job does not hold up other requests. */
const YIELD_EVERY = 25;

/** Every label of the job as ZPL, one format each, in order. */
export async function labelZpl(job: LabelJob, dpmm = DEFAULT_DOTS_PER_MM): Promise<string> {
  const formats: string[] = [];
  for (const [index, label] of job.labels.entries()) {
    if (index % YIELD_EVERY === YIELD_EVERY - 1) await new Promise((resolve) => setImmediate(resolve));
    formats.push(labelFormat(label, job.layout.label.width, job.layout.label.height, dpmm));
  }
  return `${formats.join('\n')}\n`;
}
