// The request-level checks of every row-list write (update, adjust): a JSON array of at most 50 rows.
import { MAX_ROWS_PER_UPDATE, jsonTypeName, requestMessages } from '../../shared/index.ts';
import { HttpError } from './http-error.ts';

export function requireRowList(body: unknown): unknown[] {
  if (!Array.isArray(body)) throw new HttpError(400, requestMessages.expectedList(jsonTypeName(body)));
  if (body.length > MAX_ROWS_PER_UPDATE) throw new HttpError(400, requestMessages.tooManyRows(body.length));
  return body;
}
