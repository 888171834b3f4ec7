import { describe, expect, test } from 'vitest';
import {
  addDays,
  creditExpiresAt,
  creditValidity,
  formatTimestamp,
  isPastValidity,
  localDate,
  nextLocalMidnight,
  parseInstant,
  rewardValidUntil,
  startOfLocalDay,
} from './time';

const at = (iso: string): number => {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) throw new Error(iso);
  return ms;
};

describe('São Paulo time', () => {
  test('timestamps are São Paulo wall-clock text', () => {
    expect(formatTimestamp(at('2026-11-22T12:34:56Z'))).toBe('2026-11-22 09:34:56');
    expect(formatTimestamp(at('2026-01-01T02:59:59Z'))).toBe('2025-12-31 23:59:59');
  });

  test('the calendar day is the São Paulo one, not UTC', () => {
    expect(localDate(at('2026-11-23T01:30:00Z'))).toBe('2026-11-22');
    expect(localDate(at('2026-11-23T03:00:00Z'))).toBe('2026-11-23');
  });

  test('start of a local day is 03:00 UTC (no daylight saving since 2019)', () => {
    expect(new Date(startOfLocalDay('2026-11-23')).toISOString()).toBe('2026-11-23T03:00:00.000Z');
  });

  test('during old daylight saving the offset comes from the tz database', () => {
    // 2018-12-01 São Paulo was on -02:00.
    expect(new Date(startOfLocalDay('2018-12-01')).toISOString()).toBe('2018-12-01T02:00:00.000Z');
    expect(formatTimestamp(at('2018-12-01T12:00:00Z'))).toBe('2018-12-01 10:00:00');
  });

  test('calendar arithmetic crosses months and leap days', () => {
    expect(addDays('2026-11-22', 30)).toBe('2026-12-22');
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(addDays('2026-01-01', -1)).toBe('2025-12-31');
  });
});

describe('carencia maturity', () => {
  test('points posted at 23:59 São Paulo mature one minute later, at local midnight', () => {
    const posted = at('2026-11-22T23:59:00-03:00');
    expect(new Date(nextLocalMidnight(posted)).toISOString()).toBe('2026-11-23T03:00:00.000Z');
  });

  test('points posted at 00:30 local (03:30 UTC) mature at the following midnight', () => {
    const posted = at('2026-11-23T03:30:00Z');
    expect(new Date(nextLocalMidnight(posted)).toISOString()).toBe('2026-11-24T03:00:00.000Z');
  });

  test('a UTC day change before local midnight does not mature the points', () => {
    const posted = at('2026-11-22T20:00:00-03:00'); // 23:00 UTC
    expect(nextLocalMidnight(posted)).toBeGreaterThan(at('2026-11-23T01:00:00Z'));
  });
});

describe('credit validity', () => {
  test('data_validade is the last day of the month, 12 months after the posting', () => {
    expect(creditValidity(at('2026-11-22T10:00:00-03:00'))).toBe('2027-11-30');
    expect(creditValidity(at('2026-01-31T10:00:00-03:00'))).toBe('2027-01-31');
    expect(creditValidity(at('2027-02-10T10:00:00-03:00'))).toBe('2028-02-29');
    expect(creditValidity(at('2026-02-10T10:00:00-03:00'))).toBe('2027-02-28');
  });

  test('the posting month is the São Paulo one', () => {
    // 2026-12-01 01:00 UTC is still 30 November in São Paulo.
    expect(creditValidity(at('2026-12-01T01:00:00Z'))).toBe('2027-11-30');
  });

  test('a credit is valid through its whole last day, São Paulo', () => {
    expect(new Date(creditExpiresAt('2027-11-30')).toISOString()).toBe('2027-12-01T03:00:00.000Z');
  });
});

describe('reward validity', () => {
  test('valido_ate is 30 days later at 23:59:59', () => {
    expect(formatTimestamp(rewardValidUntil(at('2026-11-22T10:00:00-03:00')))).toBe(
      '2026-12-22 23:59:59',
    );
    expect(formatTimestamp(rewardValidUntil(at('2026-11-22T23:50:00-03:00')))).toBe(
      '2026-12-22 23:59:59',
    );
  });

  test('a reward is past validity only after 23:59:59 has gone by', () => {
    const until = rewardValidUntil(at('2026-11-22T10:00:00-03:00'));
    expect(isPastValidity(until, at('2026-12-22T23:59:59.500-03:00'))).toBe(false);
    expect(isPastValidity(until, at('2026-12-23T00:00:00-03:00'))).toBe(true);
  });
});

describe('x-sandbox-now', () => {
  test('accepts Z and offsets', () => {
    expect(parseInstant('2026-11-23T09:00:00-03:00')).toBe(at('2026-11-23T12:00:00Z'));
    expect(parseInstant('2026-11-23T12:00:00Z')).toBe(at('2026-11-23T12:00:00Z'));
    expect(parseInstant('2026-11-23T12:00:00.250+0000')).toBe(at('2026-11-23T12:00:00.250Z'));
    expect(parseInstant('2026-11-23T09:00-03:00')).toBe(at('2026-11-23T12:00:00Z'));
  });

  test.each([
    '',
    'amanhã',
    '2026-11-23',
    '2026-11-23T09:00:00',
    '2026-02-30T09:00:00Z',
    '2026-11-23T25:00:00Z',
    '2026-11-23T09:00:00+24:00',
    '1700000000000',
    '2026-11-23 09:00:00',
  ])('rejects %j', (value) => {
    expect(parseInstant(value)).toBeNull();
  });
});

describe('formatTimestamp without formatToParts per call', () => {
  const intl = new Intl.DateTimeFormat('en-US', {
    timeZone: 'America/Sao_Paulo',
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
  const viaIntl = (ms: number): string => {
    const p: Record<string, string> = {};
    for (const part of intl.formatToParts(new Date(ms))) p[part.type] = part.value;
    return `${p.year?.padStart(4, '0')}-${p.month}-${p.day} ${p.hour}:${p.minute}:${p.second}`;
  };

  test('agrees with Intl every 23 hours (each hour of the day in turn) through São Paulo’s daylight-saving years', () => {
    let checked = 0;
    // 1985–2020 covers every yearly change; 17 seconds off the grid hits odd seconds too.
    for (let ms = Date.UTC(1985, 0, 1); ms < Date.UTC(2020, 0, 1); ms += 23 * 3_600_000 + 17_000) {
      expect(formatTimestamp(ms)).toBe(viaIntl(ms));
      checked++;
    }
    expect(checked).toBeGreaterThan(13_000);
  }, 120_000);

  test('agrees with Intl around each change of offset, to the second, and in LMT times', () => {
    const edges = [
      '2018-11-04T02:59:59Z',
      '2018-11-04T03:00:00Z',
      '2019-02-17T01:59:59Z',
      '2019-02-17T02:00:00Z',
      '1914-01-01T03:06:27Z',
      '1914-01-01T03:06:28Z',
      '1914-01-01T03:06:29Z',
      '1900-06-01T12:00:00Z',
      '1932-10-03T03:00:00Z',
      '2999-12-31T23:59:59Z',
      '1970-01-01T00:00:00.999Z',
    ];
    for (const iso of edges) {
      const ms = Date.parse(iso);
      for (const d of [-1000, -1, 0, 1, 999, 1000])
        expect(formatTimestamp(ms + d)).toBe(viaIntl(ms + d));
    }
  });
});
