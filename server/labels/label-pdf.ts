// A label document as PDF (PDFKit): sheets of labels in their exact positions, or one label per page
// on a roll. Each barcode is drawn by bwip-js as SVG path data and placed as vector paths, so it prints
// sharp at any printer resolution; names are set in DejaVu Sans Condensed, embedded, so every letter a
// shop types prints on any computer.
import { createRequire } from 'node:module';
import path from 'node:path';
import bwipjs from 'bwip-js';
import PDFDocument from 'pdfkit';
import type { LabelSymbol } from '../../shared/index.ts';
import type { LabelJob, PrintedLabel } from './label-document.ts';

const fontFolder = path.join(path.dirname(createRequire(import.meta.url).resolve('dejavu-fonts-ttf/package.json')), 'ttf');
const REGULAR = path.join(fontFolder, 'DejaVuSansCondensed.ttf');
const BOLD = path.join(fontFolder, 'DejaVuSansCondensed-Bold.ttf');

const PT_PER_MM = 72 / 25.4;
const mm = (value: number) => value * PT_PER_MM;

/** Inside a label's edge: sheets are die-cut a little off, so nothing is printed right at the edge. */
const PADDING_MM = 2;
/** The narrowest bar a common scanner reads reliably off a laser or thermal print, and the widest worth printing. */
const MODULE_MM = { min: 0.19, max: 0.5 };
/** Blank modules each side of a linear barcode (EAN asks for 11 and 7, Code 128 for 10). */
const QUIET_MODULES = 11;
/** Labels drawn between two turns of the event loop (a few milliseconds of work). */
const YIELD_EVERY = 8;

interface SvgPath {
  d: string;
  stroke: number | null;
}

/** bwip-js's SVG of a symbol: its size in modules and its paths (bars are stroked lines, matrix modules filled shapes). */
export function barcodeSvg(symbol: LabelSymbol): { width: number; height: number; paths: SvgPath[] } {
  const svg = bwipjs.toSVG({ bcid: symbol.bcid, text: symbol.data, scale: 1, ...(symbol.matrix ? {} : { height: 10 }) });
  const [, width, height] = /viewBox="0 0 ([\d.]+) ([\d.]+)"/.exec(svg)!.map(Number) as [number, number, number];
  const paths: SvgPath[] = [];
  for (const element of svg.matchAll(/<path ([^>]*)\/>/g)) {
    const attributes = element[1]!;
    const d = /\bd="([^"]+)"/.exec(attributes)?.[1];
    if (!d) continue;
    const stroke = /stroke-width="([\d.]+)"/.exec(attributes)?.[1];
    paths.push({ d, stroke: stroke === undefined ? null : Number(stroke) });
  }
  return { width, height, paths };
}

/** Draws the barcode into the box; returns the box it took. */
function drawBarcode(
  doc: PDFKit.PDFDocument,
  svg: ReturnType<typeof barcodeSvg>,
  symbol: LabelSymbol,
  box: { x: number; y: number; width: number; height: number },
) {
  const { width, height, paths } = svg;
  let sx: number;
  let sy: number;
  let x: number;
  if (symbol.matrix) {
    // Square modules, as large as the box allows: the matrix's own quiet zone is the label's padding.
    sx = sy = Math.min(box.width / width, box.height / height);
    x = box.x;
  } else {
    sx = Math.min(Math.max(box.width / (width + 2 * QUIET_MODULES), mm(MODULE_MM.min)), mm(MODULE_MM.max));
    sy = box.height / height;
    x = box.x + (box.width - width * sx) / 2;
  }
  doc.save().translate(x, box.y).scale(sx, sy);
  for (const p of paths) {
    if (p.stroke === null) doc.path(p.d).fill('#000000');
    else doc.path(p.d).lineWidth(p.stroke).stroke('#000000');
  }
  doc.restore();
  return { x, y: box.y, width: width * sx, height: height * sy };
}

