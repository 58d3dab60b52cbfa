// The OpenAPI document describes the POS additions (docs/POS.md): the adjust endpoint, the optional
// row fields, the Idempotency-Key answers; the documented schemas accept real requests and answers.
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADJUST_PATH, INVENTORY_PATH, OPENAPI_PATH } from '../../shared/index.ts';
import { type TestServer, startTestServer } from '../support/test-server.ts';

type Json = Record<string, any>;

describe('OpenAPI document: POS integration', () => {
  let server: TestServer;
  let document: Json;
  let ajv: Ajv2020;
  beforeAll(async () => {
    server = await startTestServer();
    document = (await (await fetch(server.url + OPENAPI_PATH)).json()) as Json;
    ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
    ajv.addSchema({ $id: 'doc', components: document.components });
  });
  afterAll(() => server.stop());

  const validator = (schema: Json) => ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components', '"doc#/components')));
  const operation = (path: string) => document.paths[path].post as Json;

  it('documents adjust and the Idempotency-Key answers on both writes', () => {
    for (const path of [ADJUST_PATH, INVENTORY_PATH]) {
      expect(Object.keys(operation(path).responses)).toEqual(expect.arrayContaining(['200', '400', '409', '413', '415', '422']));
      expect(operation(path).description).toContain('Idempotency-Key');
    }
  });

  it('accepts real requests with the documented body schemas, and refuses a row without delta', async () => {
    const adjustBody = validator(operation(ADJUST_PATH).requestBody.content['application/json'].schema);
    const updateBody = validator(operation(INVENTORY_PATH).requestBody.content['application/json'].schema);
    const adjustRows = [
      { barcode: '8690000000017', delta: -1, warehouse_name: 'Main', reason: 'sale', reference: 'R-1' },
      { barcode: '8690000000017', delta: '24', warehouse_name: 'Main', reason: null },
    ];
    const updateRows = [{ barcode: '8690000000017', quantity: 3, warehouse_name: 'Main', compare_quantity: 28, reason: 'count' }];
    expect(adjustBody(adjustRows) ? [] : adjustBody.errors).toEqual([]);
    expect(updateBody(updateRows) ? [] : updateBody.errors).toEqual([]);
    expect(adjustBody([{ barcode: '8690000000017', warehouse_name: 'Main' }])).toBe(false);

    const adjust = await server.request('POST', ADJUST_PATH, { token: server.tokens.north, body: adjustRows });
    const answer = validator(operation(ADJUST_PATH).responses['200'].content['application/json'].schema);
    const json = await adjust.json();
    expect(answer(json) ? [] : answer.errors).toEqual([]);
    expect((json as Json).results.map((r: Json) => r.quantity)).toEqual([4, 28]);
    const update = await server.request('POST', INVENTORY_PATH, { token: server.tokens.north, body: updateRows });
    expect(((await update.json()) as Json).results[0].quantity).toBe(3);
  });
});
