// Copy and paste inside the playground's grid, as a person does it (apps-script-facts §14): a copied
// cell's shown text goes to the clipboard, and pasting it in the grid pastes the cell itself, so the
// source's data validation comes along and the rule where it lands goes, as in Sheets.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { cellRules, setPersonRule } from '../../emulators/apps-script/index';
import type { Harness } from '../harness/index';
import { usePageSession } from './page-session';

let h: Harness;
let page: Page;

usePageSession(
  {
    viewport: { width: 1280, height: 800 },
    path: '/',
    ready: async (opened) => {
      await opened.locator('[data-cell="A1"]').waitFor();
    },
  },
  (session) => {
    ({ h, page } = session);
  },
);

/** Dispatches a clipboard event on a cell, as Ctrl+C or Ctrl+V does; returns the clipboard's text after. */
async function clipboard(selector: string, type: 'copy' | 'paste', text = ''): Promise<string> {
  return page.locator(selector).evaluate(
    (element, [kind, pasted]) => {
      const data = new DataTransfer();
      if (pasted) data.setData('text/plain', pasted);
      element.dispatchEvent(
        new ClipboardEvent(kind as string, { clipboardData: data, bubbles: true, cancelable: true }),
      );
      return data.getData('text/plain');
    },
    [type, text],
  );
}

const said = (): Promise<string | null> => page.locator('#tool-result').textContent();
const rules = (): string[] => cellRules(h.sim.spreadsheet.getActiveSheet()).map((cell) => cell.a1);

describe('copy and paste in the playground grid', () => {
  it('pastes a copied cell as the cell: its lack of a rule replaces the rule where it lands', async () => {
    await page.locator('[data-cell="A1"]').focus();
    await clipboard('[data-cell="A1"]', 'paste', 'plain\tWon\nother\tLead');
    await expect.poll(said).toBe('Pasted 2 lines × 2 columns at A1.');
    setPersonRule(h.sim.spreadsheet.getActiveSheet(), 'B1:B2', {
      criteria: 'VALUE_IN_LIST',
      values: [['Won', 'Lead'], true],
      allowInvalid: false,
    });
    await page.locator('[data-cell="A1"]').focus();
    expect(await clipboard('[data-cell="A1"]', 'copy')).toBe('plain');
    await page.locator('[data-cell="B2"]').focus();
    await clipboard('[data-cell="B2"]', 'paste', 'plain');
    await expect
      .poll(said)
      .toBe('Pasted 1 line × 1 column at B2 (the cells of A1, with their formats, notes and rules).');
    expect(rules()).toEqual(['B1']);
    await expect.poll(() => page.locator('[data-cell="B2"]').textContent()).toBe('plain');
  });

  it('pastes other text as typed input, which the rule refuses with the sheet’s sentence', async () => {
    await page.locator('[data-cell="B1"]').focus();
    await clipboard('[data-cell="B1"]', 'paste', 'Won');
    await expect.poll(said).toBe('Pasted 1 line × 1 column at B1.');
    setPersonRule(h.sim.spreadsheet.getActiveSheet(), 'B1', {
      criteria: 'VALUE_IN_LIST',
      values: [['Won', 'Lead'], true],
      allowInvalid: false,
    });
    await clipboard('[data-cell="B1"]', 'paste', 'Maybe');
    await expect
      .poll(said)
      .toBe('The data you entered in cell B1 violates the data validation rules set on this cell.');
    expect(h.sim.spreadsheet.getActiveSheet().getRange('B1').getValue()).toBe('Won');
  });
});
