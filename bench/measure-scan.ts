// Measures the time from a scan's Enter to the stock shown on screen, in headless Chromium against
// the real server (`barcode-inventory serve`, its own process, as in use) over a real SQLite file
// (docs/UI.md, "Speed"). Prints numbers; asserts nothing.
// Usage: npm run measure:scan [-- --scans 50]
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { openStore } from '../server/store/open-store.ts';
import { launchChromium } from '../test/support/browser.ts';
import buildUiIfStale from '../test/support/build-ui.ts';
import { seedDatabase, tempDir } from '../test/support/test-server.ts';

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

/** Runs `barcode-inventory serve` on `dbFile` and resolves its URL once it listens. */
async function serve(dbFile: string) {
  const bin = path.resolve(import.meta.dirname, '../bin/barcode-inventory.js');
  const child = spawn(process.execPath, [bin, 'serve', '--db', dbFile, '--port', '0', '--log-level', 'silent'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  for await (const line of createInterface({ input: child.stdout })) {
    const match = /serving (http:\/\/[^/]+)\//.exec(line);
    if (match) return { url: match[1]!, child };
  }
  throw new Error('barcode-inventory serve exited before it listened');
}

buildUiIfStale();
const temp = tempDir('bi-measure-');
const dbFile = path.join(temp.dir, 'inventory.db');
await seedDatabase(dbFile, catalogue);
const server = await serve(dbFile);
const browser = await launchChromium();
try {
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  // Records when the page receives each Enter, registered before the app's own listener (which
  // swallows a scan's Enter). Measuring from the key's arrival, not from its stamp, leaves out how long
  // CDP takes to deliver a burst of synthetic keys, which a USB scanner does not have.
  await context.addInitScript(() => {
    window.addEventListener(
      'keydown',
      (e) => {
        if (e.key === 'Enter') (window as unknown as { lastEnter: number }).lastEnter = performance.now();
      },
      { capture: true },
    );
  });
  const page = await context.newPage();
  const store = await openStore(dbFile);
  const { code } = await store.signIn.createCode('shop');
  await store.close();
  await page.goto(`${server.url}/#signin=${code}`);
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
    // The scan: all keys sent back to back, stamped 1 ms apart as a scanner types them (the stamps
    // decide whether the detector sees a scan, whatever the machine's load).
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
    console.log(
      `${name}: median ${f(percentile(sorted, 50))} ms, p95 ${f(percentile(sorted, 95))} ms, min ${f(sorted[0]!)} ms, max ${f(sorted.at(-1)!)} ms (n=${sorted.length})`,
    );
  };
  console.log(`Scan's Enter received → stock shown, headless Chromium, ${ITEMS} items, ${scans} scans after ${warmup} warm-up scans:`);
  console.log(
    `  machine: ${cpus().length} cores, load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')} (other work skews the tail)`,
  );
  if (missed > 0) console.log(`  ${missed} scan(s) were not shown within 5 s (not counted)`);
  report('  DOM updated   ', dom);
  report('  next frame    ', frame); // the frame that paints it has started
} finally {
  await browser.close();
  server.child.kill('SIGTERM');
  await once(server.child, 'exit');
  temp.remove();
}
