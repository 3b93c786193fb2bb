// A held push as stored until a person chooses: every stored value fits a property (9 KB, key
// included), the cells read back exactly, and what cannot be kept is said (cells null), never guessed.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  decodeHeldRecord,
  encodeHeldRecord,
  MAX_RECORDED_HELD_CELLS,
  PIECE_BYTES,
  piecesOf,
  utf8Bytes,
} from '../../src/core/held-record';
import type { HeldCell } from '../../src/core/sync/push/hold';
import type { HeldPush } from '../../src/shared/types';

const PROPERTY_BYTES = 9 * 1024;
const KEY = 'tas.held.123456789.99';

function heldOf(columns: string[], exampleText = 'value'): HeldPush {
  return {
    message: 'Held, not sent: title on 12 lines — this looks like an accident.',
    lines: 12,
    key: '12:abcdefgh',
    columns: columns.map((columnId) => ({
      columnId,
      reason: 'moves values between 12 lines (one column sorted or shifted alone)',
      lines: 12,
      examples: [1, 2, 3].map((i) => ({
        row: i + 1,
        rowId: `r${i}`,
        before: exampleText,
        after: exampleText,
      })),
    })),
  };
}

function cellsOf(count: number, id: (i: number) => string = (i) => `r_${i}`): HeldCell[] {
  return Array.from({ length: count }, (_, i) => ({
    rowId: id(i),
    columnId: i % 2 ? 'title' : 'amount',
    digest: 2_000_000_000_000 + i,
  }));
}

function roundTrip(held: HeldPush, cells: HeldCell[]) {
  const stored = encodeHeldRecord(held, cells);
  for (const value of stored.values())
    expect(utf8Bytes(KEY) + utf8Bytes(value)).toBeLessThanOrEqual(PROPERTY_BYTES);
  return { stored, read: decodeHeldRecord((key) => stored.get(key) ?? null) };
}

describe('a stored hold', () => {
  it('reads back its words and cells exactly, in pieces that each fit a property', () => {
    const cells = cellsOf(MAX_RECORDED_HELD_CELLS);
    const { stored, read } = roundTrip(heldOf(['title']), cells);
    expect(stored.size).toBeGreaterThan(3);
    expect(read).toEqual({ held: heldOf(['title']), cells });
  });

  it('keeps row ids of any characters whole across pieces (emoji, accents, CJK)', () => {
    const cells = cellsOf(600, (i) => `行-${i}-Zoë-🚀`);
    const { read } = roundTrip(heldOf(['title']), cells);
    expect(read?.cells).toEqual(cells);
  });

  it('records no cells beyond the limit: the words stay, put back is not offered', () => {
    const { stored, read } = roundTrip(heldOf(['title']), cellsOf(MAX_RECORDED_HELD_CELLS + 1));
    expect(stored.size).toBe(1);
    expect(read).toEqual({ held: heldOf(['title']), cells: null });
  });

  it('shortens the examples of a hold of many columns to fit, keeping every column', () => {
    const columns = Array.from({ length: 40 }, (_, i) => `column_${i}`);
    const { read } = roundTrip(heldOf(columns, 'ü'.repeat(80)), cellsOf(20));
    expect(read?.held.columns.map((column) => column.columnId)).toEqual(columns);
    expect(read?.held.key).toBe('12:abcdefgh');
  });

  it('a missing piece or an unreadable head is no hold of cells, never a wrong one', () => {
    const { stored } = roundTrip(heldOf(['title']), cellsOf(1000));
    stored.delete('1');
    expect(decodeHeldRecord((key) => stored.get(key) ?? null)?.cells).toBeNull();
    expect(decodeHeldRecord((key) => (key === '' ? '{not json' : null))).toBeNull();
    expect(decodeHeldRecord(() => null)).toBeNull();
  });

  it('pieces of any text join back to it and never exceed their bytes', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary', maxLength: 400 }),
        fc.integer({ min: 4, max: 50 }),
        (text, max) => {
          const pieces = piecesOf(text, max);
          expect(pieces.join('')).toBe(text);
          for (const piece of pieces) expect(utf8Bytes(piece)).toBeLessThanOrEqual(max);
        },
      ),
    );
    expect(utf8Bytes('a')).toBe(1);
    expect(utf8Bytes('é')).toBe(2);
    expect(utf8Bytes('行')).toBe(3);
    expect(utf8Bytes('🚀')).toBe(4);
    expect(PIECE_BYTES).toBeLessThan(PROPERTY_BYTES - utf8Bytes(KEY));
  });
});
