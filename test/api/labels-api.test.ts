// The label endpoints against the real server: labels.pdf and labels.zpl from each source, their
// refusals, printing to a small fake printer on loopback, and codes for items without one, written
// as an import writes them (the catalogue version moves, so sync carries them).
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  LABELS_PDF_PATH,
  LABELS_PRINT_PATH,
  LABELS_ZPL_PATH,
  LABEL_CODES_PATH,
  STOCKTAKES_PATH,
  labelMessages,
  stocktakePath,
} from '../../shared/index.ts';
import { type TestServer, exampleCatalogue, startTestServer } from '../support/test-server.ts';

interface Catalogue {
  accounts: { name: string; items: unknown[] }[];
}
const catalogue = exampleCatalogue() as Catalogue;

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer(catalogue);
});
afterAll(() => server.stop());

const get = (path: string, account = 'north') => server.request('GET', path, { token: server.tokens[account] });
const detail = async (res: Response) => ((await res.json()) as { detail: string }).detail;

/** A label printer on loopback: keeps what each connection sent. */
async function fakePrinter(): Promise<{ port: number; jobs: string[]; close: () => Promise<void> }> {
  const jobs: string[] = [];
  const printer = net.createServer((socket) => {
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('end', () => {
      jobs.push(Buffer.concat(chunks).toString('utf8'));
      socket.end();
    });
  });
  await new Promise<void>((resolve) => printer.listen(0, '127.0.0.1', resolve));
  return { port: (printer.address() as net.AddressInfo).port, jobs, close: () => new Promise((resolve) => printer.close(() => resolve())) };
}

describe('labels.pdf and labels.zpl', () => {
  it('answers a PDF for barcodes, items, variants and a warehouse', async () => {
    for (const query of ['barcodes=8690000000017,8690000000024', 'items=100,101', 'variants=5001', 'warehouse=Main&layout=roll-62']) {
      const res = await get(`${LABELS_PDF_PATH}?${query}`);
      expect(res.status, query).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/pdf');
      expect(
        Buffer.from(await res.arrayBuffer())
          .subarray(0, 5)
          .toString(),
      ).toBe('%PDF-');
    }
  });

  it("prints a stocktake's unknown barcodes, without names", async () => {
    const token = server.tokens.north;
    const created = await server.request('POST', STOCKTAKES_PATH, { token, body: { name: 'Shelf 4', warehouse_name: 'Main' } });
    const { id } = (await created.json()) as { id: number };
    for (const barcode of ['8690000000017', 'NEW-1', 'NEW-2']) {
      expect((await server.request('POST', stocktakePath(id, 'scans'), { token, body: { barcode } })).status).toBe(201);
    }
    const zpl = await (await get(`${LABELS_ZPL_PATH}?stocktake=${id}`)).text();
    expect([...zpl.matchAll(/\^FB\d+,1,0,C,0\^FH_\^FD(.+?)\^FS/g)].map((m) => m[1])).toEqual(['NEW-1', 'NEW-2']);
    expect(zpl).not.toContain('Mug');
    expect((await get(`${LABELS_PDF_PATH}?stocktake=${id}`)).status).toBe(200);
  });

  it('answers ZPL, one format per label and copy, sized to the roll', async () => {
    const res = await get(`${LABELS_ZPL_PATH}?barcodes=8690000000017&copies=3&warehouse=Main`);
    expect(res.status).toBe(200);
    const zpl = await res.text();
    expect(zpl.match(/\^XA/g)).toHaveLength(3);
    expect(zpl).toContain('^PW400'); // 50 mm at 8 dots per mm
    expect(zpl).toContain('^FDMug^FS');
    expect(zpl).toContain('^FDMain^FS');
  });

  it('refuses what it cannot print, saying why', async () => {
    const refusals: [string, string | RegExp][] = [
      [`${LABELS_PDF_PATH}`, labelMessages.oneSource],
      [`${LABELS_PDF_PATH}?barcodes=8690000000017&items=100`, labelMessages.oneSource],
      [`${LABELS_PDF_PATH}?barcodes=8690000000017&layout=a5`, `layout: ${labelMessages.unknownLayout('a5')}`],
      [`${LABELS_PDF_PATH}?items=100&copies=1000`, /copies/],
      [`${LABELS_ZPL_PATH}?items=100&layout=a4-3x8`, labelMessages.zplNeedsRoll('a4-3x8')],
      [`${LABELS_PDF_PATH}?barcodes=8690000000017&warehouse=Nowhere`, 'No warehouses found with name: Nowhere'],
      [`${LABELS_PDF_PATH}?items=999999`, labelMessages.noLabels],
      [`${LABELS_PDF_PATH}?barcodes=8690000000017&expiry=2027-02-30x`, `expiry: ${labelMessages.expiryFormat}`],
    ];
    for (const [path, message] of refusals) {
      const res = await get(path);
      expect(res.status, path).toBe(400);
      if (typeof message === 'string') expect(await detail(res), path).toBe(message);
      else expect(await detail(res), path).toMatch(message);
    }
    const unprintable = await get(`${LABELS_PDF_PATH}?barcodes=${encodeURIComponent('ÇAY-ü,ÇAY-ğ')}`);
    expect(await detail(unprintable)).toBe(labelMessages.notPrintable('ÇAY-ğ'));
    expect((await get(`${LABELS_PDF_PATH}?barcodes=${encodeURIComponent('ÇAY-ü')}`)).status).toBe(200);
    const gs1 = await get(`${LABELS_PDF_PATH}?barcodes=111&batch=L1`, 'kiosk');
    expect(await detail(gs1)).toBe(labelMessages.gs1NeedsGtin('111'));
    expect((await get(`${LABELS_PDF_PATH}?stocktake=999`)).status).toBe(404);
    expect((await server.request('GET', `${LABELS_PDF_PATH}?items=100`)).status).toBe(401);
  });
});

