// The OpenAPI document: a valid OpenAPI 3.1 document, describing every route the app serves under
// /api/ (and nothing it does not), whose schemas accept the real answers of the real server; and the
// API page generated from it, without any script.
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type Router from '@koa/router';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../server/app.ts';
import { openStore } from '../../server/store/open-store.ts';
import {
  API_DOCS_PATH,
  INVENTORY_PATH,
  OPENAPI_PATH,
  STOCKTAKES_PATH,
  STOCK_HISTORY_PATH,
  WAREHOUSES_PATH,
  stocktakePath,
} from '../../shared/index.ts';
import { shopCatalogue } from '../support/stocktake-fixtures.ts';
import { type TestServer, startTestServer } from '../support/test-server.ts';

type Json = Record<string, any>;

/** `/api/v1/stocktakes/:id{/}` and `/api/v1/stocktakes/{id}/` both become `/api/v1/stocktakes/{id}`. */
const normalise = (path: string) =>
  path
    .replace(/\{\/\}$/, '')
    .replace(/:(\w+)/g, '{$1}')
    .replace(/\/$/, '');

describe('OpenAPI document', () => {
  let server: TestServer;
  let document: Json;
  beforeAll(async () => {
    server = await startTestServer(shopCatalogue(2));
    const res = await fetch(server.url + OPENAPI_PATH); // no token: the description is public
    expect(res.status).toBe(200);
    document = (await res.json()) as Json;
  });
  afterAll(() => server.stop());

  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(document));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(document.openapi).toBe('3.1.0');
  });

  it('describes every route the app serves under /api/, and only those', async () => {
    const store = await openStore(':memory:');
    try {
      const app = createApp({ store });
      const served = new Set<string>();
      for (const middleware of app.middleware as ({ router?: Router } & object)[]) {
        for (const layer of middleware.router?.stack ?? []) {
          const methods = layer.methods.filter((m) => m !== 'HEAD' && m !== 'OPTIONS');
          // router.all(…) answers 405 for the other methods: not an endpoint of its own.
          if (methods.length > 5 || typeof layer.path !== 'string' || !layer.path.startsWith('/api/')) continue;
          for (const method of methods) served.add(`${method.toLowerCase()} ${normalise(layer.path)}`);
        }
      }
      const documented = new Set<string>();
      for (const [path, operations] of Object.entries(document.paths as Json)) {
        for (const method of Object.keys(operations)) documented.add(`${method} ${normalise(path)}`);
      }
      expect([...served].sort()).toEqual([...documented].sort());
      for (const endpoint of [
        'get /api/v1/core/item/inventory_by_barcode',
        'post /api/v1/core/item/inventory_by_barcode',
        'get /api/v1/core/warehouse',
      ]) {
        expect(documented).toContain(endpoint);
      }
    } finally {
      await store.close();
    }
  });

  it("accepts the server's real answers with the document's own schemas", async () => {
    const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
    ajv.addSchema({ $id: 'doc', components: document.components });
    const check = async (method: string, documentedPath: string, realPath: string, expectedStatus: number, body?: unknown) => {
      const token = server.tokens.shop!;
      const res = await server.request(method, realPath, body === undefined ? { token } : { token, body });
      expect(res.status).toBe(expectedStatus);
      const operation = document.paths[documentedPath][method.toLowerCase()];
      const schema = operation.responses[String(expectedStatus)].content['application/json'].schema;
      const validate = ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components', '"doc#/components')));
      const json = await res.json();
      expect(validate(json) ? [] : validate.errors, `${method} ${realPath}`).toEqual([]);
      return json as Json;
    };
    await check('GET', '/api/v1/core/item/inventory_by_barcode/', `${INVENTORY_PATH}?barcodes=B0001,nope`, 200);
    await check('POST', '/api/v1/core/item/inventory_by_barcode/', INVENTORY_PATH, 200, [
      { barcode: 'B0001', quantity: 4, warehouse_name: 'Main' },
      { barcode: 'x' },
    ]);
    await check('GET', '/api/v1/core/warehouse/', WAREHOUSES_PATH, 200);
    const session = await check('POST', '/api/v1/stocktakes/', STOCKTAKES_PATH, 201, { warehouse_name: 'Main', blind: true });
    await check('POST', '/api/v1/stocktakes/{id}/scans/', stocktakePath(session.id, 'scans'), 201, { barcode: 'B0001', scan_id: 's1' });
    await check('POST', '/api/v1/stocktakes/{id}/scans/', stocktakePath(session.id, 'scans'), 200, { barcode: 'B0001', scan_id: 's1' });
    const scanned = await check('POST', '/api/v1/stocktakes/{id}/scans/', stocktakePath(session.id, 'scans'), 201, {
      barcode: 'unknown-1',
    });
    await check('PATCH', '/api/v1/stocktakes/{id}/lines/{line}/', stocktakePath(session.id, `lines/${scanned.line.id}`), 200, {
      resolution: 'kept',
    });
    await check('POST', '/api/v1/stocktakes/{id}/scans/', stocktakePath(session.id, 'scans'), 201, { barcode: 'B0000', amount: 3 });
    await check('POST', '/api/v1/stocktakes/{id}/undo/', stocktakePath(session.id, 'undo'), 200, {});
    await check('GET', '/api/v1/stocktakes/{id}/lines/', stocktakePath(session.id, 'lines'), 200);
    await check('GET', '/api/v1/stocktakes/{id}/review/', stocktakePath(session.id, 'review'), 200);
    await check('POST', '/api/v1/stocktakes/{id}/commit/', stocktakePath(session.id, 'commit'), 200, { zero_uncounted: true });
    await check('GET', '/api/v1/stocktakes/{id}/', stocktakePath(session.id), 200);
    await check('GET', '/api/v1/stocktakes/', STOCKTAKES_PATH, 200);
    await check('GET', '/api/v1/stock-history/', `${STOCK_HISTORY_PATH}?limit=2`, 200);
    await check('GET', '/api/v1/stocktakes/{id}/', stocktakePath(999_999), 404);
    await check('POST', '/api/v1/stocktakes/{id}/scans/', stocktakePath(session.id, 'scans'), 409, { barcode: 'B0001' });
  });

  it('serves a readable API page without scripts', async () => {
    const res = await fetch(server.url + API_DOCS_PATH);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    const html = await res.text();
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/\son\w+=/i); // no inline event handlers either
    for (const path of Object.keys(document.paths)) expect(html).toContain(`<code>${path}</code>`);
    expect(html).toContain('id="schema-StocktakeLine"');
    expect(html).toContain('href="/api/v1/openapi.json"');
    const withoutSlash = await fetch(server.url + API_DOCS_PATH.replace(/\/$/, ''));
    expect(withoutSlash.status).toBe(200);
  });
});
