// Turns statements declared with named parameters (engine.ts, `statement`) into SQL compiled once
// per engine and list length, plus the recipe that orders a call's named values into the
// positional parameters every driver takes. Engine-neutral: each engine keeps one of these caches
// and prepares the SQL its own way.
import type { Kysely } from 'kysely';
import type { Param, Params, StatementDef } from './engine.ts';
import type { Schema } from './schema.ts';

/** A placeholder value no real parameter can equal: NUL cannot reach the store from outside. */
const MARK = '\u0000named-param\u0000';

/** Where one positional parameter comes from: a named value, an element of a named list, or a constant of the statement. */
type Slot = { name: string; index: number | undefined } | { constant: unknown };

export interface CompiledStatement {
  sql: string;
  slots: readonly Slot[];
}

/** The positional values of one call. */
export function positionalValues(compiled: CompiledStatement, params: Params): unknown[] {
  const values = new Array<unknown>(compiled.slots.length);
  for (let i = 0; i < compiled.slots.length; i++) {
    const slot = compiled.slots[i]!;
    if ('constant' in slot) values[i] = slot.constant;
    else {
      const value = slot.index === undefined ? params[slot.name] : (params[slot.name] as readonly unknown[])[slot.index];
      if (value === undefined) throw new Error(`statement parameter "${slot.name}" has no value`);
      values[i] = value;
    }
  }
  return values;
}

interface PerStatement {
  /** The named lists the statement uses (known after its first compilation). */
  lists: string[];
  byLengths: Map<string, CompiledStatement>;
}

export class StatementCompiler {
  private readonly k: Kysely<Schema>;
  private readonly cache = new Map<StatementDef<unknown, never>, PerStatement>();

  constructor(k: Kysely<Schema>) {
    this.k = k;
  }

  compile<P extends Params>(def: StatementDef<unknown, P>, params: P): CompiledStatement {
    const key = def as StatementDef<unknown, never>;
    let entry = this.cache.get(key);
    if (entry) {
      const lengths = entry.lists.length === 0 ? '' : entry.lists.map((name) => (params[name] as unknown[]).length).join(',');
      const compiled = entry.byLengths.get(lengths);
      if (compiled) return compiled;
    }
    const lists: string[] = [];
    const p = ((name: string) => `${MARK}${name}`) as Param<P>;
    p.list = ((name: string) => {
      lists.push(name);
      const values = params[name];
      if (!Array.isArray(values) || values.length === 0) throw new Error(`statement list parameter "${name}" needs a non-empty array`);
      return values.map((_, i) => `${MARK}${name}\u0000${i}`);
    }) as Param<P>['list'];
    const { sql, parameters } = def.build(this.k, p).compile();
    const slots: Slot[] = parameters.map((value) => {
      if (typeof value !== 'string' || !value.startsWith(MARK)) return { constant: value };
      const [name, index] = value.slice(MARK.length).split('\u0000');
      return { name: name!, index: index === undefined ? undefined : Number(index) };
    });
    if (!entry) this.cache.set(key, (entry = { lists: [...new Set(lists)], byLengths: new Map() }));
    const lengths = entry.lists.map((name) => (params[name] as unknown[]).length).join(',');
    const compiled = { sql, slots };
    entry.byLengths.set(lengths, compiled);
    return compiled;
  }
}
