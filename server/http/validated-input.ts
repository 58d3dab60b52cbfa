// Request bodies and query strings checked against the zod schemas of shared/: a failure is a 400
// whose detail names every bad field (`amount: Too big…; barcode: This field is required.`).
import type { Context } from 'koa';
import type { z } from 'zod';
import { requestMessages, stocktakeMessages } from '../../shared/index.ts';
import { HttpError } from './http-error.ts';
import { readJsonBody } from './json-body.ts';

function describeIssues(issues: readonly z.core.$ZodIssue[]): string {
  return issues.map((issue) => (issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message)).join('; ');
}

/** A POST without a body and without a content type counts as `{}` (e.g. `curl -X POST …/undo/`). */
function hasNoBody(ctx: Context): boolean {
  return ctx.get('content-type') === '' && !ctx.request.length && ctx.get('transfer-encoding') === '';
}

export async function parseBody<S extends z.ZodType>(ctx: Context, schema: S): Promise<z.infer<S>> {
  const body = hasNoBody(ctx) ? {} : await readJsonBody(ctx);
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new HttpError(400, stocktakeMessages.invalidBody(describeIssues(parsed.error.issues)));
  return parsed.data;
}

export function parseQuery<S extends z.ZodType>(ctx: Context, schema: S): z.infer<S> {
  // A repeated parameter counts once: its last value.
  const query = Object.fromEntries(Object.entries(ctx.query).map(([key, value]) => [key, Array.isArray(value) ? value.at(-1) : value]));
  const parsed = schema.safeParse(query);
  if (!parsed.success) throw new HttpError(400, stocktakeMessages.invalidQuery(describeIssues(parsed.error.issues)));
  return parsed.data;
}

/** A path id: digits only, else the resource does not exist. */
export function pathId(value: string | undefined): number {
  if (value === undefined || !/^\d{1,15}$/.test(value)) throw new HttpError(404, requestMessages.notFound);
  return Number(value);
}
