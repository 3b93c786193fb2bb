// The value codec: what a service value becomes in a cell, and back.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  canonicalCell,
  cellDigest,
  cellDigestFor,
  cellRead,
  decodeCell,
  encodeCell,
  listCellDigest,
  MAX_CELL_CHARS,
  readDigest,
  valueDigest,
} from '../../src/core/codec';
import type { ColumnSpec } from '../../src/core/columns';
import { kindOf, liveColumns } from '../../src/core/columns';

const context = {
  formatDate: (date: { getTime(): number }) => new Date(date.getTime()).toISOString().slice(0, 10),
};
const column = (kind: ColumnSpec['kind'], extra: Partial<ColumnSpec> = {}): ColumnSpec => ({
  id: 'c',
  name: 'C',
  type: kind,
  kind,
  deleted: false,
  ...extra,
});

describe('encodeCell', () => {
  it('keeps text literally for plain-text columns, including formula-like and date-like strings', () => {
    for (const text of [
      '00123',
      '1e5',
      'TRUE',
      '2024-01-05',
      '50%',
      '+1',
      '=IMPORTXML("x")',
      '@SUM(A1)',
      '\tx',
    ]) {
      expect(encodeCell(text, 'text')).toEqual({ write: text, read: text });
    }
  });

  it('writes numbers and booleans typed, and null as a blank cell', () => {
    expect(encodeCell(12.5, 'number')).toEqual({ write: 12.5, read: 12.5 });
    expect(encodeCell(true, 'boolean')).toEqual({ write: true, read: true });
    expect(encodeCell(null, 'number')).toEqual({ write: '', read: '' });
    expect(encodeCell(undefined, 'text')).toEqual({ write: '', read: '' });
  });

  it('guards strings in typed columns with an apostrophe so they never become formulas', () => {
    expect(encodeCell('=1+1', 'number')).toEqual({ write: "'=1+1", read: '=1+1' });
  });

  it('shows arrays and objects as JSON text', () => {
    expect(encodeCell(['a', 1, null], 'json').write).toBe('["a",1,null]');
    expect(encodeCell({ __proto__: 1 }, 'json').write).toBe('{}');
    expect(encodeCell(JSON.parse('{"__proto__":{"x":1}}'), 'json').write).toBe('{"__proto__":{"x":1}}');
  });

  it('shortens text that does not fit in a cell and says so', () => {
    const encoded = encodeCell('x'.repeat(MAX_CELL_CHARS + 5), 'text');
    expect(encoded.truncated).toBe(true);
    expect(String(encoded.write)).toHaveLength(MAX_CELL_CHARS);
  });
});

describe('canonicalCell', () => {
  it('treats a kept or stripped leading apostrophe alike (both readings of Sheets)', () => {
    expect(canonicalCell("'abc")).toBe(canonicalCell('abc'));
  });

  it('tells types apart and treats -0 as 0', () => {
    expect(canonicalCell('1')).not.toBe(canonicalCell(1));
    expect(canonicalCell(-0)).toBe(canonicalCell(0));
    expect(canonicalCell(true)).not.toBe(canonicalCell('TRUE'));
    expect(canonicalCell('')).toBe('');
  });
});

describe('decodeCell', () => {
  it('turns what a person typed into the column’s JSON type', () => {
    expect(decodeCell(123, column('text'), context)).toEqual({ ok: true, value: '123' });
    expect(decodeCell(true, column('text'), context)).toEqual({ ok: true, value: 'TRUE' });
    expect(decodeCell(new Date(Date.UTC(2024, 0, 5)), column('text'), context)).toEqual({
      ok: true,
      value: '2024-01-05',
    });
    expect(decodeCell(' 42 ', column('number'), context)).toEqual({ ok: true, value: 42 });
    expect(decodeCell('false', column('boolean'), context)).toEqual({ ok: true, value: false });
    expect(decodeCell('[1,"a"]', column('json'), context)).toEqual({ ok: true, value: [1, 'a'] });
    expect(decodeCell('', column('number'), context)).toEqual({ ok: true, value: null });
  });

  it('refuses values that would fail on the service, with the reason', () => {
    expect(decodeCell('abc', column('number'), context)).toMatchObject({
      ok: false,
      reason: expect.stringContaining('not a number'),
    });
    expect(decodeCell('{oops', column('json'), context)).toMatchObject({
      ok: false,
      reason: expect.stringContaining('not valid JSON'),
    });
    expect(decodeCell('yes', column('boolean'), context)).toMatchObject({ ok: false });
    expect(decodeCell('x'.repeat(11), column('text', { maxLength: 10 }), context)).toMatchObject({
      ok: false,
      reason: expect.stringContaining('at most 10'),
    });
  });
});

