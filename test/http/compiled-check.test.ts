// The compiled first check of large bodies (server/http/compiled-check.ts) against zod, the contract:
// on hand-picked bad bodies and on seeded random damage to a good one, both decide the same, and
// what the compiled check accepts is exactly what zod returns. No database: the SQLite project runs it.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  MAX_MOVEMENTS_PER_BATCH,
  MAX_REASON_LENGTH,
  MAX_REFERENCE_LENGTH,
  MOVEMENT_SOURCES,
  fieldMessages,
  pullPageSchema,
  pushBodySchema,
} from '../../shared/index.ts';
import { checkedParse, compileCheck } from '../../server/http/compiled-check.ts';
import { seededRandom } from '../support/seeded-random.ts';

const movement = (over: Record<string, unknown> = {}) => ({
  id: 'abcd1234-7',
  origin: 'abcd1234',
  seq: 7,
  kind: 'set',
  value: 12,
  hlc: '0001763900000000-00003-abcd1234',
  item: 41,
  liquid_stock: null,
  warehouse: 2,
  barcode: '4006381333931',
  seen: { ffff0000: 3 },
  source: 'api',
  reason: null,
  reference: 'PO-1',
  created_at: '2026-11-23T10:00:00.000Z',
  ...over,
});

const checkPush = compileCheck(pushBodySchema);

/**
 * What the router gets (checkedParse) is what zod alone gives, and whatever the compiled check
 * accepts, zod accepts and returns unchanged. The check may refuse more than zod (a vector key
 * `__proto__`, which zod drops): zod then decides, as it did before.
 */
function expectSameDecision(body: unknown, label: string) {
  const zod = pushBodySchema.safeParse(body);
  const routed = checkedParse(pushBodySchema, checkPush, body);
  expect(routed.success, label).toBe(zod.success);
  if (zod.success) expect(routed.data, label).toEqual(zod.data);
  if (checkPush(body)) {
    expect(zod.success, label).toBe(true);
    expect(zod.data, label).toEqual(body);
  }
}

