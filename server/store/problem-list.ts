// The problems of a catalogue import, bounded: a file with a million bad rows would otherwise hold a
// million strings (over 100 MB) and print them all, and the importer's heap is capped
// (server/launch/node-flags.ts). The first MAX_PROBLEMS_LISTED are kept, in the order they were
// found, and every one is counted; catalogueRefused (catalogue-writer.ts) says both.

/** How many problems a refused catalogue lists; the rest are counted. A person fixes a file from the first ones anyway. */
export const MAX_PROBLEMS_LISTED = 1000;

export class ProblemList {
  private readonly kept: string[] = [];
  private total = 0;

  /** The first MAX_PROBLEMS_LISTED problems, in the order they were added. */
  get listed(): readonly string[] {
    return this.kept;
  }

  /** Every problem added, listed or not. */
  get count(): number {
    return this.total;
  }

  add(problem: string): void {
    if (this.kept.length < MAX_PROBLEMS_LISTED) this.kept.push(problem);
    this.total++;
  }

  /** Adds another list after this one's: its `listed` problems, then `count` minus those, counted only. */
  addAll(listed: readonly string[], count: number = listed.length): void {
    for (const problem of listed) this.add(problem);
    this.total += Math.max(0, count - listed.length);
  }
}

/** `1234567` → `1,234,567`, the same on every machine (a locale would change the refusal's words). */
export const formatCount = (n: number): string => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/** The line that ends a list of `listed` problems out of `total`: how many more there were; undefined when none. */
export function unlistedProblems(listed: number, total: number): string | undefined {
  const more = total - listed;
  if (more <= 0) return undefined;
  return `… and ${formatCount(more)} more problem${more === 1 ? '' : 's'}, not listed (the first ${formatCount(listed)} ${listed === 1 ? 'is' : 'are'})`;
}
