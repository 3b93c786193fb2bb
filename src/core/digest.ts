// Short, fast, deterministic digests of cell contents for the per-row base (no crypto needed:
// they detect change, they do not protect anything).

/** cyrb53: a 53-bit string hash with good spread, pure JS. */
export function hash53(text: string, seed = 0): number {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

export const DIGEST_WIDTH = 8;
const DIGEST_SPACE = 36 ** DIGEST_WIDTH;

/** A fixed-width base36 digest (about 41 bits), so digests can be concatenated per row. */
export function digest(text: string): string {
  const value = hash53(text) % DIGEST_SPACE;
  return value.toString(36).padStart(DIGEST_WIDTH, '0');
}
