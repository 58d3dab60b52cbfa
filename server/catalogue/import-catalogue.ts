// Parses a whole catalogue document: the structure (catalogue-schema.ts) and the rules across fields
// (catalogue-checks.ts). Files go through importCatalogueFile (import-catalogue-file.ts), which
// streams with the same rules; the writing is the store's (store/catalogue-writer.ts).
import type { z } from 'zod';
import { catalogueRefused } from '../store/catalogue-writer.ts';
import { CatalogueChecker, formatPath } from './catalogue-checks.ts';
import { type Catalogue, catalogueSchema, withoutUnknownKeys } from './catalogue-schema.ts';

const describe = (issues: readonly z.core.$ZodIssue[]) => issues.map((i) => `${formatPath(i.path)}: ${i.message}`);

/**
 * Validates a parsed JSON document against the catalogue format, structure first, then the rules
 * across fields (unique ids and barcodes, stock that fits the scenario), which also run when the
 * structure is wrong only by unknown keys. Throws a CatalogueRefusal listing every problem.
 */
export async function parseCatalogue(document: unknown): Promise<Catalogue> {
  const parsed = catalogueSchema.safeParse(document);
  const problems = parsed.success ? [] : describe(parsed.error.issues);
  let catalogue = parsed.success ? parsed.data : undefined;
  if (!parsed.success && parsed.error.issues.every((issue) => issue.code === 'unrecognized_keys')) {
    catalogue = catalogueSchema.safeParse(withoutUnknownKeys(document, parsed.error.issues)).data;
  }
  if (catalogue) {
    const checker = new CatalogueChecker((path, message) => problems.push(`${formatPath(path)}: ${message}`));
    for (const [a, account] of catalogue.accounts.entries()) {
      checker.checkAccount(account, a);
      for (const [i, item] of account.items.entries()) await checker.checkItem(item, i);
    }
  }
  if (problems.length > 0) throw catalogueRefused(problems);
  return catalogue!;
}
