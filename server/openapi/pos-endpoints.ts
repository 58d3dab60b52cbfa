// The POS integration's endpoint (issue 6, docs/POS.md), described for the OpenAPI document.
import { z } from 'zod';
import {
  ADJUST_PATH,
  IDEMPOTENCY_KEY_TTL_HOURS,
  MAX_ROWS_PER_UPDATE,
  adjustResponseSchema,
  adjustRowFieldsDoc,
  plainAdjustRowInputSchema,
  warehouseAdjustRowInputSchema,
} from '../../shared/index.ts';
import type { EndpointDoc } from './endpoint-doc.ts';

const tag = 'POS integration';

/** Said on every write that takes the header (EndpointDoc has no request headers). */
export const IDEMPOTENCY_NOTE =
  ' Optional header `Idempotency-Key` (1–255 visible ASCII characters): replaying the same request (method, path, JSON body) ' +
  'answers the first answer again with `Idempotent-Replayed: true` and applies nothing; keys are kept per account for ' +
  `${IDEMPOTENCY_KEY_TTL_HOURS} h. Same key with another request: 422; same key still in flight: 409.`;

/** Responses every write with an Idempotency-Key may give besides its own. */
export const idempotencyResponses = {
  409: { description: 'A request with the same Idempotency-Key is still being processed: retry later with the same key.' },
  422: { description: 'The Idempotency-Key was already used with a different request: nothing was applied.' },
};

const warehouseRow = warehouseAdjustRowInputSchema.extend(adjustRowFieldsDoc).meta({ id: 'AdjustRowWithWarehouse' });
const plainRow = plainAdjustRowInputSchema.extend(adjustRowFieldsDoc).meta({ id: 'AdjustRowWithoutWarehouse' });

export const posEndpoints: EndpointDoc[] = [
  {
    method: 'post',
    path: ADJUST_PATH,
    tag,
    summary: 'Adjust stock by barcode (atomic deltas)',
    description:
      `A JSON array of at most ${MAX_ROWS_PER_UPDATE} rows, validated and answered like the update endpoint, but each row's \`delta\` ` +
      'is added in the database, so concurrent tills never lose a sale. Each record carries the quantity after its row. ' +
      'A row whose result would leave -1,000,000,000 … 1,000,000,000 is an error under `delta` and changes nothing.' +
      IDEMPOTENCY_NOTE,
    body: { schema: z.array(z.union([warehouseRow, plainRow])).max(MAX_ROWS_PER_UPDATE) },
    responses: {
      200: { description: 'One record per applied row (quantity after the row), one error entry per rejected row.', schema: adjustResponseSchema },
      400: { description: 'Body is not JSON, not an array, or has too many rows; or a malformed Idempotency-Key: nothing was changed.' },
      413: { description: 'Body larger than 1 MiB.' },
      415: { description: 'Body is not `application/json`.' },
      ...idempotencyResponses,
    },
  },
];
