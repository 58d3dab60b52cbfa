// Parses a whole catalogue document: the structure (catalogue-schema.ts) and the rules across fields
// (catalogue-checks.ts). Files go through importCatalogueFile (import-catalogue-file.ts), which
// streams with the same rules; the writing is the store's (store/catalogue-writer.ts).
import type { z } from 'zod';
import { catalogueRefused } from '../store/catalogue-writer.ts';
import { ProblemList } from '../store/problem-list.ts';
import { CatalogueChecker, formatPath } from './catalogue-checks.ts';
import {
  type Catalogue,
  catalogueAccountHeaderSchema,
  catalogueItemSchema,
  catalogueSchema,
  isJsonObject,
  withoutUnknownKeys,
} from './catalogue-schema.ts';

const describe = (issue: z.core.$ZodIssue) => `${formatPath(issue.path)}: ${issue.message}`;

/**
 * Validates a parsed JSON document against the catalogue format, structure first, then the rules
 * across fields (unique ids and barcodes, stock that fits the scenario), which also run when the
 * structure is wrong only by unknown keys. Throws a CatalogueRefusal that lists the first problems
 * (problem-list.ts) and counts all of them.
 */
export async function parseCatalogue(document: unknown): Promise<Catalogue> {
  const parsed = catalogueSchema.safeParse(document);
  const problems = new ProblemList();
  if (!parsed.success) for (const issue of parsed.error.issues) problems.add(describe(issue));
  let catalogue = parsed.success ? parsed.data : undefined;
  if (!parsed.success && parsed.error.issues.every((issue) => issue.code === 'unrecognized_keys')) {
    catalogue = catalogueSchema.safeParse(withoutUnknownKeys(document, parsed.error.issues)).data;
  }
  const checker = new CatalogueChecker((path, message) => problems.add(`${formatPath(path)}: ${message}`));
  if (catalogue) {
    for (const [a, account] of catalogue.accounts.entries()) {
      checker.checkAccount(account, a);
      for (const [i, item] of account.items.entries()) await checker.checkItem(item, i);
    }
  } else if (isJsonObject(document) && Array.isArray(document.accounts)) {
    // Every problem at once: the rules across fields still run for each item whose own structure is
    // right (as the file import does, item by item), beside the structural problems.
    for (const [a, account] of document.accounts.entries()) {
      const header = catalogueAccountHeaderSchema.safeParse(account);
      if (!header.success) continue;
      checker.checkAccount(header.data, a);
      const items: unknown[] = isJsonObject(account) && Array.isArray(account.items) ? account.items : [];
      for (const [i, value] of items.entries()) {
        let item = catalogueItemSchema.safeParse(value);
        if (!item.success && item.error.issues.every((issue) => issue.code === 'unrecognized_keys'))
          item = catalogueItemSchema.safeParse(withoutUnknownKeys(value, item.error.issues));
        if (item.success) await checker.checkItem(item.data, i);
      }
    }
  }
  if (problems.count > 0) throw catalogueRefused(problems.listed, problems.count);
  return catalogue!;
}
