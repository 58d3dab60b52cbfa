// A zod schema's own JSON Schema, compiled by Ajv into a plain function: the fast first check of
// large bodies (a sync push or pull page of 500 movements). zod allocates a result per field it
// checks: for a 500-movement push that was 3-4 ms and about 2.5 MB of garbage a batch, the largest
// cost of the upstream's apply after the database (docs/BENCHMARKS.md, "Sync round, round three").
//
// zod stays the contract: the JSON Schema is generated from it (as the OpenAPI document is), a value
// this check refuses is checked again by zod for its usual error message, and only schemas whose
// output is their input can be compiled (no transform, no default), so a value this check accepts is
// what zod would have returned. test/http/compiled-check.test.ts compares the two on a corpus of bad bodies.
import { createRequire } from 'node:module';
import type { Ajv2020 as Ajv } from 'ajv/dist/2020.js';
import { z } from 'zod';

// Ajv and each compiled check are made on first use: a server compiles the push check with its
// first push, and CLI commands that never ask an upstream do not load Ajv at all (loading it and
// compiling a first schema took about 160 ms at start-up).
let ajvInstance: Ajv | undefined;
const ajv = (): Ajv => (ajvInstance ??= newAjv());

function newAjv(): Ajv {
  const { Ajv2020 } = createRequire(import.meta.url)('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
  return new Ajv2020({
    strict: true,
    allErrors: false, // the first problem is enough: zod describes it
    validateFormats: false,
    // String lengths count code points, as zod's do (Ajv's default; test/http/compiled-check.test.ts holds
    // both to it with emoji and a lone surrogate at the limit).
    logger: false,
    allowUnionTypes: true, // `type: [T, "null"]`, see nullableAsTypeList
  });
}

type JsonSchema = { [key: string]: unknown };

export interface CompiledCheck<T> {
  /** True when zod would accept `value` and return it unchanged. */
  (value: unknown): value is T;
}

/** Kinds of schema whose output may not be their input (or that a JSON Schema cannot say). */
const CHANGING_TYPES = new Set(['transform', 'pipe', 'default', 'prefault', 'catch', 'success', 'lazy', 'promise', 'custom']);

/** The first part of `schema` that returns something else than it was given (trim, a default…), if any. */
function changingPart(schema: z.core.$ZodType, seen = new Set<unknown>()): string | undefined {
  if (seen.has(schema)) return undefined;
  seen.add(schema);
  const def = schema._zod.def as unknown as Record<string, unknown> & { type: string; checks?: z.core.$ZodCheck[] };
  if (CHANGING_TYPES.has(def.type)) return def.type;
  for (const check of def.checks ?? []) if (check._zod.def.check === 'overwrite') return 'overwrite';
  for (const value of Object.values(def)) {
    const children = Array.isArray(value)
      ? value
      : value && typeof value === 'object' && !('_zod' in value)
        ? Object.values(value)
        : [value];
    for (const child of children) {
      const found =
        child && typeof child === 'object' && '_zod' in child && 'def' in (child as z.core.$ZodType)._zod
          ? changingPart(child as z.core.$ZodType, seen)
          : undefined;
      if (found) return found;
    }
  }
  return undefined;
}

/** Keywords whose value is a schema, a list of schemas, or a map of names to schemas. */
const SCHEMA_KEYWORDS = new Set([
  'items',
  'additionalProperties',
  'propertyNames',
  'not',
  'contains',
  'unevaluatedProperties',
  'unevaluatedItems',
]);
const SCHEMA_LISTS = new Set(['anyOf', 'oneOf', 'allOf', 'prefixItems']);
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'dependentSchemas']);

/**
 * `anyOf: [{type: T, …}, {type: "null"}]` (zod's nullable) as `type: [T, "null"]` with the same
 * keywords, which JSON Schema applies to T's values only (not to an `enum` or `const`: those are
 * left as they are): the same check, but Ajv's anyOf builds an error object for every null it
 * meets in the first branch (three per movement).
 */
function nullableAsTypeList(schema: JsonSchema): JsonSchema {
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (SCHEMA_KEYWORDS.has(key) && value && typeof value === 'object') out[key] = nullableAsTypeList(value as JsonSchema);
    else if (SCHEMA_LISTS.has(key)) out[key] = (value as JsonSchema[]).map(nullableAsTypeList);
    else if (SCHEMA_MAPS.has(key))
      out[key] = Object.fromEntries(
        Object.entries(value as Record<string, JsonSchema>).map(([name, inner]) => [name, nullableAsTypeList(inner)]),
      );
    else out[key] = value;
  }
  const options = out.anyOf as JsonSchema[] | undefined;
  if (options?.length !== 2) return out;
  const [other, nullOnly] = options[1]!.type === 'null' ? options : [options[1]!, options[0]!];
  const plain = typeof other!.type === 'string' && !('enum' in other!) && !('const' in other!) && !('anyOf' in other!);
  if (Object.keys(nullOnly!).length !== 1 || nullOnly!.type !== 'null' || !plain) return out;
  const { anyOf: _, ...rest } = out;
  return { ...other, ...rest, type: [other!.type, 'null'] };
}

/** Throws at once for a schema whose output is not its input (only zod can return that output); compiles on first use. */
export function compileCheck<T>(schema: z.ZodType<T>): CompiledCheck<T> {
  const changing = changingPart(schema);
  if (changing) throw new Error(`compileCheck: the schema has a part of kind "${changing}", so its output is not its input`);
  let validate: ((value: unknown) => boolean) | undefined;
  return (value: unknown): value is T => {
    // An empty registry: no `$ref`s to the named shapes of the OpenAPI document, so Ajv writes one
    // function without a call (and an options object) per movement.
    validate ??= ajv().compile(nullableAsTypeList(z.toJSONSchema(schema, { io: 'input', metadata: z.registry() }) as JsonSchema));
    return validate(value);
  };
}

/** `schema.safeParse(value)`, with `check` first: zod runs only for a value the check refuses. */
export function checkedParse<S extends z.ZodType>(
  schema: S,
  check: CompiledCheck<z.output<S>> | undefined,
  value: unknown,
): z.ZodSafeParseResult<z.output<S>> {
  if (check?.(value)) return { success: true, data: value };
  return schema.safeParse(value);
}
