// Code 128 (ISO/IEC 15417), code sets B and C: enough to draw a barcode any scanner reads, on screen and on
// paper: the scanner test's barcode (the UI) and people's badges (the UI and the CLI's badge page).
// Each symbol is six bar and space widths in modules.
const PATTERNS = [
  '212222',
  '222122',
  '222221',
  '121223',
  '121322',
  '131222',
  '122213',
  '122312',
  '132212',
  '221213',
  '221312',
  '231212',
  '112232',
  '122132',
  '122231',
  '113222',
  '123122',
  '123221',
  '223211',
  '221132',
  '221231',
  '213212',
  '223112',
  '312131',
  '311222',
  '321122',
  '321221',
  '312212',
  '322112',
  '322211',
  '212123',
  '212321',
  '232121',
  '111323',
  '131123',
  '131321',
  '112313',
  '132113',
  '132311',
  '211313',
  '231113',
  '231311',
  '112133',
  '112331',
  '132131',
  '113123',
  '113321',
  '133121',
  '313121',
  '211331',
  '231131',
  '213113',
  '213311',
  '213131',
  '311123',
  '311321',
  '331121',
  '312113',
  '312311',
  '332111',
  '314111',
  '221411',
  '431111',
  '111224',
  '111422',
  '121124',
  '121421',
  '141122',
  '141221',
  '112214',
  '112412',
  '122114',
  '122411',
  '142112',
  '142211',
  '241211',
  '221114',
  '413111',
  '241112',
  '134111',
  '111242',
  '121142',
  '121241',
  '114212',
  '124112',
  '124211',
  '411212',
  '421112',
  '421211',
  '212141',
  '214121',
  '412121',
  '111143',
  '111341',
  '131141',
  '114113',
  '114311',
  '411113',
  '411311',
  '113141',
  '114131',
  '311141',
  '411131',
  '211412',
  '211214',
  '211232',
];
const START_B = 104;
const START_C = 105;
const CODE_C = 99;
const STOP = '2331112';

/**
 * The symbol values of `text`: start, data, check symbol (mod 103), before the stop. Code set B, except
 * that a run of at least four digits (an even number of them) that ends the text is written in code set
 * C, two digits per symbol: a badge's digits take half the width they would in set B, so its bars are
 * wider on the same card and read more surely. Text that is all digits starts in set C.
 */
export function code128Values(text: string): number[] {
  const run = /\d*$/.exec(text)![0];
  const digits = run.length - (run.length % 2);
  const inC = digits >= 4 ? digits : 0;
  const head = text.slice(0, text.length - inC);
  const values = [head === '' && inC > 0 ? START_C : START_B];
  for (const char of head) {
    const code = char.charCodeAt(0);
    if (char.length !== 1 || code < 32 || code > 126) throw new Error(`Code 128 B cannot encode ${JSON.stringify(char)}`);
    values.push(code - 32);
  }
  if (inC > 0) {
    if (head !== '') values.push(CODE_C);
    const tail = text.slice(text.length - inC);
    for (let i = 0; i < tail.length; i += 2) values.push(Number(tail.slice(i, i + 2)));
  }
  const check = values.reduce((sum, value, i) => sum + value * Math.max(i, 1), 0) % 103;
  return [...values, check];
}

/** Bar and space widths (modules), bar first, from the start symbol through the stop pattern. */
export function code128Widths(text: string): number[] {
  return [
    ...code128Values(text)
      .map((v) => PATTERNS[v]!)
      .join(''),
    ...STOP,
  ].map(Number);
}

/** Modules of white each side of the bars, which scanners need. */
export const CODE128_QUIET_MODULES = 10;

/** The bars to draw, in modules from the left edge, and the whole width with a quiet zone each side. */
export function code128Bars(text: string): { modules: number; bars: { x: number; w: number }[] } {
  const widths = code128Widths(text);
  let x = CODE128_QUIET_MODULES;
  const bars: { x: number; w: number }[] = [];
  widths.forEach((w, i) => {
    if (i % 2 === 0) bars.push({ x, w });
    x += w;
  });
  return { modules: x + CODE128_QUIET_MODULES, bars };
}

/**
 * The barcode as an SVG document: black bars on white with a quiet zone each side, one module
 * `moduleMm` wide and the bars `heightMm` high. Used by the CLI's printed badge page; the UI draws the
 * same bars with React.
 */
export function code128Svg(text: string, { moduleMm = 0.3, heightMm = 15 }: { moduleMm?: number; heightMm?: number } = {}): string {
  const { modules, bars: drawn } = code128Bars(text);
  const bars = drawn.map(({ x, w }) => `<rect x="${x}" y="0" width="${w}" height="1"/>`);
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${(modules * moduleMm).toFixed(2)}mm" height="${heightMm}mm" ` +
    `viewBox="0 0 ${modules} 1" preserveAspectRatio="none" shape-rendering="crispEdges" role="img">` +
    `<rect x="0" y="0" width="${modules}" height="1" fill="#fff"/><g fill="#000">${bars.join('')}</g></svg>`
  );
}
