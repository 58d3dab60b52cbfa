// Hybrid logical clock timestamps (server/store/movements/hlc.ts), tested on their own: the text is
// the order of the fold, so text order must be time order; the clock never goes back, whatever the
// wall clock does; a remote timestamp moves it past what it saw.
import { describe, expect, it } from 'vitest';
import { type Hlc, formatHlc, hlcFloor, parseHlc, receive, tick } from '../../server/store/movements/hlc.ts';

const at = (wall: number, counter = 0, instance = 'here0001'): Hlc => ({ wall, counter, instance });
/** -1, 0 or 1 as JavaScript's (and SQL's bytewise) text comparison orders two strings. */
const textOrder = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
/** The same, by time: wall, then counter, then instance. */
const timeOrder = (a: Hlc, b: Hlc) =>
  a.wall !== b.wall
    ? Math.sign(a.wall - b.wall)
    : a.counter !== b.counter
      ? Math.sign(a.counter - b.counter)
      : textOrder(a.instance, b.instance);

describe('format and parse', () => {
  it('writes fixed-width text: 16 digits of wall time, 5 of counter, the instance', () => {
    expect(formatHlc(at(1_763_900_000_000, 7, 'k3f9x2ab'))).toBe('0001763900000000-00007-k3f9x2ab');
    expect(formatHlc(at(0, 0, 'abcd'))).toBe('0000000000000000-00000-abcd');
  });

  it('reads back what it wrote', () => {
    for (const hlc of [at(0, 0, 'abcd'), at(1, 99_999), at(1_763_900_000_123, 42, 'z'.repeat(32)), at(Number.MAX_SAFE_INTEGER, 1)]) {
      expect(parseHlc(formatHlc(hlc))).toEqual(hlc);
    }
  });

  it('refuses text that is not a timestamp', () => {
    for (const text of [
      '',
      '1763900000000-00000-k3f9x2ab', // wall not padded
      '0001763900000000-0000-k3f9x2ab', // counter too short
      '0001763900000000-00000-K3F9X2AB', // upper case instance
      '0001763900000000-00000-abc', // instance too short
      `0001763900000000-00000-${'a'.repeat(33)}`, // instance too long
      '0001763900000000-00000-k3f9x2ab ', // anything after it
      '0001763900000000_00000_k3f9x2ab',
    ]) {
      expect(parseHlc(text), text).toBeUndefined();
    }
  });
});

describe('text order is time order', () => {
  it('orders by wall time, then counter, then instance, across digit counts', () => {
    const times = [
      at(999, 5, 'bbbb'),
      at(1000, 0, 'aaaa'),
      at(1000, 0, 'aaab'),
      at(1000, 1, 'aaaa'),
      at(1000, 10, 'aaaa'),
      at(1000, 99_999, 'aaaa'),
      at(1001, 0, 'aaaa'),
      at(10_000_000_000_000, 0, 'aaaa'),
    ];
    for (const a of times) {
      for (const b of times) expect(textOrder(formatHlc(a), formatHlc(b)), `${formatHlc(a)} vs ${formatHlc(b)}`).toBe(timeOrder(a, b));
    }
  });
});

describe('tick: the next local event', () => {
  it('takes the wall clock when it is ahead of everything seen', () => {
    expect(tick(undefined, 5000, 'here0001')).toEqual(at(5000, 0));
    expect(tick(at(4000, 7, 'else0001'), 5000, 'here0001')).toEqual(at(5000, 0));
  });

  it('counts up in the same millisecond', () => {
    expect(tick(at(5000, 0), 5000, 'here0001')).toEqual(at(5000, 1));
    expect(tick(at(5000, 1), 5000, 'here0001')).toEqual(at(5000, 2));
  });

  it('never goes back when the wall clock does: it keeps the time seen and counts up', () => {
    const before = at(5000, 3);
    const next = tick(before, 4000, 'here0001');
    expect(next).toEqual(at(5000, 4));
    expect(formatHlc(next) > formatHlc(before)).toBe(true);
  });

  it('moves to the next millisecond when the counter is full', () => {
    const full = at(5000, 99_999);
    const next = tick(full, 4000, 'here0001');
    expect(next).toEqual(at(5001, 0));
    expect(formatHlc(next) > formatHlc(full)).toBe(true);
  });

  it('stamps its own instance, whoever made the timestamp it follows', () => {
    expect(tick(at(5000, 0, 'else0001'), 5000, 'here0001').instance).toBe('here0001');
  });

  it('gives a run of events strictly rising text, whatever the wall clock does', () => {
    let last: Hlc | undefined;
    let text = '';
    for (const now of [100, 100, 99, 50, 101, 101, 101, 90, 200]) {
      last = tick(last, now, 'here0001');
      expect(formatHlc(last) > text).toBe(true);
      text = formatHlc(last);
    }
  });
});

describe('receive: the clock after seeing a remote timestamp', () => {
  it('comes after a remote timestamp ahead of it and of the wall clock', () => {
    const remote = at(9000, 4, 'else0001');
    const next = receive(at(5000, 2), remote, 6000, 'here0001');
    expect(next).toEqual(at(9000, 5));
    expect(formatHlc(next) > formatHlc(remote)).toBe(true);
  });

  it('comes after a remote timestamp of the same millisecond with a higher counter', () => {
    expect(receive(at(9000, 1), at(9000, 6, 'else0001'), 8000, 'here0001')).toEqual(at(9000, 7));
  });

  it('keeps its own time when the remote one is behind it', () => {
    expect(receive(at(9000, 3), at(7000, 50, 'else0001'), 8000, 'here0001')).toEqual(at(9000, 4));
  });

  it('takes the wall clock when that is ahead of both', () => {
    expect(receive(at(5000, 3), at(7000, 50, 'else0001'), 8000, 'here0001')).toEqual(at(8000, 0));
  });

  it('follows the remote timestamp with nothing seen before', () => {
    expect(receive(undefined, at(9000, 99_999, 'else0001'), 1000, 'here0001')).toEqual(at(9001, 0));
  });

  it('orders the next local event after the remote one', () => {
    const remote = at(9000, 4, 'else0001');
    const next = tick(receive(at(5000, 2), remote, 6000, 'here0001'), 6000, 'here0001');
    expect(formatHlc(next) > formatHlc(remote)).toBe(true);
  });
});

describe('hlcFloor: the start of a time range', () => {
  it('is at or before every timestamp of that millisecond and after every earlier one', () => {
    const floor = hlcFloor(5000);
    expect(floor <= formatHlc(at(5000, 0, 'aaaa'))).toBe(true);
    expect(floor <= formatHlc(at(5000, 99_999, 'zzzz'))).toBe(true);
    expect(floor > formatHlc(at(4999, 99_999, 'z'.repeat(32)))).toBe(true);
  });

  it('rounds a fraction of a millisecond down and anything before 1970 up to 0', () => {
    expect(hlcFloor(5000.9)).toBe(hlcFloor(5000));
    expect(hlcFloor(-20)).toBe('0000000000000000');
    expect(hlcFloor(0) <= formatHlc(at(0, 0, 'aaaa'))).toBe(true);
  });
});
