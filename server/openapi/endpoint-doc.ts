// How a route module describes its endpoints for the OpenAPI document: zod schemas from shared/ for
// the query, the body and each answer; the document and the API page are generated from these.
import type { z } from 'zod';

export interface ResponseDoc {
  description: string;
  /** JSON answer; omit for an answer without a body. */
  schema?: z.ZodType;
  /** Another media type than JSON (e.g. text/csv), described in words. */
  contentType?: string;
}

export interface EndpointDoc {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** OpenAPI path with `{param}` placeholders and the trailing slash the API documents. */
  path: string;
  tag: string;
  summary: string;
  description?: string;
  /** false for public endpoints (the API description itself); default true (token required). */
  auth?: boolean;
  /** Path parameters by name: integer ids unless a schema is given. */
  pathParams?: Record<string, { description: string; schema?: z.ZodType }>;
  /** An object schema: each property is one query parameter. */
  query?: z.ZodObject;
  body?: { schema: z.ZodType; description?: string; required?: boolean };
  responses: Record<number, ResponseDoc>;
}
