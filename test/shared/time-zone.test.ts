// A shop's time zone for reports by day (shared/time-zone.ts): where its offset changes, the start of
// a day in it, and which names are zones. Checked against dates known from the time zone database.
import { describe, expect, it } from 'vitest';
import { dateIn, isTimeZone, offsetStretches, startOfDay, zoneOffsetMinutes } from '../../shared/index.ts';

const iso = (ms: number) => new Date(ms).toISOString();

describe('time zones', () => {
  it('cuts a period where the offset changes, to the instant, with the offset of each piece', () => {
    const stretches = offsetStretches('Europe/Berlin', Date.parse('2026-01-01T00:00:00Z'), Date.parse('2027-01-01T00:00:00Z'));
    expect(stretches.map((s) => [iso(s.fromMs), iso(s.untilMs), s.offsetMinutes])).toEqual([
      ['2026-01-01T00:00:00.000Z', '2026-03-29T01:00:00.000Z', 60],
      ['2026-03-29T01:00:00.000Z', '2026-10-25T01:00:00.000Z', 120],
      ['2026-10-25T01:00:00.000Z', '2027-01-01T00:00:00.000Z', 60],
    ]);
    // Half-hour offsets and a half-hour change (Lord Howe Island: +10:30 in winter, +11:00 in summer).
    const lordHowe = offsetStretches('Australia/Lord_Howe', Date.parse('2026-03-01T00:00:00Z'), Date.parse('2026-05-01T00:00:00Z'));
    expect(lordHowe.map((s) => [iso(s.untilMs), s.offsetMinutes])).toEqual([
      ['2026-04-04T15:00:00.000Z', 660],
      ['2026-05-01T00:00:00.000Z', 630],
    ]);
    // A zone without summer time is one piece.
    expect(offsetStretches('Europe/Istanbul', 0, Date.parse('2027-01-01T00:00:00Z')).length).toBeGreaterThan(1); // it had some until 2016
    expect(offsetStretches('Europe/Istanbul', Date.parse('2026-01-01T00:00:00Z'), Date.parse('2027-01-01T00:00:00Z'))).toEqual([
      { fromMs: Date.parse('2026-01-01T00:00:00Z'), untilMs: Date.parse('2027-01-01T00:00:00Z'), offsetMinutes: 180 },
    ]);
  });

  it('finds the start of a day and today in a zone', () => {
    expect(iso(startOfDay('Europe/Berlin', '2026-03-29'))).toBe('2026-03-28T23:00:00.000Z');
    expect(iso(startOfDay('Europe/Berlin', '2026-03-30'))).toBe('2026-03-29T22:00:00.000Z');
    expect(iso(startOfDay('America/New_York', '2026-11-01'))).toBe('2026-11-01T04:00:00.000Z');
    expect(iso(startOfDay('UTC', '2026-06-01'))).toBe('2026-06-01T00:00:00.000Z');
    expect(dateIn('Pacific/Auckland', Date.parse('2026-03-15T12:00:00Z'))).toBe('2026-03-16');
    expect(dateIn('America/Los_Angeles', Date.parse('2026-03-15T05:00:00Z'))).toBe('2026-03-14');
    expect(zoneOffsetMinutes('Asia/Kolkata', Date.parse('2026-06-01T00:00:00Z'))).toBe(330);
    expect(zoneOffsetMinutes('America/St_Johns', Date.parse('2026-01-15T00:00:00Z'))).toBe(-210);
  });

  it('knows zones by their IANA names and refuses anything else', () => {
    for (const zone of ['Europe/Istanbul', 'America/Argentina/Buenos_Aires', 'UTC']) expect(isTimeZone(zone), zone).toBe(true);
    for (const name of ['', 'Mars/Olympus_Mons', 'Europe/Berlin\u0000', 'x'.repeat(65), '+03:00junk'])
      expect(isTimeZone(name), name).toBe(false);
  });
});