describe('the round trip of any value through a cell', () => {
  const jsonValue = fc.jsonValue().filter((value) => value !== null);
  it('any JSON value in a JSON column reads back and decodes to the same value', () => {
    fc.assert(
      fc.property(jsonValue, (value) => {
        const encoded = encodeCell(value, 'json');
        expect(cellDigest(encoded.read)).toBe(valueDigest(value, 'json'));
        const decoded = decodeCell(encoded.read, column('json'), context);
        expect(decoded).toEqual({ ok: true, value: JSON.parse(JSON.stringify(value)) });
      }),
    );
  });

  it('any string in a text column reads back identical', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary', maxLength: 200 }).filter((s) => s !== ''),
        (text) => {
          const encoded = encodeCell(text, 'text');
          expect(encoded.read).toBe(text);
          expect(decodeCell(encoded.read, column('text'), context)).toEqual({ ok: true, value: text });
        },
      ),
    );
  });

  it('any finite number in a number column reads back identical', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (value) => {
        const decoded = decodeCell(encodeCell(value, 'number').read, column('number'), context);
        expect(decoded.ok && JSON.stringify(decoded.value)).toBe(JSON.stringify(value));
      }),
    );
  });
});

describe('column kinds', () => {
  it('follow the value schema, with unknown types carried as JSON', () => {
    expect(kindOf({ type: 'text', cSchema: { type: 'string' } })).toBe('text');
    expect(kindOf({ type: 'number', cSchema: { type: 'number' } })).toBe('number');
    expect(kindOf({ type: 'checkbox', cSchema: { type: 'boolean' } })).toBe('boolean');
    expect(kindOf({ type: 'multiSelect', multi: true, cSchema: { type: 'array' } })).toBe('json');
    expect(
      kindOf({ type: 'multiSelect', multi: true, cSchema: { type: 'array', items: { type: 'string' } } }),
    ).toBe('list');
    expect(kindOf({ type: 'mystery' })).toBe('json');
  });

  it('leave deleted columns and duplicates out', () => {
    const live = liveColumns([
      { id: 'title', name: 'Name', type: 'text', cSchema: { type: 'string' }, config: { max: 256 } },
      { id: 'old', name: 'Old', type: 'text', deleted: true },
      { id: 'title', name: 'again', type: 'text' },
    ]);
    expect(live.map((c) => c.id)).toEqual(['title']);
    expect(live[0]?.maxLength).toBe(256);
  });
});

