// The camera as a scanner, in Debian's real Chromium with a fake camera: the video is a y4m file of
// rendered barcodes (an EAN-13, nothing, a GS1 DataMatrix, nothing), and the counting page of a
// stocktake counts each code once, through the same path as a scanner's scan. Chromium on Linux has
// no BarcodeDetector, so the page reads frames with the polyfill and its WebAssembly, which must come
// from our own server: the test fails on any request to another host, and on the camera's files being
// fetched before the camera is opened. It prints how many bytes the camera's files are, and saves the
// camera view at 1280 and 360 px into $SCANNER_SHOTS_DIR.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STOCKTAKES_PATH, type StocktakeLine, symbolFor } from '../../shared/index.ts';
import { barcodeBitmap } from '../../server/labels/label-zpl.ts';
import { ensureCommands } from '../support/debian-packages.ts';
import { type TestServer, exampleCatalogue } from '../support/test-server.ts';
import { signedInPage, startUiServer } from '../support/ui-harness.ts';

const WIDTH = 640;
const HEIGHT = 480;
const FPS = 5;
const EAN = '4006381333931'; // Coffee mug, an EAN-13
const GTIN = '5901234123457'; // Tea tin, read from a GS1 DataMatrix with batch L7
const shotsDir = process.env.SCANNER_SHOTS_DIR ?? path.join(tmpdir(), 'scanner-shots');

/** A y4m video: each scene a barcode (or nothing) on white, centred, for `seconds`. 4:2:0, grey (chroma 128). */
function y4m(scenes: { symbol: ReturnType<typeof symbolFor> | null; seconds: number }[]): Buffer {
  const frames: Buffer[] = [Buffer.from(`YUV4MPEG2 W${WIDTH} H${HEIGHT} F${FPS}:1 Ip A1:1 C420jpeg\n`)];
  const chroma = Buffer.alloc((WIDTH / 2) * (HEIGHT / 2) * 2, 128);
  for (const scene of scenes) {
    const luma = Buffer.alloc(WIDTH * HEIGHT, 235);
    if (scene.symbol) {
      const bitmap = barcodeBitmap(scene.symbol, scene.symbol.matrix ? 260 : 480, 200);
      const left = (WIDTH - bitmap.width) >> 1;
      const top = (HEIGHT - bitmap.height) >> 1;
      bitmap.rows.forEach((row, y) => {
        for (let x = 0; x < bitmap.width; x++) if (row[x >> 3]! & (0x80 >> (x & 7))) luma[(top + y) * WIDTH + left + x] = 16;
      });
    }
    for (let i = 0; i < scene.seconds * FPS; i++) frames.push(Buffer.from('FRAME\n'), luma, chroma);
  }
  return Buffer.concat(frames);
}

/** The example catalogue and two items whose barcodes are GTINs. */
function catalogue(): unknown {
  const document = exampleCatalogue() as { accounts: { items: unknown[] }[] };
  document.accounts[0]!.items.push(
    { id: 150, name: 'Coffee mug', barcode: EAN, stock: [{ warehouse: 'Main', quantity: 2 }] },
    { id: 151, name: 'Tea tin', barcode: GTIN, stock: [{ warehouse: 'Main', quantity: 4 }] },
  );
  return document;
}

let dir: string;
let browser: Browser;
let server: TestServer;

beforeAll(async () => {
  await ensureCommands({ chromium: 'chromium' });
  dir = mkdtempSync(path.join(tmpdir(), 'bi-camera-'));
  const video = path.join(dir, 'camera.y4m');
  // Long scenes: the EAN-13 stays in front of the camera for 5 s and must count once, not 30 times.
  writeFileSync(
    video,
    y4m([
      { symbol: symbolFor(EAN), seconds: 5 },
      { symbol: null, seconds: 1 },
      { symbol: symbolFor(GTIN, { batch: 'L7' }), seconds: 5 },
      { symbol: null, seconds: 1 },
    ]),
  );
  [browser, server] = await Promise.all([
    chromium.launch({
      executablePath: '/usr/bin/chromium',
      headless: true,
      timeout: 60_000,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--no-first-run',
        '--use-fake-device-for-media-stream',
        '--use-fake-ui-for-media-stream',
        `--use-file-for-fake-video-capture=${video}`,
      ],
    }),
    startUiServer(catalogue()),
  ]);
}, 400_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function lines(id: number): Promise<StocktakeLine[]> {
  const res = await server.request('GET', `${STOCKTAKES_PATH}${id}/lines/`, { token: server.tokens.north });
  const body = (await res.json()) as StocktakeLine[] | { lines: StocktakeLine[] } | { results: StocktakeLine[] };
  return Array.isArray(body) ? body : 'lines' in body ? body.lines : body.results;
}

