// The bench's own check of a pulled sheet (independent of the add-on's codec): lists of texts may
// show as their choices separated by commas.
import { describe, expect, it } from 'vitest';
import { cellHolds } from '../../bench/verify';

describe('cellHolds', () => {
  it('reads a list of texts shown with commas or as JSON, and nothing else as it', () => {
    expect(cellHolds('enterprise, smb', ['enterprise', 'smb'])).toBe(true);
    expect(cellHolds('["a, b"]', ['a, b'])).toBe(true);
    expect(cellHolds('[]', [])).toBe(true);
    expect(cellHolds('a, b', ['a, b'])).toBe(false);
    expect(cellHolds('smb, enterprise', ['enterprise', 'smb'])).toBe(false);
    expect(cellHolds('{"k":1}', { k: 1 })).toBe(true);
  });
});
