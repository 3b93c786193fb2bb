// Numbers compare at the 15 significant digits Sheets may keep: sheetPrecision is exactly
// Number(x.toPrecision(15)), so a value and the value a sheet rounded it to digest the same.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cellDigest, sheetPrecision } from '../../src/core/codec';

describe('sheetPrecision', () => {
  it('is Number(x.toPrecision(15)) for every finite double, and idempotent', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (value) => {
        const kept = Number(value.toPrecision(15));
        // -0 and 0 are one number here, as for the digest.
        expect(sheetPrecision(value) === kept, `${value}`).toBe(true);
        expect(sheetPrecision(sheetPrecision(value))).toBe(sheetPrecision(value));
      }),
      { numRuns: 20_000 },
    );
  });

  it('a value and its 15-digit rounding have one digest; different values at 15 digits do not', () => {
    for (const value of [0.1 + 0.2, 2 ** 53, 1e21, 12345678901234568, 1 / 3, -7.000000000000001e-9]) {
      expect(cellDigest(value)).toBe(cellDigest(Number(value.toPrecision(15))));
    }
    expect(cellDigest(0.3)).not.toBe(cellDigest(0.30000000000001));
    expect(cellDigest(1250.5)).not.toBe(cellDigest(1250.25));
  });

  it('leaves integers below 10^15 and non-finite values as they are', () => {
    for (const value of [0, 1, -42, 999_999_999_999_999, Number.POSITIVE_INFINITY, Number.NaN])
      expect(Object.is(sheetPrecision(value), value)).toBe(true);
  });
});
