// The `barcodes` query parameter of the read and label endpoints: a comma-separated list, a repeated
// parameter counting as one list. The list rules and their messages are shared/barcode-list.ts.
import { z } from 'zod';
import { MAX_BARCODES_PER_READ, requestMessages } from '../../shared/index.ts';
import type { QueryInput } from './endpoint.ts';

export const barcodesQuery: QueryInput<{ barcodes: string }> = {
  schema: z.object({
    barcodes: z
      .string({ error: requestMessages.barcodesRequired })
      .describe(
        `Comma-separated barcodes; white space around entries is trimmed, repeats answered once. At most ${MAX_BARCODES_PER_READ}.`,
      ),
  }),
  joinRepeated: ['barcodes'],
  invalid: (issues) => issues[0]!.message,
  code: 'invalid_barcodes',
};
