// Values of every column type the contract knows are checked before sending, with a reason a person
// can act on: dates, numbers, TRUE/FALSE, text length, lists of choices, JSON objects.
import { describe, expect, it } from 'vitest';
import { checkIsoDate, decodeCell } from '../../src/core/codec';
import { type ColumnSpec, toColumnSpec } from '../../src/core/columns';

const context = {
  formatDate: (date: { getTime(): number }) => {
    const iso = new Date(date.getTime()).toISOString();
    return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso.slice(0, 19);
  },
};

// The schemas as the service's emulator describes its column types (table-api.md, Values and columns).
const due = toColumnSpec({
  id: 'due',
  name: 'Due',
  type: 'date',
  cSchema: { type: 'string', format: 'date' },
});
const amount = toColumnSpec({ id: 'amount', name: 'Amount', type: 'number', cSchema: { type: 'number' } });
const active = toColumnSpec({ id: 'active', name: 'Active', type: 'checkbox', cSchema: { type: 'boolean' } });
const tags = toColumnSpec({
  id: 'tags',
  name: 'Tags',
  type: 'multiSelect',
  multi: true,
  cSchema: { type: 'array', items: { type: 'string' } },
});
const meta = toColumnSpec({ id: 'meta', name: 'Meta', type: 'json', cSchema: { type: 'object' } });
const title = toColumnSpec({
  id: 'title',
  name: 'Name',
  type: 'text',
  config: { max: 5 },
  cSchema: { type: 'string' },
});

function reason(value: unknown, column: ColumnSpec): string {
  const decoded = decodeCell(value, column, context);
  if (decoded.ok) throw new Error(`accepted ${JSON.stringify(decoded.value)}`);
  return decoded.reason;
}

describe('schema shapes', () => {
  it('reads the shape each column type states', () => {
    expect(due).toMatchObject({ kind: 'text', shape: 'date' });
    expect(tags).toMatchObject({ kind: 'list', shape: 'text-list' });
    // A multi-select of something other than texts stays JSON.
    expect(toColumnSpec({ id: 'n', type: 'multiSelect', multi: true, cSchema: { type: 'array' } }).kind).toBe(
      'json',
    );
    expect(meta).toMatchObject({ kind: 'json', shape: 'object' });
    expect(title.shape).toBeUndefined();
    expect(toColumnSpec({ id: 'x', type: 'mystery' }).shape).toBeUndefined();
  });
});

describe('date columns', () => {
  it('accept calendar days written YYYY-MM-DD and dates typed into a cell', () => {
    expect(decodeCell('2024-02-29', due, context)).toEqual({ ok: true, value: '2024-02-29' });
    expect(decodeCell(' 2024-03-01 ', due, context)).toEqual({ ok: true, value: '2024-03-01' });
    expect(decodeCell(new Date(Date.UTC(2024, 2, 4)), due, context)).toEqual({
      ok: true,
      value: '2024-03-04',
    });
    expect(decodeCell('', due, context)).toEqual({ ok: true, value: null });
  });

  it('refuse 31/02/2024 saying how to write a date', () => {
    expect(reason('31/02/2024', due)).toBe(
      'due: "31/02/2024" is not a date the service takes: write it as YYYY-MM-DD, for example 2024-02-29.',
    );
  });

  it('refuse days that are not in the calendar, naming the month length', () => {
    expect(reason('2024-02-31', due)).toBe(
      'due: 2024-02-31 is not a day of the calendar (February 2024 has 29 days).',
    );
    expect(reason('2023-02-29', due)).toContain('February 2023 has 28 days');
    expect(reason('2024-13-01', due)).toBe('due: 2024-13-01 has no month 13 (write YYYY-MM-DD).');
    expect(checkIsoDate('2024-04-31', 'due')).toMatchObject({ ok: false });
  });

  it('refuse a date with a time of day, and values that are no date at all', () => {
    expect(reason(new Date(Date.UTC(2024, 2, 4, 13, 30)), due)).toContain('has a time of day');
    expect(reason(12, due)).toContain('is not a date');
    expect(reason(true, due)).toContain('is not a date');
  });
});