describe('list columns (a list of texts: a multi-select)', () => {
  const tags = column('list', { shape: 'text-list' });

  it('show plain choices separated by commas', () => {
    expect(encodeCell(['enterprise', 'smb'], 'list')).toEqual({
      write: 'enterprise, smb',
      read: 'enterprise, smb',
    });
    expect(encodeCell(['Zoë', 'naïve café'], 'list').read).toBe('Zoë, naïve café');
    expect(cellRead(['enterprise'], 'list')).toBe('enterprise');
  });

  it('fall back to JSON for a choice with a comma, end spaces or a JSON look, and for the empty list', () => {
    for (const value of [
      ['a, b', 'c'],
      [' padded'],
      ['trailing '],
      [''],
      ['[x'],
      ['{x}'],
      ['"quoted"'],
      ['1'],
      ['-2.5e3'],
      ['true'],
      ['null'],
      [],
      ['ok', 7],
      'not a list',
      { a: 1 },
    ]) {
      expect(encodeCell(value, 'list').read).toBe(JSON.stringify(value));
    }
  });

  it('an empty cell is null and [] the empty list, as in a JSON column', () => {
    expect(encodeCell(null, 'list')).toEqual({ write: '', read: '' });
    expect(decodeCell('', tags, context)).toEqual({ ok: true, value: null });
    expect(decodeCell('[]', tags, context)).toEqual({ ok: true, value: [] });
  });

  it('compare by their choices: written with commas, without spaces or as JSON, a list is the same', () => {
    const agreed = valueDigest(['enterprise', 'smb'], 'list');
    for (const typed of [
      'enterprise, smb',
      'enterprise,smb',
      ' enterprise ,smb ',
      '["enterprise", "smb"]',
      '["enterprise","smb"]',
    ]) {
      expect(listCellDigest(typed)).toBe(agreed);
      expect(cellDigestFor(typed, 'list')).toBe(agreed);
    }
    expect(listCellDigest('smb, enterprise')).not.toBe(agreed);
    // A number or TRUE read from a list cell is the one choice it decodes to.
    expect(listCellDigest(42)).toBe(valueDigest(['42'], 'list'));
    expect(listCellDigest(true)).toBe(valueDigest(['TRUE'], 'list'));
    expect(cellDigestFor('enterprise, smb', 'text')).not.toBe(agreed);
    // Not choices: compared by the text, as before.
    expect(listCellDigest('[1,2]')).toBe(cellDigest('[1,2]'));
    expect(listCellDigest('')).toBe(cellDigest(''));
  });

  it('agree with the base a JSON column recorded, so a sheet linked before lists showed with commas reads no edits', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 12 }), { maxLength: 6 }), (items) => {
        expect(valueDigest(items, 'list')).toBe(valueDigest(items, 'json'));
        expect(listCellDigest(encodeCell(items, 'json').read)).toBe(valueDigest(items, 'list'));
      }),
      { numRuns: 500 },
    );
  });

  it('any list of texts round-trips through its cell: the same choices decode, the digest is the agreed one', () => {
    const choice = fc.oneof(
      fc.string({ maxLength: 12 }),
      fc.constantFrom('a, b', ' x', 'y ', '[', '{}', '"q"', '1', 'true', 'null', '', ',', '✂'),
    );
    fc.assert(
      fc.property(fc.array(choice, { maxLength: 6 }), (items) => {
        const encoded = encodeCell(items, 'list');
        expect(encoded.read).toBe(encoded.write);
        expect(decodeCell(encoded.read, tags, context)).toEqual({ ok: true, value: items });
        expect(listCellDigest(encoded.read)).toBe(valueDigest(items, 'list'));
      }),
      { numRuns: 1000 },
    );
  });

  it('any string typed into a list cell decodes to choices that show and read back the same', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), (typed) => {
        const decoded = decodeCell(typed, tags, context);
        if (!decoded.ok || decoded.value === null) return;
        const shown = encodeCell(decoded.value, 'list').read;
        expect(decodeCell(shown, tags, context)).toEqual(decoded);
        expect(listCellDigest(shown)).toBe(listCellDigest(typed));
      }),
      { numRuns: 2000 },
    );
  });

  it("the pull's digest of a service value is the digest its unedited cell reads as, whatever the value", () => {
    const value = fc.oneof(fc.jsonValue(), fc.array(fc.string({ maxLength: 8 }), { maxLength: 5 }));
    fc.assert(
      fc.property(value, (each) => {
        const read = cellRead(each, 'list');
        expect(readDigest(each, read, 'list')).toBe(listCellDigest(read));
        expect(valueDigest(each, 'list')).toBe(listCellDigest(read));
      }),
      { numRuns: 1000 },
    );
    const long = Array.from({ length: 6000 }, (_, i) => `choice${i}`);
    expect(readDigest(long, cellRead(long, 'list'), 'list')).toBe(listCellDigest(cellRead(long, 'list')));
  });

  it('a list longer than a cell holds shows cut, the way its JSON did', () => {
    const items = Array.from({ length: 6000 }, (_, i) => `choice${i}`);
    expect(encodeCell(items, 'list')).toEqual(encodeCell(items, 'json'));
    expect(encodeCell(items, 'list').truncated).toBe(true);
  });
});