describe('compiled check of a push body', () => {
  it('accepts what zod accepts: a full batch, nulls and vectors', () => {
    expectSameDecision({ movements: [movement()] }, 'one');
    expectSameDecision(
      { movements: [movement({ kind: 'adjust', value: -3, seen: null, reference: null, warehouse: null, liquid_stock: 9 })] },
      'adjust',
    );
    expectSameDecision(
      { movements: Array.from({ length: MAX_MOVEMENTS_PER_BATCH }, (_, i) => movement({ seq: i + 1, seen: {} })) },
      'full',
    );
    expect(checkPush({ movements: [movement()] })).toBe(true);
  });

  it('refuses what zod refuses, field by field', () => {
    const emoji = '😀'; // two UTF-16 code units, one code point: zod counts code points, and so must the check
    const bad: [string, unknown][] = [
      ['not an object', [movement()]],
      ['no movements', {}],
      ['empty', { movements: [] }],
      ['one too many', { movements: Array.from({ length: MAX_MOVEMENTS_PER_BATCH + 1 }, () => movement()) }],
      ['extra top-level key', { movements: [movement()], more: 1 }],
      ['extra movement key', { movements: [movement({ extra: true })] }],
      ['__proto__ key', JSON.parse(`{"movements":[${JSON.stringify(movement()).replace('{', '{"__proto__":{"x":1},')}]}`)],
      ['missing field', { movements: [(({ hlc: _, ...rest }) => rest)(movement())] }],
      ['kind', { movements: [movement({ kind: 'teleport' })] }],
      ['seq 0', { movements: [movement({ seq: 0 })] }],
      ['seq fraction', { movements: [movement({ seq: 1.5 })] }],
      ['seq unsafe', { movements: [movement({ seq: 2 ** 53 })] }],
      ['seq string', { movements: [movement({ seq: '7' })] }],
      ['value too large', { movements: [movement({ value: 3e9 })] }],
      ['item 0', { movements: [movement({ item: 0 })] }],
      ['item null', { movements: [movement({ item: null })] }],
      ['liquid_stock negative', { movements: [movement({ liquid_stock: -1 })] }],
      ['warehouse string', { movements: [movement({ warehouse: '2' })] }],
      ['origin upper case', { movements: [movement({ origin: 'ABCD1234' })] }],
      ['hlc short', { movements: [movement({ hlc: '1763900000000-00003-abcd1234' })] }],
      ['hlc trailing newline', { movements: [movement({ hlc: '0001763900000000-00003-abcd1234\n' })] }],
      ['barcode empty', { movements: [movement({ barcode: '' })] }],
      ['reason empty', { movements: [movement({ reason: '' })] }],
      ['reason over the limit', { movements: [movement({ reason: 'x'.repeat(MAX_REASON_LENGTH + 1) })] }],
      ['reference emoji over the limit', { movements: [movement({ reference: emoji.repeat(MAX_REFERENCE_LENGTH + 1) })] }],
      ['reference lone surrogates over the limit', { movements: [movement({ reference: '\ud83d'.repeat(MAX_REFERENCE_LENGTH + 1) })] }],
      ['created_at 41', { movements: [movement({ created_at: 'x'.repeat(41) })] }],
      // Text as the local API checks it (docs/SYNC.md, "Pushed text").
      ['source not recorded by this version', { movements: [movement({ source: 'teleport' })] }],
      ['source in upper case', { movements: [movement({ source: 'API' })] }],
      ['source with NUL', { movements: [movement({ source: 'api\u0000' })] }],
      ['reason with a space', { movements: [movement({ reason: 'a sale' })] }],
      ['reason with HTML', { movements: [movement({ reason: '<b>sale</b>' })] }],
      ['reason with a newline', { movements: [movement({ reason: 'sale\n' })] }],
      ['reason emoji', { movements: [movement({ reason: emoji })] }],
      ['reference with NUL', { movements: [movement({ reference: 'PO\u00001' })] }],
      ['reference with ESC', { movements: [movement({ reference: '\u001b]0;pwned\u0007' })] }],
      ['reference with CR LF', { movements: [movement({ reference: 'PO-1\r\nX-Injected: 1' })] }],
      ['reference with U+202E', { movements: [movement({ reference: 'PO-\u202e1-OP' })] }],
      ['reference with U+2066', { movements: [movement({ reference: '\u2066PO-1' })] }],
      ['reference with U+0085', { movements: [movement({ reference: 'PO\u0085' })] }],
      ['created_at without time', { movements: [movement({ created_at: '2026-11-23' })] }],
      ['created_at with an offset', { movements: [movement({ created_at: '2026-11-23T10:00:00.000+01:00' })] }],
      ['created_at without milliseconds', { movements: [movement({ created_at: '2026-11-23T10:00:00Z' })] }],
      ['created_at month 13', { movements: [movement({ created_at: '2026-13-23T10:00:00.000Z' })] }],
      ['created_at with HTML', { movements: [movement({ created_at: '<script>alert(1)</script>' })] }],
      ['created_at with a newline', { movements: [movement({ created_at: '2026-11-23T10:00:00.000Z\n' })] }],
      ['seen key', { movements: [movement({ seen: { 'Not-An-Id': 1 } })] }],
      ['seen value 0', { movements: [movement({ seen: { ffff0000: 0 } })] }],
      ['seen array', { movements: [movement({ seen: [1] })] }],
    ];
    for (const [label, body] of bad) {
      expect(pushBodySchema.safeParse(body).success, label).toBe(false);
      expectSameDecision(body, label);
    }
    // A vector key `__proto__`: zod drops it and accepts; the check refuses, so zod decides.
    const proto = JSON.parse(
      `{"movements":[${JSON.stringify(movement({ seen: null })).replace('"seen":null', '"seen":{"__proto__":1}')}]}`,
    );
    expect(checkPush(proto)).toBe(false);
    expectSameDecision(proto, 'seen __proto__');
    // At the limit in code points (twice that in UTF-16 units): accepted by both.
    for (const reference of [
      emoji.repeat(MAX_REFERENCE_LENGTH),
      '\ud83d'.repeat(MAX_REFERENCE_LENGTH),
      `${emoji}\ud83d`.repeat(MAX_REFERENCE_LENGTH / 2),
    ]) {
      expect(pushBodySchema.safeParse({ movements: [movement({ reference })] }).success).toBe(true);
      expectSameDecision({ movements: [movement({ reference })] }, `at the limit: ${JSON.stringify(reference)}`);
    }
    // What this version records, and text people write (joiners of Arabic or Indic names are not direction marks).
    for (const over of [
      ...MOVEMENT_SOURCES.map((source) => ({ source })),
      { reason: 'count' },
      { reason: 'sale.2_b-3' },
      { reference: 'Fiş 12 · قطعة\u200d' },
      { reference: 'stocktake:1' },
      { created_at: '2026-02-28T23:59:59.999Z' },
    ]) {
      expect(pushBodySchema.safeParse({ movements: [movement(over)] }).success, JSON.stringify(over)).toBe(true);
      expectSameDecision({ movements: [movement(over)] }, `accepted: ${JSON.stringify(over)}`);
    }
  });

  it('names the unsafe character of a reference, as the local API does', () => {
    const refused = checkedParse(pushBodySchema, checkPush, { movements: [movement({ reference: 'PO-\u202e1' })] });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['movements.0.reference', fieldMessages.unsafeCharacter('U+202E', 4)],
    ]);
  });

  it('decides like zod on 2,000 seeded random damages of a good batch', () => {
    const random = seededRandom(20261123);
    const values: unknown[] = [
      null,
      0,
      -1,
      1,
      1.5,
      2 ** 53,
      3e9,
      '',
      'x',
      '7',
      'abcd1234',
      'set',
      'count',
      'adjust',
      true,
      [],
      {},
      { ffff0000: 1 },
      { Bad: 1 },
      'x'.repeat(200),
      'api',
      'stocktake',
      'sale',
      '2026-11-23T10:00:00.000Z',
      'a\u0000b',
      '\u202e',
      'line\r\n',
      '<b>',
    ];
    const keys = Object.keys(movement());
    let accepted = 0;
    for (let n = 0; n < 2000; n++) {
      const rows = [movement(), movement({ seq: 8, kind: 'adjust', seen: null })] as Record<string, unknown>[];
      for (let damage = random.int(1, 3); damage > 0; damage--) {
        const row = random.pick(rows);
        const key = random.chance(0.9) ? random.pick(keys) : 'other';
        if (random.chance(0.1)) delete row[key];
        else row[key] = random.pick(values);
      }
      const body = { movements: rows };
      expectSameDecision(body, `damage ${n}: ${JSON.stringify(rows)}`);
      if (checkPush(body)) accepted++;
    }
    // Both outcomes are exercised: some damage leaves a valid batch (a count of 0 is a count).
    expect(accepted).toBeGreaterThan(0);
    expect(accepted).toBeLessThan(2000);
  });

  it('falls back to zod for the message of a refused body', () => {
    const refused = checkedParse(pushBodySchema, checkPush, { movements: [movement({ kind: 'teleport' })] });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]?.path).toEqual(['movements', 0, 'kind']);
    const accepted = { movements: [movement()] };
    const parsed = checkedParse(pushBodySchema, checkPush, accepted);
    expect(parsed.success && parsed.data).toBe(accepted); // the body itself: nothing copied
  });

  it('compiles the pull page too, and refuses schemas whose output is not their input', () => {
    const checkPage = compileCheck(pullPageSchema);
    const page = pullPageSchema.parse({ movements: [movement()], next_cursor: 3, more: false, now: 1763900000000 });
    expect(checkPage(page)).toBe(true);
    expect(checkPage({ ...page, more: 'no' })).toBe(false);
    // Nullable shapes beyond the push's own: an enum (its list has no null), a nested object, a list.
    const nullables = z.strictObject({
      kind: z.enum(['a', 'b']).nullable(),
      inner: z.strictObject({ n: z.number().int() }).nullable(),
      list: z.array(z.string()).nullable(),
    });
    const checkNullables = compileCheck(nullables);
    for (const value of [
      { kind: null, inner: null, list: null },
      { kind: 'a', inner: { n: 1 }, list: ['x'] },
      { kind: 'c', inner: null, list: null },
      { kind: null, inner: { n: 1.5 }, list: null },
      { kind: null, inner: { n: 1, m: 2 }, list: null },
      { kind: null, inner: null, list: [1] },
      { kind: null, inner: [], list: null },
    ]) {
      expect(checkNullables(value), JSON.stringify(value)).toBe(nullables.safeParse(value).success);
    }
    for (const schema of [
      z.object({ name: z.string().trim() }),
      z.object({ name: z.string().toLowerCase() }),
      z.object({ n: z.number().default(1) }),
      z.object({ list: z.array(z.string().transform((s) => s.length)) }),
      z.object({ inner: z.object({ n: z.number().catch(0) }).nullable() }),
    ]) {
      expect(() => compileCheck(schema as z.ZodType<unknown>)).toThrow(/output is not its input/);
    }
  });
});