describe('number columns', () => {
  it('explain a decimal comma and thousands separators', () => {
    expect(reason('12,5', amount)).toBe(
      'amount: "12,5" is not a number: write decimals with a point (12.5).',
    );
    expect(reason('1,200.50', amount)).toBe(
      'amount: "1,200.50" is not a number: leave out the thousands commas (1200.50).',
    );
    expect(reason('abc', amount)).toBe('amount: "abc" is not a number.');
    expect(reason('1e999', amount)).toContain('too large');
    expect(reason(new Date(0), amount)).toContain('amount: a date in a number column');
  });
});

describe('checkbox, list and object columns', () => {
  it('checkbox: TRUE or FALSE only', () => {
    expect(decodeCell('TRUE', active, context)).toEqual({ ok: true, value: true });
    expect(reason('yes', active)).toBe('active: "yes" is not TRUE or FALSE.');
  });

  it('multi-select: choices separated by commas, as typed', () => {
    expect(decodeCell('enterprise, smb', tags, context)).toEqual({ ok: true, value: ['enterprise', 'smb'] });
    expect(decodeCell('enterprise,smb', tags, context)).toEqual({ ok: true, value: ['enterprise', 'smb'] });
    expect(decodeCell(' enterprise ,  smb , ', tags, context)).toEqual({
      ok: true,
      value: ['enterprise', 'smb'],
    });
    expect(decodeCell('enterprise', tags, context)).toEqual({ ok: true, value: ['enterprise'] });
    expect(decodeCell('1, true, null', tags, context)).toEqual({ ok: true, value: ['1', 'true', 'null'] });
    expect(decodeCell(42, tags, context)).toEqual({ ok: true, value: ['42'] });
    expect(decodeCell('   ', tags, context)).toEqual({ ok: true, value: null });
  });

  it('multi-select: a JSON list typed by hand, [] for none', () => {
    expect(decodeCell('["a","b"]', tags, context)).toEqual({ ok: true, value: ['a', 'b'] });
    expect(decodeCell(' ["a, b", " c"] ', tags, context)).toEqual({ ok: true, value: ['a, b', ' c'] });
    expect(decodeCell('[]', tags, context)).toEqual({ ok: true, value: [] });
    expect(decodeCell('null', tags, context)).toEqual({ ok: true, value: ['null'] });
  });

  it('multi-select: what cannot be read as choices says how to write them', () => {
    const hint =
      'write the choices separated by commas (first, second), or as a JSON list ["first", "second"] when a choice holds a comma or quotes';
    expect(reason('[1,2]', tags)).toBe(`tags: "[1,2]" is not a list of choices: ${hint}.`);
    expect(reason('"a"', tags)).toBe(`tags: ""a"" is not a list of choices: ${hint}.`);
    expect(reason('[enterprise, smb]', tags)).toBe(
      `tags: "[enterprise, smb]" is not a valid JSON list: ${hint}.`,
    );
    expect(reason('enterprise, "smb"', tags)).toBe(
      `tags: "enterprise, "smb"" mixes choices with JSON: ${hint}.`,
    );
    expect(reason(', ,', tags)).toBe(`tags: ", ," names no choice: ${hint}, or leave the cell empty.`);
    expect(reason(new Date(0), tags)).toBe(`tags: a date is not a list of choices: ${hint}.`);
  });

  it('object: a JSON object', () => {
    expect(decodeCell('{"k":1}', meta, context)).toEqual({ ok: true, value: { k: 1 } });
    expect(reason('[1]', meta)).toBe('meta: "[1]" is not a JSON object: write it as {"name": "value"}.');
    expect(reason('7', meta)).toContain('is not a JSON object');
  });

  it('text: at most the column’s length', () => {
    expect(reason('abcdef', title)).toBe('title: the text has 6 characters; the column takes at most 5.');
  });
});
