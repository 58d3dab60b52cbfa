// Measures the time from a scan's Enter to the stock shown on screen, in headless Chromium against
// the real server and a real SQLite file (docs/UI.md, "Speed"). Prints numbers; asserts nothing.
// Usage: npm run measure:scan [-- --scans 50]
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { launchChromium } from '../test/support/browser.ts';
import buildUiIfStale from '../test/support/build-ui.ts';
import { createSignInCode } from '../server/store/signin-codes.ts';
import { startUiServer } from '../test/support/ui-harness.ts';

const { values } = parseArgs({ options: { scans: { type: 'string', default: '50' }, warmup: { type: 'string', default: '5' } } });
const scans = Number(values.scans);
const warmup = Number(values.warmup);

// A shop with two warehouses and 2,000 items, so lookups hit a realistically sized table.
const ITEMS = 2000;
const barcodeOf = (i: number) => `20${String(i).padStart(11, '0')}`;
const catalogue = {
  accounts: [
    {
      name: 'shop',
      warehouses_enabled: true,
      warehouses: [
        { id: 1, name: 'Shop floor' },
        { id: 2, name: 'Stockroom' },
      ],
      items: Array.from({ length: ITEMS }, (_, i) => ({
        id: i + 1,
        name: `Item ${i + 1}`,
        barcode: barcodeOf(i),
        stock: [
          { warehouse: 'Shop floor', quantity: i % 17 },
          { warehouse: 'Stockroom', quantity: i % 31 },
        ],
      })),
    },
  ],
};

function percentile(sorted: number[], p: number): number {
  const rank = Math.ceil((p / 100) * sorted.length) - 1;
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank))]!;
}

buildUiIfStale();
const server = await startUiServer(catalogue);
const browser = await launchChromium();
try {
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  // Records each Enter's timestamp, registered before the app's own listener (which swallows a scan's Enter).
  await context.addInitScript(() => {
    window.addEventListener('keydown', (e) => {
      if (e.key === 'Enter') (window as unknown as { lastEnter: number }).lastEnter = e.timeStamp;
    }, { capture: true });
  });
  const page = await context.newPage();
  await page.goto(`${server.url}/#signin=${createSignInCode(server.db, 'shop').code}`);
  await page.getByTestId('account').waitFor();
  const cdp = await context.newCDPSession(page);

  const dom: number[] = [];
  const frame: number[] = [];
  let missed = 0;
  for (let i = 0; i < warmup + scans; i++) {
    const barcode = barcodeOf((i * 37) % ITEMS);
    // Waits in the page for this barcode's card to show its stock, then for the next frame.
    const shown = page.evaluate(
      (code) =>
        new Promise<{ dom: number; frame: number } | null>((resolve) => {
          setTimeout(() => resolve(null), 5000); // a scan that never shows counts as missed
          const selector = `[data-testid="lookups"] [data-barcode="${CSS.escape(code)}"][data-state="found"]`;
          const observer = new MutationObserver(() => {
            if (!document.querySelector(selector)) return;
            observer.disconnect();
            const domAt = performance.now();
            const enter = (window as unknown as { lastEnter: number }).lastEnter;
            requestAnimationFrame(() => resolve({ dom: domAt - enter, frame: performance.now() - enter }));
          });
          observer.observe(document.body, { subtree: true, childList: true, attributes: true });
        }),
      barcode,
    );
    // The scan: all keys sent back to back, stamped 1 ms apart as a scanner types them, the Enter
    // stamped "now" (just before it is sent), so the latency measured includes the key's delivery.
    const enterAt = Date.now();
    const keys = [...barcode];
    const sends = keys.flatMap((ch, k) => {
      const timestamp = (enterAt - (keys.length - k)) / 1000;
      return [
        cdp.send('Input.dispatchKeyEvent', { type: 'keyDown', key: ch, text: ch, unmodifiedText: ch, timestamp }),
        cdp.send('Input.dispatchKeyEvent', { type: 'keyUp', key: ch, timestamp }),
      ];
    });
    const enter = { key: 'Enter', code: 'Enter', windowsVirtualKeyCode: 13, timestamp: enterAt / 1000 };
    sends.push(
      cdp.send('Input.dispatchKeyEvent', { type: 'keyDown', ...enter, text: '\r' }),
      cdp.send('Input.dispatchKeyEvent', { type: 'keyUp', ...enter }),
    );
    await Promise.all(sends);
    const result = await shown;
    if (result === null) {
      if (i >= warmup) missed++;
      continue;
    }
    if (i >= warmup) {
      dom.push(result.dom);
      frame.push(result.frame);
    }
  }
  const report = (name: string, values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    const f = (n: number) => n.toFixed(1);
    console.log(`${name}: median ${f(percentile(sorted, 50))} ms, p95 ${f(percentile(sorted, 95))} ms, min ${f(sorted[0]!)} ms, max ${f(sorted.at(-1)!)} ms (n=${sorted.length})`);
  };
  console.log(`Scan Enter → stock shown, headless Chromium, ${ITEMS} items, ${scans} scans after ${warmup} warm-up scans:`);
  console.log(`  machine: ${cpus().length} cores, load average ${loadavg().map((l) => l.toFixed(2)).join(' ')} (other work skews the tail)`);
  if (missed > 0) console.log(`  ${missed} scan(s) were not shown within 5 s (not counted)`);
  report('  DOM updated   ', dom);
  report('  next frame    ', frame); // the frame that paints it has started
} finally {
  await browser.close();
  await server.stop();
}
