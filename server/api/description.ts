// The API describing itself: the OpenAPI document and a readable page generated from it, both public
// (they describe the API, not any account's data) and built on first request (most servers never
// serve them).
import { z } from 'zod';
import { API_DOCS_PATH, OPENAPI_PATH } from '../../shared/index.ts';
import { renderApiPage } from './api-page.ts';
import { PUBLIC, type Resource, endpoint } from './endpoint.ts';
import { buildOpenApiDocument } from './openapi-document.ts';

export const API_INFO = {
  title: 'barcode-inventory API',
  version: '1',
  description:
    'Stock by barcode over a local database. Every endpoint except this description and sign-in needs `Authorization: Token <key>` ' +
    '(create a key with `barcode-inventory token create --account <name> --role <role>`). Every token has a role; each operation ' +
    'says which roles may call it (its description and `x-roles`), and another role gets 403 with `code: "role_forbidden"`. ' +
    'Request-level errors answer `{"detail": "…"}`.',
};

/** The description resource of an endpoint table; `all` gives the whole table, this resource included. */
export function apiDescription(all: () => readonly Resource[]): Resource {
  let built: { json: string; page: string } | undefined;
  const describe = () => {
    if (!built) {
      const document = buildOpenApiDocument(all(), API_INFO);
      built = { json: JSON.stringify(document), page: renderApiPage(document) };
    }
    return built;
  };
  return {
    tag: 'API description',
    endpoints: [
      endpoint({
        method: 'GET',
        path: OPENAPI_PATH,
        summary: 'This OpenAPI document',
        roles: PUBLIC,
        responses: { 200: { description: 'OpenAPI 3.1 document.', schema: z.record(z.string(), z.unknown()) } },
        handler: () => ({ body: describe().json, type: 'application/json' }),
      }),
      endpoint({
        method: 'GET',
        path: API_DOCS_PATH,
        summary: 'The API page (HTML, generated from this document)',
        roles: PUBLIC,
        responses: { 200: { description: 'HTML page.', contentType: 'text/html' } },
        handler: () => ({ body: describe().page, type: 'text/html; charset=utf-8' }),
      }),
    ],
  };
}
