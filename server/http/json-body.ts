// Reads a request body as JSON: JSON content type (else 415), at most 1 MiB (else 413), valid UTF-8
// and JSON (else 400). The Content-Type header is parsed as RFC 9110 has it (optional white space
// around `;` and `=`, quoted values, case-insensitive names) by the `content-type` package. Nesting is bounded so that echoing a hostile row
// back can never exhaust the stack.
import { isTypeValid, parse as parseContentType } from 'content-type';
import getRawBody from 'raw-body';
import type { Context } from 'koa';
import { MAX_BODY_BYTES, requestMessages } from '../../shared/index.ts';
import { apiError } from '../errors.ts';

export const MAX_JSON_DEPTH = 64;

function isJsonType(mime: string): boolean {
  return mime === 'application/json' || (mime.startsWith('application/') && mime.endsWith('+json'));
}

/**
 * Depth of nested arrays/objects, measured without recursion. Only containers are stacked, their
 * depths in a second stack: a 500-movement sync batch has 8,000 values and 1,000 containers.
 */
export function jsonDepthExceeds(value: unknown, limit: number): boolean {
  const nodes: object[] = [];
  const depths: number[] = [];
  const visit = (child: unknown, depth: number) => {
    if (typeof child === 'object' && child !== null) {
      nodes.push(child);
      depths.push(depth);
    }
  };
  visit(value, 1);
  while (nodes.length > 0) {
    const node = nodes.pop()!;
    const depth = depths.pop()!;
    if (depth > limit) return true;
    if (Array.isArray(node)) for (let i = 0; i < node.length; i++) visit(node[i], depth + 1);
    else for (const key in node) visit((node as Record<string, unknown>)[key], depth + 1);
  }
  return false;
}

export async function readJsonBody(ctx: Context): Promise<unknown> {
  const header = ctx.get('content-type');
  const { type, parameters } = parseContentType(header);
  if (!isTypeValid(type) || !isJsonType(type)) throw apiError(415, requestMessages.unsupportedMediaType(header));
  const charset = (parameters.charset ?? '').toLowerCase();
  if (charset !== '' && charset !== 'utf-8' && charset !== 'utf8') {
    throw apiError(415, requestMessages.unsupportedMediaType(ctx.get('content-type')));
  }
  let raw: Buffer;
  try {
    raw = await getRawBody(ctx.req, { limit: MAX_BODY_BYTES, length: ctx.request.length });
  } catch (error) {
    const type = (error as { type?: string }).type;
    // Let the rest of an unread body drain so the client reads the answer instead of stalling.
    ctx.req.resume();
    if (type === 'entity.too.large') throw apiError(413, requestMessages.bodyTooLarge(MAX_BODY_BYTES));
    throw apiError(400, `Could not read the request body: ${(error as Error).message}`, { code: 'body_unreadable' });
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(raw);
  } catch {
    throw apiError(400, requestMessages.invalidUtf8, { code: 'invalid_json' });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw apiError(400, requestMessages.jsonParseError((error as Error).message), { code: 'invalid_json' });
  }
  if (jsonDepthExceeds(value, MAX_JSON_DEPTH)) {
    throw apiError(400, requestMessages.jsonTooDeep(MAX_JSON_DEPTH), { code: 'invalid_json' });
  }
  return value;
}

/** A POST without a body and without a content type (e.g. `curl -X POST …/undo/`). */
export function hasNoBody(ctx: Context): boolean {
  return ctx.get('content-type') === '' && !ctx.request.length && ctx.get('transfer-encoding') === '';
}
