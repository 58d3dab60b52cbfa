// Printable labels (docs/LABELS.md): a PDF of label sheets or roll labels, the same labels as ZPL for
// a thermal printer, sent to the account's label printer, and codes of the shop's own for items that
// have none.
import {
  LABELS_PDF_PATH,
  LABELS_PRINT_PATH,
  LABELS_ZPL_PATH,
  LABEL_CODES_PATH,
  MAY,
  labelCodesAnswerSchema,
  labelCodesBodySchema,
  labelMessages,
  labelPrintAnswerSchema,
  labelQuerySchema,
} from '../../shared/index.ts';
import { conflict } from '../errors.ts';
import { labelJob } from '../labels/label-document.ts';
import { labelPdf, labelZpl } from '../labels/label-renderers.ts';
import { sendToPrinter } from '../labels/label-printer.ts';
import { type QueryInput, type Resource, endpoint } from './endpoint.ts';
import type { LabelQuery } from '../../shared/index.ts';

const labelQuery: QueryInput<LabelQuery> = {
  schema: labelQuerySchema,
  joinRepeated: ['barcodes', 'items', 'variants'],
  invalid: (issues) =>
    [...new Set(issues.map((issue) => (issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message)))].join(' '),
};

const refusals = {
  400: {
    description:
      'No source or more than one, an unknown layout or warehouse, too many labels, batch or expiry for a code that is not a GTIN.',
  },
  404: { description: 'No such stocktake in the calling account.' },
};

export const labels: Resource = {
  tag: 'Labels',
  endpoints: [
    endpoint({
      method: 'GET',
      path: LABELS_PDF_PATH,
      summary: 'Labels as PDF',
      roles: MAY.printLabels,
      description:
        "A label for each barcode of one source (barcodes, items, variants, a stocktake's unknown barcodes, or a warehouse), " +
        'with the item and variant name and optionally the warehouse, on a sheet layout (default a4-3x8) or a roll. ' +
        'The barcode is EAN-13, UPC-A or EAN-8 for a GTIN, Code 128 for any other code, GS1 DataMatrix or GS1-128 with batch or expiry.',
      query: labelQuery,
      responses: { 200: { description: 'The PDF.', contentType: 'application/pdf' }, ...refusals },
      async handler({ store, caller, query }) {
        const job = await labelJob(store, caller, query, 'pdf');
        return {
          body: await labelPdf(job),
          type: 'application/pdf',
          headers: { 'Content-Disposition': 'inline; filename="labels.pdf"' },
        };
      },
    }),
    endpoint({
      method: 'GET',
      path: LABELS_ZPL_PATH,
      summary: 'Labels as ZPL',
      roles: MAY.printLabels,
      description:
        'The same labels as labels.pdf in ZPL II for a Zebra (or compatible) printer, on a roll layout (default roll-50x25), 203 dpi.',
      query: labelQuery,
      responses: { 200: { description: 'ZPL, one format per label.', contentType: 'text/plain' }, ...refusals },
      async handler({ store, caller, query }) {
        const job = await labelJob(store, caller, query, 'zpl');
        return {
          body: await labelZpl(job),
          type: 'text/plain; charset=utf-8',
          headers: { 'Content-Disposition': 'attachment; filename="labels.zpl"' },
        };
      },
    }),
    endpoint({
      method: 'POST',
      path: LABELS_PRINT_PATH,
      summary: "Print labels on the account's label printer",
      roles: MAY.printLabels,
      description:
        'The labels chosen by the same query parameters as labels.zpl, sent as ZPL to the printer an administrator set up ' +
        '(`barcode-inventory labels setup --printer <address>:<port>`).',
      query: labelQuery,
      responses: {
        200: { description: 'How many labels were handed to the printer, and which printer.', schema: labelPrintAnswerSchema },
        ...refusals,
        409: { description: 'No label printer is set up for the account.' },
        502: { description: 'The printer could not be reached; nothing was printed.' },
      },
      async handler({ store, caller, query }) {
        const { printer } = await store.labels.settings(caller);
        if (printer === null) throw conflict(labelMessages.noPrinter(caller.name));
        const job = await labelJob(store, caller, query, 'zpl');
        await sendToPrinter(printer, await labelZpl(job));
        return { body: { printed: job.labels.length, printer } };
      },
    }),
    endpoint({
      method: 'POST',
      path: LABEL_CODES_PATH,
      summary: 'New items with codes of the shop’s own',
      roles: MAY.makeCodes,
      description:
        'For goods without a barcode (loose goods, own products, shelves): a new item per name, each with an EAN-13 from the ' +
        "account's prefix (a GS1 company prefix, or 20–29 for use inside the shop; `barcode-inventory labels setup --prefix`), " +
        'unique in the account, written to the catalogue as an import writes it, so followers get them with the next catalogue sync.',
      body: { schema: labelCodesBodySchema },
      responses: {
        200: { description: 'The codes made, in item order.', schema: labelCodesAnswerSchema },
        400: { description: 'No names, or a blank one; an account that follows an upstream (its catalogue comes from there).' },
        409: { description: "Every code of the account's prefix is taken." },
      },
      async handler({ store, caller, body }) {
        const codes = await store.labels.makeCodes(
          caller,
          body.items.map((item) => item.name),
        );
        return { body: { codes } };
      },
    }),
  ],
};
