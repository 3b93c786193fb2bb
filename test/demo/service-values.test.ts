// The playground's "Change a row on the service…" form reads a typed value as the column's type, or
// refuses it with a sentence (issue 26, point 9: `lots` for a number became null and said "Changed").
import { describe, expect, it } from 'vitest';
import { serviceValue } from '../../demo/service-values';

const column = (type: string) => ({ id: 'amount', name: 'Amount', type });

describe('a value typed for the service', () => {
  it('reads each type', () => {
    expect(serviceValue(' 1200 ', column('number'))).toEqual({ ok: true, value: 1200 });
    expect(serviceValue('-12.5e1', column('number'))).toEqual({ ok: true, value: -125 });
    expect(serviceValue('Yes', column('checkbox'))).toEqual({ ok: true, value: true });
    expect(serviceValue('0', column('checkbox'))).toEqual({ ok: true, value: false });
    expect(serviceValue('2026-11-25', column('date'))).toEqual({ ok: true, value: '2026-11-25' });
    expect(serviceValue('enterprise, smb', column('multiSelect'))).toEqual({
      ok: true,
      value: ['enterprise', 'smb'],
    });
    expect(serviceValue('["a, b"]', column('multiSelect'))).toEqual({ ok: true, value: ['a, b'] });
    expect(serviceValue('{"tier":"gold"}', column('json'))).toEqual({ ok: true, value: { tier: 'gold' } });
    expect(serviceValue(' as typed ', column('text'))).toEqual({ ok: true, value: ' as typed ' });
  });

  it('clears the cell only when the value is left empty', () => {
    for (const type of ['number', 'checkbox', 'date', 'multiSelect', 'json', 'text'])
      expect(serviceValue('  ', column(type))).toEqual({ ok: true, value: null });
  });

  it.each([
    ['number', 'lots', 'is not a number (e.g. 1200 or 12.5)'],
    ['number', '12abc', 'is not a number'],
    ['number', 'Infinity', 'is not a number'],
    ['checkbox', 'maybe', 'is not true or false'],
    ['date', '2026-02-30', 'is not a date written YYYY-MM-DD'],
    ['multiSelect', '[1, 2]', 'is not a list of texts'],
    ['json', '[1]', 'is not a JSON object'],
    ['json', '{oops', 'is not a JSON object'],
  ])('refuses %s "%s" with a sentence', (type, text, says) => {
    const read = serviceValue(text, column(type));
    expect(read.ok).toBe(false);
    if (read.ok) return;
    expect(read.error).toContain(`"${text}" ${says}`);
    expect(read.error).toContain(
      `Amount (amount) is a ${type} column. Leave the value empty to clear the cell.`,
    );
  });
});
