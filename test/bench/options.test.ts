// `npm run bench` flags: `--only typed-edit` picks the typed edit of live sync alone.
import { describe, expect, it } from 'vitest';
import { parseOptions } from '../../bench/options';

describe('bench options', () => {
  it('run every scenario by default', () => {
    expect(parseOptions([]).only).toBeNull();
  });

  it('take --only typed-edit, and refuse a scenario they do not know', () => {
    expect(parseOptions(['--only', 'typed-edit']).only).toBe('typed-edit');
    expect(() => parseOptions(['--only', 'pull'])).toThrow(/--only takes typed-edit/);
  });
});
