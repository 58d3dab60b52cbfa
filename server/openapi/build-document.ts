// Builds the OpenAPI 3.1 document from endpoint descriptions. Schemas come from zod's own JSON Schema
// conversion (z.toJSONSchema, draft 2020-12, which OpenAPI 3.1 uses); schemas that carry a
// `.meta({ id })` become named components and are referenced, so the document stays readable.
import { z } from 'zod';
import { requestErrorSchema } from '../../shared/index.ts';
import type { EndpointDoc } from './endpoint-doc.ts';

type Json = Record<string, unknown>;

export interface ApiInfo {
  title: string;
  version: string;
  description: string;
}

const errorSchema = requestErrorSchema.meta({ id: 'Error', description: 'Every request-level error: `{"detail": "…"}`.' });

/** Rewrites `#/$defs/X` references into `#/components/schemas/X`, in place. */
function rewriteRefs(node: unknown, rename: (id: string) => string): void {
  if (Array.isArray(node)) node.forEach((child) => rewriteRefs(child, rename));
  else if (node && typeof node === 'object') {
    const object = node as Json;
    if (typeof object.$ref === 'string' && object.$ref.startsWith('#/$defs/')) {
      object.$ref = `#/components/schemas/${rename(object.$ref.slice('#/$defs/'.length))}`;
    }
    for (const value of Object.values(object)) rewriteRefs(value, rename);
  }
}

class SchemaCollector {
  readonly components: Record<string, Json> = {};

  /** The JSON Schema of a zod schema, its named parts moved into the components. */
  convert(schema: z.ZodType, io: 'input' | 'output'): Json {
    const json = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as Json;
    const defs = (json.$defs ?? {}) as Record<string, Json>;
    delete json.$defs;
    delete json.$schema;
    // The same id may describe a request (input) and an answer (output) differently: keep both.
    const names = new Map<string, string>();
    for (const [id, def] of Object.entries(defs)) {
      const text = JSON.stringify(def);
      const existing = this.components[id];
      names.set(id, existing && JSON.stringify(existing) !== text && io === 'input' ? `${id}Input` : id);
    }
    const rename = (id: string) => names.get(id) ?? id;
    for (const [id, def] of Object.entries(defs)) {
      rewriteRefs(def, rename);
      this.components[rename(id)] ??= def;
    }
    rewriteRefs(json, rename);
    return json;
  }
}

function errorResponses(doc: EndpointDoc): Record<string, string> {
  const errors: Record<string, string> = {};
  if (doc.auth !== false) errors['401'] = 'Missing, unknown or revoked token (`WWW-Authenticate: Token`).';
  errors['405'] = 'Method not allowed on this path (see the `Allow` header).';
  return errors;
}

export function buildOpenApiDocument(endpoints: readonly EndpointDoc[], info: ApiInfo): Json {
  const schemas = new SchemaCollector();
  const paths: Record<string, Record<string, Json>> = {};
  const errorRef = schemas.convert(errorSchema, 'output');

  for (const doc of endpoints) {
    const parameters: Json[] = [];
    for (const name of [...doc.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!)) {
      const param = doc.pathParams?.[name];
      parameters.push({
        name,
        in: 'path',
        required: true,
        description: param?.description ?? `${name} (integer id)`,
        schema: param?.schema ? schemas.convert(param.schema, 'input') : { type: 'integer', minimum: 1 },
      });
    }
    if (doc.query) {
      const query = schemas.convert(doc.query, 'input');
      let object = query;
      if (typeof query.$ref === 'string') {
        // Query parameters are listed one by one; the object itself is no component.
        const name = query.$ref.split('/').pop()!;
        object = schemas.components[name]!;
        delete schemas.components[name];
      }
      const required = new Set((object.required as string[] | undefined) ?? []);
      for (const [name, property] of Object.entries((object.properties ?? {}) as Record<string, Json>)) {
        const { description, ...schema } = property;
        parameters.push({ name, in: 'query', required: required.has(name), ...(description ? { description } : {}), schema });
      }
    }
    const responses: Record<string, Json> = {};
    for (const [status, response] of Object.entries(doc.responses)) {
      // An error answer without a schema of its own is the API's `{"detail": …}`.
      const schema = response.schema ? schemas.convert(response.schema, 'output') : Number(status) >= 400 && !response.contentType ? errorRef : undefined;
      const content = schema
        ? { 'application/json': { schema } }
        : response.contentType
          ? { [response.contentType]: { schema: { type: 'string' } } }
          : undefined;
      responses[status] = { description: response.description, ...(content ? { content } : {}) };
    }
    for (const [status, description] of Object.entries(errorResponses(doc))) {
      responses[status] ??= { description, content: { 'application/json': { schema: errorRef } } };
    }
    const operation: Json = {
      tags: [doc.tag],
      summary: doc.summary,
      ...(doc.description ? { description: doc.description } : {}),
      operationId: `${doc.method}${doc.path.replace(/\{(\w+)\}/g, 'By_$1').replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ? c.toUpperCase() : ''))}`,
      ...(parameters.length > 0 ? { parameters } : {}),
      ...(doc.body
        ? {
            requestBody: {
              required: doc.body.required ?? true,
              ...(doc.body.description ? { description: doc.body.description } : {}),
              content: { 'application/json': { schema: schemas.convert(doc.body.schema, 'input') } },
            },
          }
        : {}),
      responses,
      security: doc.auth === false ? [] : [{ tokenAuth: [] }, { bearerAuth: [] }],
    };
    (paths[doc.path] ??= {})[doc.method] = operation;
  }

  return {
    openapi: '3.1.0',
    info,
    servers: [{ url: '/', description: 'This server' }],
    tags: [...new Set(endpoints.map((e) => e.tag))].map((name) => ({ name })),
    paths,
    components: {
      schemas: schemas.components,
      securitySchemes: {
        tokenAuth: { type: 'apiKey', in: 'header', name: 'Authorization', description: 'DRF style: `Authorization: Token <key>`.' },
        bearerAuth: { type: 'http', scheme: 'bearer', description: '`Authorization: Bearer <key>` is accepted too.' },
      },
    },
  };
}