function drawLabel(
  doc: PDFKit.PDFDocument,
  svg: ReturnType<typeof barcodeSvg>,
  label: PrintedLabel,
  left: number,
  top: number,
  width: number,
  height: number,
): void {
  const pad = mm(PADDING_MM);
  const inner = { x: left + pad, y: top + pad, width: width - 2 * pad, height: height - 2 * pad };
  // Type sized by the label's height: 8.5 pt on a 34 mm sheet label, 7 pt on a 25 mm roll label.
  const size = Math.max(6, Math.min(10, inner.height * 0.11));
  const names = [label.variantName, label.warehouse].filter((text): text is string => text !== null && text !== '');
  const text = (x: number, y: number, w: number, h: number) => {
    let at = y;
    if (label.itemName !== null) {
      doc.font('bold').fontSize(size);
      const itemHeight = Math.min(h - names.length * size * 1.15, size * 2.3);
      doc.text(label.itemName, x, at, { width: w, height: itemHeight, ellipsis: true, lineGap: -1 });
      at += Math.min(doc.heightOfString(label.itemName, { width: w, lineGap: -1 }), itemHeight) + size * 0.1;
    }
    doc.font('regular').fontSize(size * 0.9);
    for (const line of names) {
      if (at + size > y + h) break;
      doc.text(line, x, at, { width: w, height: size * 1.15, ellipsis: true, lineBreak: false });
      at += size * 1.1;
    }
    return at - y;
  };
  if (label.symbol.matrix) {
    const side = Math.min(inner.height, inner.width * 0.42);
    drawBarcode(doc, svg, label.symbol, { x: inner.x, y: inner.y + (inner.height - side) / 2, width: side, height: side });
    const x = inner.x + side + pad;
    const w = inner.x + inner.width - x;
    const used = text(x, inner.y, w, inner.height * 0.6);
    doc.font('regular').fontSize(size * 0.8);
    // One GS1 element (application identifier and its data) per line, as GS1 labels print them.
    const elements = label.symbol.text.replace(/(?!^)\(/g, '\n(');
    doc.text(elements, x, inner.y + Math.max(used + 2, inner.height * 0.45), { width: w, lineGap: -1 });
    return;
  }
  const textHeight = label.itemName === null && names.length === 0 ? 0 : Math.min(inner.height * 0.38, size * 1.15 * 3);
  const used = textHeight === 0 ? 0 : text(inner.x, inner.y, inner.width, textHeight);
  const digits = size * 0.95;
  const barsTop = inner.y + used + 2;
  const bars = drawBarcode(doc, svg, label.symbol, {
    x: inner.x,
    y: barsTop,
    width: inner.width,
    height: inner.y + inner.height - barsTop - digits - 1,
  });
  doc.font('regular').fontSize(digits);
  doc.text(label.symbol.text, inner.x, bars.y + bars.height + 1, { width: inner.width, align: 'center', lineBreak: false, ellipsis: true });
}

/** The whole document, as one buffer (at most MAX_LABELS_PER_DOCUMENT labels: a few hundred KB). */
export async function labelPdf(job: LabelJob, title = 'Labels'): Promise<Buffer> {
  const { layout } = job;
  const doc = new PDFDocument({
    size: [mm(layout.page.width), mm(layout.page.height)],
    margin: 0,
    autoFirstPage: false,
    info: { Title: title, Creator: 'barcode-inventory' },
  });
  doc.registerFont('regular', REGULAR);
  doc.registerFont('bold', BOLD);
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<void>((resolve, reject) => {
    doc.on('end', resolve);
    doc.on('error', reject);
  });
  const perPage = layout.columns * layout.rows;
  // Copies of one code share its drawing.
  const drawings = new Map<string, ReturnType<typeof barcodeSvg>>();
  for (const [index, label] of job.labels.entries()) {
    // A thousand labels take seconds of CPU: the server keeps answering scans in between.
    if (index % YIELD_EVERY === YIELD_EVERY - 1) await new Promise((resolve) => setImmediate(resolve));
    const key = `${label.symbol.bcid}\u0000${label.symbol.data}`;
    let svg = drawings.get(key);
    if (svg === undefined) drawings.set(key, (svg = barcodeSvg(label.symbol)));
    const position = index + job.skip;
    const onPage = position % perPage;
    if (index === 0 || onPage === 0) doc.addPage();
    const column = onPage % layout.columns;
    const row = Math.floor(onPage / layout.columns);
    drawLabel(
      doc,
      svg,
      label,
      mm(layout.origin.left + column * layout.pitch.across),
      mm(layout.origin.top + row * layout.pitch.down),
      mm(layout.label.width),
      mm(layout.label.height),
    );
  }
  doc.end();
  await ended;
  return Buffer.concat(chunks);
}
