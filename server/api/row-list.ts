// The body of every row-list write (update, adjust): a JSON array of at most 50 rows, refused as a
// whole otherwise. Each row is checked on its own later (shared/row-validation.ts), so one bad row
// never refuses the others; the document shows the rows as they should be.
import { z } from 'zod';
import { MAX_ROWS_PER_UPDATE, jsonTypeName, requestMessages } from '../../shared/index.ts';
import type { BodyInput } from './endpoint.ts';

export function rowListBody(documentedRow: z.ZodType, description?: string): BodyInput<unknown[]> {
  return {
    schema: z.array(z.unknown(), { error: (issue) => requestMessages.expectedList(jsonTypeName(issue.input)) }).max(MAX_ROWS_PER_UPDATE, {
      error: (issue) => requestMessages.tooManyRows(Array.isArray(issue.input) ? issue.input.length : MAX_ROWS_PER_UPDATE + 1),
    }),
    documented: z.array(documentedRow).max(MAX_ROWS_PER_UPDATE),
    ...(description ? { description } : {}),
    // The first problem is the whole answer: the body is not a list, or it is too long.
    invalid: (issues) => issues[0]!.message,
  };
}
