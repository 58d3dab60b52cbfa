// The endpoints of the service contract (docs/API.md): read stock by barcode, set stock by barcode,
// list warehouses, and one warehouse by id.
import { z } from 'zod';
import {
  INVENTORY_PATH,
  MAX_BARCODES_PER_READ,
  MAX_QUANTITY,
  MAX_ROWS_PER_UPDATE,
  MAY,
  MIN_QUANTITY,
  WAREHOUSES_PATH,
  WAREHOUSE_PATH,
  parseBarcodeList,
  plainRowInputSchema,
  readResponseSchema,
  updateResponseSchema,
  updateRowPosFieldsDoc,
  warehouseListSchema,
  warehouseRowInputSchema,
  warehouseSchema,
} from '../../shared/index.ts';
import { badRequest, notFound } from '../errors.ts';
import { type Resource, endpoint } from './endpoint.ts';
import { barcodesQuery } from './barcodes-query.ts';
import { readAnswerJson } from './read-answer.ts';
import { rowListBody } from './row-list.ts';

// The row schemas turn `quantity` from unknown input in code (a transform), which JSON Schema cannot
// show; for the document it is spelled out as what the transform accepts.
const quantity = z
  .union([z.number().int().min(MIN_QUANTITY).max(MAX_QUANTITY), z.string().regex(/^\s*-?\d+\s*$/)])
  .describe('New quantity: an integer, or a string of digits with an optional minus sign.');
const warehouseRow = warehouseRowInputSchema.extend({ quantity, ...updateRowPosFieldsDoc }).meta({ id: 'UpdateRowWithWarehouse' });
const plainRow = plainRowInputSchema.extend({ quantity, ...updateRowPosFieldsDoc }).meta({ id: 'UpdateRowWithoutWarehouse' });

export const inventory: Resource = {
  tag: 'Inventory',
  endpoints: [
    endpoint({
      method: 'GET',
      path: INVENTORY_PATH,
      summary: 'Read stock by barcode',
      roles: MAY.readStock,
      description:
        'Each requested barcode ends up in `results` (one record per warehouse in the warehouse scenario) or in `errors`. ' +
        `At most ${MAX_BARCODES_PER_READ} distinct barcodes per request.`,
      query: barcodesQuery,
      responses: {
        200: {
          description: 'Records of the found barcodes and one error entry per unknown barcode.',
          schema: readResponseSchema.meta({ id: 'ReadResponse' }),
        },
        400: { description: 'Missing or empty `barcodes`, or more than the limit.' },
      },
      async handler({ store, caller, query }) {
        const parsed = parseBarcodeList(query.barcodes);
        if (!parsed.ok) throw badRequest(parsed.detail, 'invalid_barcodes');
        const records = await store.stock.read(caller, parsed.barcodes);
        return { body: readAnswerJson(parsed.barcodes, (barcode) => records.get(barcode)), type: 'application/json' };
      },
    }),
    endpoint({
      method: 'POST',
      path: INVENTORY_PATH,
      summary: 'Set stock by barcode',
      roles: MAY.setStock,
      description:
        `A JSON array of at most ${MAX_ROWS_PER_UPDATE} rows. Each row is validated on its own and every error of a row is reported; ` +
        'valid rows are applied in request order in one durable transaction, invalid ones are answered in `errors` with the row echoed. ' +
        '`quantity` is an integer or a string of digits. `warehouse_name` is required in the warehouse scenario and ignored otherwise. ' +
        'Optional per row (docs/POS.md): `compare_quantity` (guarded set), `reason`, `reference`.',
      idempotent: true,
      body: rowListBody(z.union([warehouseRow, plainRow])),
      responses: {
        200: {
          description: 'One record per applied row, one error entry per rejected row.',
          schema: updateResponseSchema.meta({ id: 'UpdateResponse' }),
        },
        400: { description: 'Body is not JSON, not an array, or has too many rows: nothing was changed.' },
        413: { description: 'Body larger than 1 MiB.' },
        415: { description: 'Body is not `application/json`.' },
      },
      handler: ({ store, caller, body, once }) => store.stock.update(caller, body, { source: 'api', once }),
    }),
    endpoint({
      method: 'GET',
      path: WAREHOUSES_PATH,
      summary: 'List warehouses',
      roles: MAY.readStock,
      description: "The calling account's warehouses ordered by id; `[]` in the no-warehouse scenario.",
      responses: { 200: { description: 'Warehouses.', schema: warehouseListSchema } },
      handler: async ({ store, caller }) => ({ body: await store.stock.warehouses(caller) }),
    }),
    endpoint({
      method: 'GET',
      path: WAREHOUSE_PATH,
      summary: 'Read one warehouse',
      roles: MAY.readStock,
      description: "One of the calling account's warehouses by id; another account's warehouse does not exist for the caller.",
      params: { id: 'Warehouse id.' },
      responses: {
        200: { description: 'The warehouse.', schema: warehouseSchema },
        404: { description: 'No such warehouse in the calling account.' },
      },
      async handler({ store, caller, params }) {
        const warehouse = (await store.stock.warehouses(caller)).find((w) => w.id === params.id);
        if (!warehouse) throw notFound();
        return { body: warehouse };
      },
    }),
  ],
};
