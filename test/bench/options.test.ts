// `npm run bench` flags: `--only TEXT` picks the scenarios whose name contains TEXT ("typed-edit" and
// "day-schedule" name the typed edit of live sync and the day of a schedule alone).
import { describe, expect, it } from 'vitest';
import { parseOptions } from '../../bench/options';

describe('bench options', () => {
  it('run every scenario by default and write bench/results.json', () => {
    const options = parseOptions([]);
    expect(options.only).toBeUndefined();
    expect(options.out).toBe('bench/results.json');
  });

  it('take --only TEXT, writing a filtered run elsewhere than the full results, and refuse an empty one', () => {
    const typed = parseOptions(['--only', 'typed-edit']);
    expect(typed.only).toBe('typed-edit');
    expect(typed.out).not.toBe('bench/results.json');
    expect(parseOptions(['--only', 'check 10k']).only).toBe('check 10k');
    expect(() => parseOptions(['--only', ''])).toThrow(/--only takes part of a scenario name/);
  });
});
