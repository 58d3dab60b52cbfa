// SQLite's SQL with every bound value written `+?` instead of `?`. The SQLite that better-sqlite3
// builds has STAT4 (ANALYZE keeps samples of each index's values), and a query planned with a bound
// value's help is marked to be planned again whenever that value is bound anew, which better-sqlite3
// does on every run: the GET's 50-barcode query was compiled again at every request, because the
// planner had looked at the account id against the samples (accounts differ in size). On the 1M
// bench database that query took 122-134 µs with `?` and 69-76 µs with `+?` (same plan, in a loop,
// bench/NOTES.md). `+` is SQLite's no-op operator: the value, its type and the comparison's affinity
// are unchanged (a bound value has no affinity or collation of its own), indexes are used as before,
// and the planner estimates from the index's averages (sqlite_stat1), as it does for any expression.
import { SqliteQueryCompiler } from 'kysely';

export class FixedPlanCompiler extends SqliteQueryCompiler {
  protected override getCurrentParameterPlaceholder(): string {
    return '+?';
  }
}
