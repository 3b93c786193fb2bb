// The playground's paste and data validation (apps-script-facts §14): cells copied in the grid paste as
// cells, carrying the source's rules (so a paste can remove the add-on's rules); text from elsewhere is
// typed input, which a rejecting rule refuses with the sheet's own sentence; Undo puts rules back.
import { describe, expect, it } from 'vitest';
import { GridActions } from '../../demo/grid-actions';
import { cellRules, createSimulator, setPersonRule } from '../../emulators/apps-script/index';

const T0 = Date.UTC(2024, 0, 1);

function playground() {
  const sim = createSimulator({
    code: 'function noop() {}',
    startTime: T0,
    timeZone: 'Etc/UTC',
    countRealTime: false,
  });
  const sheet = sim.spreadsheet.getActiveSheet();
  sim.person.setValues(sheet.getName(), 1, 1, [
    ['plain', 'Won'],
    ['other', 'Lead'],
  ]);
  setPersonRule(sheet, 'B1:B2', {
    criteria: 'VALUE_IN_LIST',
    values: [['Won', 'Lead'], true],
    allowInvalid: false,
  });
  const grid = new GridActions(() => sim);
  const paste = (row: number, col: number, text: string, from?: { row: number; col: number }) =>
    grid.run({ action: 'paste', sheetId: sheet.getSheetId(), row, col, text, ...(from ? { from } : {}) });
  return { sim, sheet, grid, paste, rules: () => cellRules(sheet).map((cell) => cell.a1) };
}

describe("the playground's paste", () => {
  it('pastes cells copied in the grid as cells: the source has no rule, so the rule where it lands goes', () => {
    const p = playground();
    expect(p.paste(2, 2, 'plain', { row: 1, col: 1 })).toBe(
      'Pasted 1 line × 1 column at B2 (the cells of A1, with their formats, notes and rules).',
    );
    expect(p.sheet.getRange('B2').getValue()).toBe('plain');
    expect(p.rules()).toEqual(['B1']);
    expect(p.grid.run({ action: 'undo' })).toMatch(/^Undone/);
    expect([p.sheet.getRange('B2').getValue(), p.rules()]).toEqual(['Lead', ['B1', 'B2']]);
  });

  it('carries a copied rule onto cells without one', () => {
    const p = playground();
    p.paste(3, 2, 'Won', { row: 1, col: 2 });
    expect(p.rules()).toEqual(['B1', 'B2', 'B3']);
  });

  it('pastes text that no longer matches the copied cell as text, which a rejecting rule refuses', () => {
    const p = playground();
    expect(() => p.paste(2, 2, 'something else', { row: 1, col: 1 })).toThrow(
      'The data you entered in cell B2 violates the data validation rules set on this cell.',
    );
    expect([p.sheet.getRange('B2').getValue(), p.rules()]).toEqual(['Lead', ['B1', 'B2']]);
    expect(p.paste(2, 2, 'Won')).toBe('Pasted 1 line × 1 column at B2.');
    expect(p.rules()).toEqual(['B1', 'B2']);
  });
});
