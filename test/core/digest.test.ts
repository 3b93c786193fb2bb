// Digests as text: fixed-width base36, read back exactly; anything else is not a digest.

import { describe, expect, it } from 'vitest';
import { DIGEST_WIDTH, digest, digestText, parseDigest, parseDigestAt } from '../../src/core/digest';

const LARGEST = 36 ** DIGEST_WIDTH - 1;

describe('digestText and parseDigest', () => {
  it('write fixed-width base36, as toString(36) padded with zeros, and read it back', () => {
    const values = [0, 1, 35, 36, 1295, 1296, 36 ** 4 - 1, 36 ** 4, 36 ** 6 + 7, LARGEST];
    for (let seed = 0; seed < 200; seed++) values.push(digest(`cell ${seed}`, seed));
    for (const value of values) {
      const text = digestText(value);
      expect(text).toBe(value.toString(36).padStart(DIGEST_WIDTH, '0'));
      expect(parseDigest(text)).toBe(value);
    }
    expect(digestText(LARGEST)).toBe('zzzzzzzz');
  });

  it('write anything that is not a digest as before (it never parses back as one)', () => {
    for (const value of [-1, 1.5, 36 ** DIGEST_WIDTH, Number.NaN]) {
      expect(digestText(value)).toBe(value.toString(36).padStart(DIGEST_WIDTH, '0'));
      expect(parseDigest(digestText(value))).toBeUndefined();
    }
  });

  it('refuse a text of another width or with any character outside 0-9 a-z', () => {
    for (const text of [
      '',
      '0000000',
      '000000000',
      '0000000A',
      '000 0000',
      '0000000-',
      '0000000{',
      '/0000000',
      ':0000000',
      '`0000000',
    ])
      expect(parseDigest(text)).toBeUndefined();
  });

  it('read a digest inside a longer text at an offset, as parseDigest of the slice', () => {
    const row = `2024-01-01\t${digestText(7)}${digestText(LARGEST)}0000zz!0\t`;
    for (let start = -1; start <= row.length; start++)
      expect(parseDigestAt(row, start)).toBe(
        start < 0 ? undefined : parseDigest(row.slice(start, start + DIGEST_WIDTH)),
      );
    expect(parseDigestAt(row, 11)).toBe(7);
    expect(parseDigestAt(row, 19)).toBe(LARGEST);
  });
});
