// The point-of-sale endpoint beside the spec's (docs/POS.md): atomic stock adjustments.
import { z } from 'zod';
import {
  ADJUST_PATH,
  MAX_ROWS_PER_UPDATE,
  MAY,
  adjustResponseSchema,
  adjustRowFieldsDoc,
  plainAdjustRowInputSchema,
  warehouseAdjustRowInputSchema,
} from '../../shared/index.ts';
import { type Resource, endpoint } from './endpoint.ts';
import { rowListBody } from './row-list.ts';

const warehouseRow = warehouseAdjustRowInputSchema.extend(adjustRowFieldsDoc).meta({ id: 'AdjustRowWithWarehouse' });
const plainRow = plainAdjustRowInputSchema.extend(adjustRowFieldsDoc).meta({ id: 'AdjustRowWithoutWarehouse' });

export const pos: Resource = {
  tag: 'POS integration',
  endpoints: [
    endpoint({
      method: 'POST',
      path: ADJUST_PATH,
      summary: 'Adjust stock by barcode (atomic deltas)',
      roles: MAY.adjustStock,
      description:
        `A JSON array of at most ${MAX_ROWS_PER_UPDATE} rows, validated and answered like the update endpoint, but each row's \`delta\` ` +
        'is added in the database, so concurrent tills never lose a sale. Each record carries the quantity after its row. ' +
        'A row whose result would leave -1,000,000,000 … 1,000,000,000 is an error under `delta` and changes nothing.',
      idempotent: true,
      body: rowListBody(z.union([warehouseRow, plainRow])),
      responses: {
        200: {
          description: 'One record per applied row (quantity after the row), one error entry per rejected row.',
          schema: adjustResponseSchema,
        },
        400: { description: 'Body is not JSON, not an array, or has too many rows; or a malformed Idempotency-Key: nothing was changed.' },
        413: { description: 'Body larger than 1 MiB.' },
        415: { description: 'Body is not `application/json`.' },
      },
      handler: ({ store, caller, body, once }) => store.stock.adjust(caller, body, { source: 'api', once }),
    }),
  ],
};
