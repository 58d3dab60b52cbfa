// Every request-level error carries a stable machine-readable `code` beside its human `detail`
// (shared/error-codes.ts), listed in docs/API.md and in the OpenAPI document, so a client decides
// and translates by the code, not by the English text (issue 29).
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPENAPI_PATH, STOCKTAKES_PATH, errorCodes, stocktakePath, stocktakeMessages } from '../../shared/index.ts';
import { inRepo } from '../support/paths.ts';
import { call, shopCatalogue } from '../support/stocktake-fixtures.ts';
import { type TestServer, startTestServer } from '../support/test-server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer(shopCatalogue(2));
});
afterAll(async () => {
  await server?.stop();
});

describe('error codes', () => {
  it('are snake_case, each with its meaning, each in docs/API.md and in the OpenAPI document', async () => {
    const api = readFileSync(inRepo('docs/API.md'), 'utf8');
    const document = (await (await fetch(`${server.url}${OPENAPI_PATH}`)).json()) as {
      components: { schemas: { Error: { required?: string[]; properties: { code: { enum: string[] } } } } };
    };
    const error = document.components.schemas.Error;
    expect(error.required).toEqual(['detail', 'code']);
    expect(error.properties.code.enum).toEqual(Object.keys(errorCodes));
    for (const [code, meaning] of Object.entries(errorCodes)) {
      expect(code).toMatch(/^[a-z]+(_[a-z0-9]+)*$/);
      expect(meaning.length).toBeGreaterThan(15);
      expect(api, `docs/API.md lists ${code}`).toContain(`| \`${code}\` |`);
    }
  });

  it('come with every refusal of a whole request, beside the text', async () => {
    const token = server.tokens.shop!;
    const unknownPath = await fetch(`${server.url}/api/v1/nothing/`);
    expect(await unknownPath.json()).toEqual({ detail: 'Not found.', code: 'not_found' });
    const noToken = await fetch(`${server.url}${STOCKTAKES_PATH}`);
    expect(((await noToken.json()) as { code: string }).code).toBe('not_authenticated');

    const id = (await call(server, 'POST', STOCKTAKES_PATH, token, { name: 'Codes', warehouse_name: 'Main' }, 201)).id as number;
    expect(await call(server, 'POST', stocktakePath(id, 'undo'), token, { terminal: 'a' }, 409)).toEqual({
      detail: stocktakeMessages.nothingToUndo,
      code: 'nothing_to_undo',
    });
    await call(server, 'POST', stocktakePath(id, 'commit'), token, {});
    expect(await call(server, 'POST', stocktakePath(id, 'scans'), token, { barcode: 'B0001' }, 409)).toEqual({
      detail: stocktakeMessages.readOnly('committed'),
      code: 'stocktake_read_only',
    });
    expect(await call(server, 'GET', stocktakePath(id + 1000), token, undefined, 404)).toEqual({
      detail: stocktakeMessages.notFound,
      code: 'stocktake_not_found',
    });
    expect(await call(server, 'POST', STOCKTAKES_PATH, token, { name: 5 }, 400)).toMatchObject({ code: 'invalid_body' });
  });
});