describe('the camera as a scanner', () => {
  it('counts an EAN-13 and a GS1 DataMatrix into a stocktake, once each, with every file from our own server', async () => {
    const created = await server.request('POST', STOCKTAKES_PATH, {
      token: server.tokens.north,
      body: { name: 'Camera count', warehouse_name: 'Main' },
    });
    const { id } = (await created.json()) as { id: number };
    const { page } = await signedInPage(browser, server, 'north', { width: 360, height: 780 });
    await page.context().grantPermissions(['camera'], { origin: server.url });
    const own = new URL(server.url).host;
    const foreign: string[] = [];
    const fetched: { url: string; bytes: number; type: string | null }[] = [];
    await page.context().route('**/*', (route) => {
      const url = new URL(route.request().url());
      if (url.host !== own && url.protocol !== 'data:' && url.protocol !== 'blob:') {
        foreign.push(url.href);
        return route.abort();
      }
      return route.continue();
    });
    page.on('response', (response) => {
      void response.body().then(
        (body) => fetched.push({ url: response.url(), bytes: body.length, type: response.headers()['content-type'] ?? null }),
        () => undefined,
      );
    });

    await page.goto(`${server.url}/#stocktake/${id}`);
    await page.getByTestId('count-view').waitFor();
    const cameraFiles = /CameraView|ponyfill|zxing_reader/;
    expect(fetched.filter((f) => cameraFiles.test(f.url)).map((f) => f.url)).toEqual([]);

    await page.getByTestId('camera-button').click();
    await page.locator('[data-testid="camera-view"][data-state="running"]').waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('camera-video').getAttribute('data-reader')).toBe('polyfill');

    // Both codes counted: the DataMatrix's GTIN (01) on the catalogue's EAN-13 of the tea tin.
    const started = Date.now();
    let counted: Record<string, number> = {};
    while (Date.now() - started < 40_000) {
      counted = Object.fromEntries((await lines(id)).map((line) => [line.barcode, line.counted]));
      if (counted[GTIN] !== undefined) break;
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
    await page.getByTestId('camera-close').click();
    mkdirSync(shotsDir, { recursive: true });
    expect(counted).toEqual({ [EAN]: 1, [GTIN]: 1 });
    const shown = await lines(id);
    expect(shown.map((line) => [line.name, line.counted])).toEqual([
      ['Coffee mug', 1],
      ['Tea tin', 1],
    ]);
    await expect.poll(() => page.getByTestId('count-banner').textContent()).toMatch(/Tea tin/);

    // The camera's files came from our server, after the camera was opened; nothing from anywhere else.
    expect(foreign).toEqual([]);
    const wasm = fetched.find((f) => f.url.includes('zxing_reader'));
    expect(wasm?.type).toBe('application/wasm');
    const sizes = fetched.filter((f) => cameraFiles.test(f.url)).map((f) => `${path.basename(new URL(f.url).pathname)} ${f.bytes} bytes`);
    console.log(`camera files, fetched when the camera opened: ${sizes.join(', ')}`);
    expect(sizes).toHaveLength(3);
  }, 120_000);

  it('shows the camera view at 1280 and 360 px', async () => {
    for (const width of [1280, 360]) {
      const { page } = await signedInPage(browser, server, 'north', { width, height: width === 360 ? 780 : 860 });
      await page.context().grantPermissions(['camera'], { origin: server.url });
      await page.getByTestId('camera-button').click();
      await page.locator('[data-testid="camera-view"][data-state="running"]').waitFor({ timeout: 30_000 });
      await page.getByTestId('camera-status').filter({ hasText: 'Read' }).waitFor({ timeout: 30_000 });
      mkdirSync(shotsDir, { recursive: true });
      await page.screenshot({ path: path.join(shotsDir, `camera-${width}.png`) });
      const wide = await page.evaluate(() =>
        [...document.querySelectorAll('body *')]
          .filter((element) => element.getBoundingClientRect().right > window.innerWidth + 0.5)
          .map((element) => `${element.tagName}.${element.className}`),
      );
      expect(wide, `wider than ${width} px`).toEqual([]);
      await page.getByTestId('camera-close').click();
      await page.context().close();
    }
  }, 120_000);
});
