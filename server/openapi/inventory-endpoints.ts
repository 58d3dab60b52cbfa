// The three endpoints of the service spec (section 4), described for the OpenAPI document.
import { z } from 'zod';
import {
  MAX_BARCODES_PER_READ,
  MAX_QUANTITY,
  MAX_ROWS_PER_UPDATE,
  MIN_QUANTITY,
  plainRowInputSchema,
  readResponseSchema,
  updateResponseSchema,
  updateRowPosFieldsDoc,
  warehouseListSchema,
  warehouseRowInputSchema,
} from '../../shared/index.ts';
import type { EndpointDoc } from './endpoint-doc.ts';
import { IDEMPOTENCY_NOTE, idempotencyResponses } from './pos-endpoints.ts';

const tag = 'Inventory';

// The row schemas turn `quantity` from unknown input in code (a transform), which JSON Schema cannot
// show; for the document it is spelled out as what the transform accepts.
const quantity = z
  .union([z.number().int().min(MIN_QUANTITY).max(MAX_QUANTITY), z.string().regex(/^\s*-?\d+\s*$/)])
  .describe('New quantity: an integer, or a string of digits with an optional minus sign.');
const warehouseRow = warehouseRowInputSchema.extend({ quantity, ...updateRowPosFieldsDoc }).meta({ id: 'UpdateRowWithWarehouse' });
const plainRow = plainRowInputSchema.extend({ quantity, ...updateRowPosFieldsDoc }).meta({ id: 'UpdateRowWithoutWarehouse' });

export const inventoryEndpoints: EndpointDoc[] = [
  {
    method: 'get',
    path: '/api/v1/core/item/inventory_by_barcode/',
    tag,
    summary: 'Read stock by barcode',
    description:
      `Each requested barcode ends up in \`results\` (one record per warehouse in the warehouse scenario) or in \`errors\`. ` +
      `At most ${MAX_BARCODES_PER_READ} distinct barcodes per request.`,
    query: z.object({
      barcodes: z.string().min(1).describe(`Comma-separated barcodes; white space around entries is trimmed, repeats answered once. At most ${MAX_BARCODES_PER_READ}.`),
    }),
    responses: {
      200: { description: 'Records of the found barcodes and one error entry per unknown barcode.', schema: readResponseSchema.meta({ id: 'ReadResponse' }) },
      400: { description: 'Missing or empty `barcodes`, or more than the limit.' },
    },
  },
  {
    method: 'post',
    path: '/api/v1/core/item/inventory_by_barcode/',
    tag,
    summary: 'Set stock by barcode',
    description:
      `A JSON array of at most ${MAX_ROWS_PER_UPDATE} rows. Each row is validated on its own; valid rows are applied in request order ` +
      'in one durable transaction, invalid ones are answered in `errors` with the row echoed. `quantity` is an integer or a string of digits. ' +
      '`warehouse_name` is required in the warehouse scenario and ignored otherwise. ' +
      'Optional per row (docs/POS.md): `compare_quantity` (guarded set), `reason`, `reference`.' +
      IDEMPOTENCY_NOTE,
    body: { schema: z.array(z.union([warehouseRow, plainRow])).max(MAX_ROWS_PER_UPDATE) },
    responses: {
      200: { description: 'One record per applied row, one error entry per rejected row.', schema: updateResponseSchema.meta({ id: 'UpdateResponse' }) },
      400: { description: 'Body is not JSON, not an array, or has too many rows: nothing was changed.' },
      413: { description: 'Body larger than 1 MiB.' },
      415: { description: 'Body is not `application/json`.' },
      ...idempotencyResponses,
    },
  },
  {
    method: 'get',
    path: '/api/v1/core/warehouse/',
    tag,
    summary: 'List warehouses',
    description: 'The calling account\'s warehouses ordered by id; `[]` in the no-warehouse scenario.',
    responses: { 200: { description: 'Warehouses.', schema: warehouseListSchema } },
  },
];
