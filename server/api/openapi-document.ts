// Builds the OpenAPI 3.1 document from the endpoint table (the same declarations the router is built
// from). Schemas come from zod's own JSON Schema conversion (z.toJSONSchema, draft 2020-12, which
// OpenAPI 3.1 uses); schemas that carry a `.meta({ id })` become named components and are
// referenced, so the document stays readable.
import { z } from 'zod';
import {
  IDEMPOTENCY_KEY_TTL_HOURS,
  MAX_IDEMPOTENCY_KEY_LENGTH,
  ROLES,
  type ErrorCode,
  type Role,
  errorCodes,
  roleRefusalSchema,
  rolesAllowed,
} from '../../shared/index.ts';
import { type Endpoint, PUBLIC, type ResponseDoc, type Resource, isPublic } from './endpoint.ts';

type Json = Record<string, unknown>;

export interface ApiInfo {
  title: string;
  version: string;
  description: string;
}

/** Every request-level error as this server sends it: the text for a person, the code for a program. */
const errorSchema = z
  .object({
    detail: z.string().describe('What went wrong, in English, for a person; it may be reworded.'),
    code: z.enum(Object.keys(errorCodes) as [ErrorCode, ...ErrorCode[]]).describe(
      `What went wrong, for a program: stable, never renamed (docs/API.md, "Error codes"). ${Object.entries(errorCodes)
        .map(([code, meaning]) => `\`${code}\`: ${meaning}`)
        .join(' ')}`,
    ),
  })
  .meta({
    id: 'Error',
    description: 'Every request-level error: `{"detail": "…", "code": "…"}` (row errors of a write keep their own shape).',
  });
const roleRefusal = roleRefusalSchema.meta({
  id: 'RoleRefusal',
  description: 'A token whose role may not call the operation: the sentence, `code: "role_forbidden"` and the roles that may.',
});

/** The roles whose tokens may call an operation (every role for one that needs no token), as `x-roles` lists them. */
export function operationRoles(endpoint: Pick<Endpoint, 'roles'>): Role[] {
  return endpoint.roles === PUBLIC ? [...ROLES] : rolesAllowed(endpoint.roles);
}

/** The sentence every operation's description ends with. */
function rolesNote(endpoint: Pick<Endpoint, 'roles'>): string {
  return isPublic(endpoint) ? 'No token needed.' : `Roles: ${operationRoles(endpoint).join(', ')}.`;
}

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

/** Said on every write that takes the header. */
const IDEMPOTENCY_NOTE =
  `Optional header \`Idempotency-Key\` (1–${MAX_IDEMPOTENCY_KEY_LENGTH} visible ASCII characters): replaying the same request (method, path, JSON body) ` +
  'answers the first answer again with `Idempotent-Replayed: true` and applies nothing; keys are kept per account for ' +
  `${IDEMPOTENCY_KEY_TTL_HOURS} h. Same key with another request: 422; same key still in flight: 409.`;
const IN_FLIGHT = 'A request with the same Idempotency-Key is still being processed: retry later with the same key.';
const KEY_REUSED = 'The Idempotency-Key was already used with a different request: nothing was applied.';

/** The endpoint's own answers plus those every endpoint of its kind gives (token, method, Idempotency-Key). */
function responsesOf(endpoint: Endpoint): Record<string, ResponseDoc> {
  const responses: Record<string, ResponseDoc> = { ...endpoint.responses };
  if (!isPublic(endpoint)) {
    responses['401'] ??= { description: 'Missing, unknown or revoked token (`WWW-Authenticate: Token`).' };
    responses['403'] ??= {
      description: `The token's role may not call this (\`code: "role_forbidden"\`); ${rolesNote(endpoint)}`,
      schema: roleRefusal,
    };
  }
  responses['405'] ??= { description: 'Method not allowed on this path (see the `Allow` header).' };
  if (endpoint.idempotent) {
    const own = responses['409'];
    responses['409'] = { description: own ? `${own.description} Or: ${IN_FLIGHT}` : IN_FLIGHT };
    responses['422'] ??= { description: KEY_REUSED };
  }
  return responses;
}

export function buildOpenApiDocument(resources: readonly Resource[], info: ApiInfo): Json {
  const schemas = new SchemaCollector();
  const paths: Record<string, Record<string, Json>> = {};
  const errorRef = schemas.convert(errorSchema, 'output');

  for (const { tag, endpoints } of resources)
    for (const doc of endpoints) {
      const parameters: Json[] = [];
      for (const name of [...doc.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!)) {
        parameters.push({
          name,
          in: 'path',
          required: true,
          description: doc.params?.[name] ?? `${name} (integer id)`,
          schema: { type: 'integer', minimum: 1 },
        });
      }
      if (doc.query) {
        const query = schemas.convert(doc.query.schema, 'input');
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
      for (const [status, response] of Object.entries(responsesOf(doc))) {
        // An error answer without a schema of its own is the API's `{"detail": …}`.
        const schema = response.schema
          ? schemas.convert(response.schema, 'output')
          : Number(status) >= 400 && !response.contentType
            ? errorRef
            : undefined;
        const content = schema
          ? { 'application/json': { schema } }
          : response.contentType
            ? { [response.contentType]: { schema: { type: 'string' } } }
            : undefined;
        responses[status] = { description: response.description, ...(content ? { content } : {}) };
      }
      const description = [doc.description, doc.idempotent ? IDEMPOTENCY_NOTE : undefined, rolesNote(doc)].filter(Boolean).join(' ');
      const method = doc.method.toLowerCase();
      const operation: Json = {
        tags: [tag],
        summary: doc.summary,
        ...(description ? { description } : {}),
        operationId: `${method}${doc.path.replace(/\{(\w+)\}/g, 'By_$1').replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ? c.toUpperCase() : ''))}`,
        ...(parameters.length > 0 ? { parameters } : {}),
        ...(doc.body
          ? {
              requestBody: {
                required: doc.body.required ?? true,
                ...(doc.body.description ? { description: doc.body.description } : {}),
                content: { 'application/json': { schema: schemas.convert(doc.body.documented ?? doc.body.schema, 'input') } },
              },
            }
          : {}),
        responses,
        security: isPublic(doc) ? [] : [{ tokenAuth: [] }, { bearerAuth: [] }],
        'x-roles': operationRoles(doc),
      };
      (paths[doc.path] ??= {})[method] = operation;
    }

  return {
    openapi: '3.1.0',
    info,
    servers: [{ url: '/', description: 'This server' }],
    tags: resources.map((r) => ({ name: r.tag })),
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