describe('printing to the label printer', () => {
  it('says that no printer is set up, prints to the one set up, and says when it cannot be reached', async () => {
    const north = (await server.store.accounts.find('north'))!;
    const none = await server.request('POST', `${LABELS_PRINT_PATH}?items=100`, { token: server.tokens.north });
    expect(none.status).toBe(409);
    expect(await detail(none)).toBe(labelMessages.noPrinter('north'));

    const printer = await fakePrinter();
    await server.store.labels.setSettings(north, { printer: `127.0.0.1:${printer.port}` });
    const printed = await server.request('POST', `${LABELS_PRINT_PATH}?items=100,101&copies=2`, { token: server.tokens.north });
    expect(await printed.json()).toEqual({ printed: 4, printer: `127.0.0.1:${printer.port}` });
    // Answered once the bytes are handed over; the printer reads them a moment later.
    await expect.poll(() => printer.jobs.length).toBe(1);
    expect(printer.jobs[0]!.match(/\^XA/g)).toHaveLength(4);
    expect(printer.jobs[0]).toBe(await (await get(`${LABELS_ZPL_PATH}?items=100,101&copies=2`)).text());

    await printer.close();
    const gone = await server.request('POST', `${LABELS_PRINT_PATH}?items=100`, { token: server.tokens.north });
    expect(gone.status).toBe(502);
    expect(await detail(gone)).toMatch(/could not be reached: ECONNREFUSED\. Nothing was printed\./);
  });
});

describe('codes of the shop’s own for goods without a barcode', () => {
  it("makes new items with EAN-13s of the account's prefix through the import's writer, so the catalogue sync carries them", async () => {
    const north = (await server.store.accounts.find('north'))!;
    const before = await server.store.sync.catalogue(north);
    const res = await server.request('POST', LABEL_CODES_PATH, {
      token: server.tokens.north,
      body: { items: [{ name: 'Rice, loose' }, { name: ' Lentils, loose ' }] },
    });
    expect(res.status).toBe(200);
    const { codes } = (await res.json()) as { codes: { item: number; name: string; barcode: string }[] };
    expect(codes.map(({ name, barcode }) => ({ name, barcode }))).toEqual([
      { name: 'Rice, loose', barcode: '2000000000015' },
      { name: 'Lentils, loose', barcode: '2000000000022' },
    ]);
    const after = await server.store.sync.catalogue(north);
    expect(after.version).toBeGreaterThan(before.version);
    expect(JSON.stringify(after.catalogue)).toContain(`{"id":${codes[0]!.item},"name":"Rice, loose","barcode":"2000000000015"}`);
    // The codes are barcodes like any other: named, read, labelled.
    expect((await get(`${LABELS_PDF_PATH}?items=${codes[0]!.item}`)).status).toBe(200);
    const names = await get('/api/v1/ui/labels/?barcodes=2000000000022');
    expect(await names.json()).toEqual({ labels: { '2000000000022': { item_name: 'Lentils, loose', variant_name: null } } });

    const blank = await server.request('POST', LABEL_CODES_PATH, { token: server.tokens.north, body: { items: [{ name: ' ' }] } });
    expect(blank.status).toBe(400);
    expect((await server.request('POST', LABEL_CODES_PATH, { token: server.tokens.north, body: { items: [] } })).status).toBe(400);
  });

  it('skips numbers the account holds already, and a follower refuses: its codes are made upstream', async () => {
    const kiosk = (await server.store.accounts.find('kiosk'))!;
    // 2000000000015 is in kiosk's catalogue already (imported), so its first code is the next number.
    await server.store.catalogue.write({
      accounts: [{ name: 'kiosk', warehouses_enabled: false, items: [{ id: 210, name: 'Taken', barcode: '2000000000015' }] }],
    });
    await server.store.labels.setSettings(kiosk, { prefix: '20' });
    const made = await server.request('POST', LABEL_CODES_PATH, {
      token: server.tokens.kiosk,
      body: { items: [{ name: 'Sweets, loose' }] },
    });
    expect(((await made.json()) as { codes: { barcode: string }[] }).codes.map((c) => c.barcode)).toEqual(['2000000000022']);

    await server.store.sync.link('kiosk', 'http://127.0.0.1:1', 'token');
    const follower = await server.request('POST', LABEL_CODES_PATH, { token: server.tokens.kiosk, body: { items: [{ name: 'Gum' }] } });
    expect(follower.status).toBe(400);
    expect(await detail(follower)).toBe(labelMessages.followerCodes('kiosk', 'http://127.0.0.1:1'));
  });
});
