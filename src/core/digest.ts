// Short, fast, deterministic digests of cell contents for the per-row base (no crypto needed:
// they detect change, they do not protect anything).

/** cyrb53: a 53-bit string hash with good spread, pure JS. */
export function hash53(text: string, seed = 0): number {
  return hashFrom(text, 0, seed);
}

/**
 * Called as charCodeAt.call(text, i): `text.charCodeAt` looks the method up on the string itself, and
 * once texts of five or more representations (flat, sliced, concatenated, one- or two-byte) have
 * passed, V8 stops inlining that lookup and every character costs a generic call (measured after the
 * bench's hostile warm-up: short cells hashed 2x slower, 50,000-character ones 5x).
 */
const charCodeAt = String.prototype.charCodeAt;

/** hash53 of text.slice(start), without making the slice (cells may hold 50,000 characters). */
function hashFrom(text: string, start: number, seed: number): number {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  const end = text.length;
  // Two UTF-16 units per step: half the multiplications for long texts, same spread.
  let i = start;
  for (; i + 1 < end; i += 2) {
    const pair = (charCodeAt.call(text, i) << 16) | charCodeAt.call(text, i + 1);
    h1 = Math.imul(h1 ^ pair, 2654435761);
    h2 = Math.imul(h2 ^ pair, 1597334677);
  }
  if (i < end) {
    const last = charCodeAt.call(text, i);
    h1 = Math.imul(h1 ^ last, 2654435761);
    h2 = Math.imul(h2 ^ last, 1597334677);
  }
  return finish(h1, h2, end - start);
}

function finish(first: number, second: number, length: number): number {
  let h1 = first ^ length;
  let h2 = second;
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

export const DIGEST_WIDTH = 8;
const DIGEST_SPACE = 36 ** DIGEST_WIDTH;

/** A digest: an integer below 36^8 (about 41 bits). Numbers, so comparing them allocates nothing. */
export type Digest = number;

export function digest(text: string, seed = 0): Digest {
  return hashFrom(text, 0, seed) % DIGEST_SPACE;
}

/** digest(text.slice(start), seed) without copying the text. */
export function digestFrom(text: string, start: number, seed = 0): Digest {
  return hashFrom(text, start, seed) % DIGEST_SPACE;
}

/** The digest of two 32-bit words (a number's bits), seeded like hash53. */
export function mixDigest(low: number, high: number, seed = 0): Digest {
  let h1 = Math.imul(0xdeadbeef ^ seed ^ low, 2654435761);
  let h2 = Math.imul(0x41c6ce57 ^ seed ^ high, 1597334677);
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)) % DIGEST_SPACE;
}

const BASE36 = '0123456789abcdefghijklmnopqrstuvwxyz';
/** Base36 text of 0 .. 36^2 - 1, two digits each. */
const DIGIT_PAIRS: readonly string[] = Array.from(
  { length: 36 * 36 },
  (_, n) => (BASE36[Math.floor(n / 36)] as string) + (BASE36[n % 36] as string),
);
const PAIR = 36 * 36;
const QUAD = PAIR * PAIR;

/**
 * Fixed-width base36 text of a digest, so a row's digests can be concatenated in one cell. Built from
 * digit pairs: Number#toString(36) takes V8's generic radix path (about 2 µs a call, measured ten
 * times slower), and a pull writes a digest per cell.
 */
export function digestText(value: Digest): string {
  // Not a digest (a base cell someone edited, say): written as before, so it never reads back as one.
  if (!Number.isInteger(value) || value < 0 || value >= DIGEST_SPACE)
    return value.toString(36).padStart(DIGEST_WIDTH, '0');
  const high = Math.floor(value / QUAD);
  const low = value - high * QUAD;
  const highPair = Math.floor(high / PAIR);
  const lowPair = Math.floor(low / PAIR);
  return (
    (DIGIT_PAIRS[highPair] as string) +
    (DIGIT_PAIRS[high - highPair * PAIR] as string) +
    (DIGIT_PAIRS[lowPair] as string) +
    (DIGIT_PAIRS[low - lowPair * PAIR] as string)
  );
}

/** The digest written by digestText, or undefined for anything else (read digit by digit: no regex). */
export function parseDigest(text: string): Digest | undefined {
  if (text.length !== DIGEST_WIDTH) return undefined;
  return parseDigestAt(text, 0);
}

/**
 * parseDigest(text.slice(start, start + DIGEST_WIDTH)) without making the slice: a base row holds a
 * digest per column, and a re-pull reads every row. Undefined when the text ends before the digest.
 */
export function parseDigestAt(text: string, start: number): Digest | undefined {
  if (start < 0 || start + DIGEST_WIDTH > text.length) return undefined;
  let value = 0;
  for (let i = start; i < start + DIGEST_WIDTH; i++) {
    const code = charCodeAt.call(text, i);
    // '0'-'9' are 48-57, 'a'-'z' 97-122.
    const digit = code >= 48 && code <= 57 ? code - 48 : code >= 97 && code <= 122 ? code - 87 : -1;
    if (digit < 0) return undefined;
    value = value * 36 + digit;
  }
  return value;
}
