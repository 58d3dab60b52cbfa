// Loads a validated catalogue document into the store in one transaction. Ids are the keys, so
// importing the same catalogue twice changes nothing the second time. Nothing is ever deleted by an
// import. Files go through importCatalogueFile (import-catalogue-file.ts), which streams.
import type { Database } from '../store/database.ts';
import { type Catalogue, catalogueSchema, formatPath } from './catalogue-schema.ts';
import { CatalogueWriter, type ImportSummary } from './catalogue-writer.ts';

export type { ImportSummary };

export class CatalogueError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(`The catalogue was refused (${problems.length} problem${problems.length === 1 ? '' : 's'}); nothing was written:\n${problems.map((p) => `  ${p}`).join('\n')}`);
    this.problems = problems;
  }
}

/** Validates a parsed JSON document against the catalogue format; throws CatalogueError with every problem. */
export function parseCatalogue(document: unknown): Catalogue {
  const parsed = catalogueSchema.safeParse(document);
  if (parsed.success) return parsed.data;
  throw new CatalogueError(parsed.error.issues.map((i) => `${formatPath(i.path)}: ${i.message}`));
}

/** Writes the catalogue, all or nothing. Conflicts with what the database holds are refused too. */
export function importCatalogue(db: Database, catalogue: Catalogue): ImportSummary {
  return db.transaction(() => {
    const writer = new CatalogueWriter(db);
    catalogue.accounts.forEach((account, a) => {
      if (writer.beginAccount(account, a)) account.items.forEach((item, i) => writer.writeItem(item, i));
    });
    // Throwing rolls the whole transaction back.
    if (writer.problems.length > 0) throw new CatalogueError(writer.problems);
    return writer.summary;
  });
}
