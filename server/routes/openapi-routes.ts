// GET /api/v1/openapi.json and the API page /api/v1/docs/: generated once from the endpoint
// descriptions on first request, public (they describe the API, not any account's data).
import Router from '@koa/router';
import { API_DOCS_PATH, OPENAPI_PATH } from '../../shared/index.ts';
import { allEndpoints } from '../openapi/all-endpoints.ts';
import { renderApiPage } from '../openapi/api-page.ts';
import { buildOpenApiDocument } from '../openapi/build-document.ts';
import type { EndpointDoc } from '../openapi/endpoint-doc.ts';
import { otherMethods, withOptionalSlash } from './api-routes.ts';

export const API_INFO = {
  title: 'barcode-inventory API',
  version: '1',
  description:
    'Stock by barcode over a local database. Every endpoint except this description needs `Authorization: Token <key>` ' +
    '(create a key with `barcode-inventory token create --account <name>`). Request-level errors answer `{"detail": "…"}`.',
};

/** Built once per list of endpoints: every app of the process (tests start many) shares it. */
const built = new WeakMap<readonly EndpointDoc[], { json: string; page: string }>();

function describe(endpoints: readonly EndpointDoc[]): { json: string; page: string } {
  let result = built.get(endpoints);
  if (!result) {
    const document = buildOpenApiDocument(endpoints, API_INFO);
    result = { json: JSON.stringify(document), page: renderApiPage(document) };
    built.set(endpoints, result);
  }
  return result;
}

export function openApiRouter(endpoints: readonly EndpointDoc[] = allEndpoints): Router {
  const router = new Router();
  // Built on first request, not at start-up: most servers never serve it.
  const docs = withOptionalSlash(API_DOCS_PATH);

  router.get(OPENAPI_PATH, (ctx) => {
    ctx.type = 'application/json';
    ctx.body = describe(endpoints).json;
  });
  router.get(docs, (ctx) => {
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = describe(endpoints).page;
  });
  router.all(OPENAPI_PATH, otherMethods(['GET']));
  router.all(docs, otherMethods(['GET']));
  return router;
}
