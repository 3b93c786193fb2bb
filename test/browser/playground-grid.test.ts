// The playground's grid does what the README warns about, as Sheets does (issue 26, point 9): a block
// pasted over a cell fills a block, Data › Sort sorts a sheet or a range (one column alone too), rows
// and columns are inserted and deleted, and Undo puts the last of these back.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { artifact } from '../harness/browser';
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

/** The active sheet's shown values, line by line, trailing empty cells and lines cut. */
function sheet(): string[][] {
  const rows = h.sim.snapshotSheet(h.sim.spreadsheet.getActiveSheet().getSheetId()).rows.map((row) => {
    const copy = [...row];
    while (copy.length > 0 && copy[copy.length - 1] === '') copy.pop();
    return copy;
  });
  while (rows.length > 0 && (rows[rows.length - 1] ?? []).length === 0) rows.pop();
  return rows;
}

/** Pastes clipboard text over the focused element, as Ctrl+V does. */
async function pasteInto(selector: string, text: string): Promise<void> {
  await page.locator(selector).evaluate((element, pasted) => {
    const data = new DataTransfer();
    data.setData('text/plain', pasted);
    element.dispatchEvent(
      new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }),
    );
  }, text);
}

async function said(): Promise<string | null> {
  return page.locator('#tool-result').textContent();
}

async function choose(menu: string, item: string): Promise<void> {
  await page.getByRole('menuitem', { name: menu, exact: true }).click();
  await page.getByRole('menu', { name: menu }).getByRole('menuitem', { name: item }).click();
}

const BLOCK = 'title\tamount\tnotes\nAcme\t300\t"two\nlines"\nBeta\t100\tplain\nCorp\t200\t"say ""hi"""\n';

describe('the playground grid', () => {
  it('fills a block when tab-separated lines are pasted over a cell, and Undo empties it again', async () => {
    await page.locator('[data-cell="B2"]').focus();
    await pasteInto('[data-cell="B2"]', BLOCK);
    await expect.poll(said).toBe('Pasted 4 lines × 3 columns at B2.');
    expect(sheet()).toEqual([
      [],
      ['', 'title', 'amount', 'notes'],
      ['', 'Acme', '300', 'two\nlines'],
      ['', 'Beta', '100', 'plain'],
      ['', 'Corp', '200', 'say "hi"'],
    ]);
    await expect.poll(() => page.locator('[data-cell="C3"]').textContent()).toBe('300');
    await page.screenshot({ path: artifact('playground-block-paste.png') });

    await page.locator('[data-cell="C3"]').focus();
    await page.keyboard.press('ControlOrMeta+Z');
    await expect.poll(said).toBe('Undone: Pasted 4 lines × 3 columns at B2.');
    expect(sheet()).toEqual([]);
  });

  it('pastes a block over a cell being edited instead of into it', async () => {
    await page.locator('[data-cell="A1"]').click();
    await pasteInto('[data-cell="A1"] input', 'a\tb\nc\td');
    await expect.poll(said).toBe('Pasted 2 lines × 2 columns at A1.');
    expect(sheet()).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ]);
    // Undo also puts back a typed cell.
    await page.locator('[data-cell="A1"]').click();
    await page.getByRole('textbox', { name: 'Cell A1' }).fill('typed');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('[data-cell="A1"]').textContent()).toBe('typed');
    await choose('Edit', 'Undo');
    await expect.poll(said).toBe('Undone: Typed into A1.');
    expect(sheet()[0]).toEqual(['a', 'b']);
  });
});

describe('the playground grid sorts', () => {
  it('sorts one column alone (Data › Sort range), leaving the others in place, and undoes it', async () => {
    await page.locator('[data-cell="A1"]').focus();
    await pasteInto('[data-cell="A1"]', BLOCK);
    await expect.poll(said).toMatch(/^Pasted 4 lines/);
    await page.locator('[data-cell="B2"]').focus();
    await choose('Data', 'Sort range…');
    const dialog = page.locator('#sort-dialog');
    expect(await dialog.locator('#sort-range').inputValue()).toBe('B2:B4');
    expect(await dialog.locator('#sort-column').inputValue()).toBe('B');
    await page.screenshot({ path: artifact('playground-sort-range.png') });
    await dialog.getByRole('button', { name: 'Sort', exact: true }).click();
    await expect.poll(said).toBe('Sorted B2:B4 by column B, A → Z; cells outside it did not move.');
    expect(sheet().map((row) => row.slice(0, 2))).toEqual([
      ['title', 'amount'],
      ['Acme', '100'],
      ['Beta', '200'],
      ['Corp', '300'],
    ]);
    await page.keyboard.press('ControlOrMeta+Z');
    await expect.poll(said).toMatch(/^Undone: Sorted B2:B4/);
    expect(sheet().map((row) => row.slice(0, 2))).toEqual([
      ['title', 'amount'],
      ['Acme', '300'],
      ['Beta', '100'],
      ['Corp', '200'],
    ]);

    // A range that is not one is refused in the dialog.
    await choose('Data', 'Sort range…');
    await dialog.locator('#sort-range').fill('B2:??');
    await dialog.getByRole('button', { name: 'Sort', exact: true }).click();
    await expect
      .poll(() => dialog.locator('#sort-error').textContent())
      .toBe('"B2:??" is not a range of this sheet: write it like B2:B26.');
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    // Sorting the sheet by a column moves whole lines below the frozen ones (here none: all lines).
    await page.locator('[data-cell="B3"]').focus();
    await choose('Data', 'Sort sheet by this column, Z → A');
    await expect.poll(said).toBe('Sorted the sheet by column B, Z → A (below the frozen rows).');
    expect(sheet().map((row) => row[0])).toEqual(['title', 'Acme', 'Corp', 'Beta']);
  });
});

describe('the playground grid inserts and deletes', () => {
  it('inserts and deletes rows and columns, and undoes a deletion with its cells', async () => {
    await page.locator('[data-cell="A1"]').focus();
    await pasteInto('[data-cell="A1"]', 'a\tb\tc\nd\te\tf\n');
    await expect.poll(said).toMatch(/^Pasted 2 lines/);

    await page.locator('[data-cell="B2"]').focus();
    await choose('Insert', 'Row above');
    await expect.poll(said).toBe('Inserted 1 row at row 2.');
    expect(sheet()).toEqual([['a', 'b', 'c'], [], ['d', 'e', 'f']]);
    await page.locator('[data-cell="A2"]').focus();
    await choose('Edit', 'Delete row');
    await expect.poll(said).toBe('Deleted row 2.');
    expect(sheet()).toEqual([
      ['a', 'b', 'c'],
      ['d', 'e', 'f'],
    ]);

    await page.locator('[data-cell="B1"]').focus();
    await choose('Insert', 'Column right');
    await expect.poll(said).toBe('Inserted 1 column at column C.');
    expect(sheet()).toEqual([
      ['a', 'b', '', 'c'],
      ['d', 'e', '', 'f'],
    ]);
    await page.locator('[data-cell="A1"]').focus();
    await choose('Edit', 'Delete column');
    await expect.poll(said).toBe('Deleted column A.');
    expect(sheet()).toEqual([
      ['b', '', 'c'],
      ['e', '', 'f'],
    ]);
    await page.screenshot({ path: artifact('playground-insert-delete.png') });
    await choose('Edit', 'Undo');
    await expect.poll(said).toBe('Undone: Deleted column A.');
    expect(sheet()).toEqual([
      ['a', 'b', '', 'c'],
      ['d', 'e', '', 'f'],
    ]);
  });
});

describe('the playground grid by keyboard', () => {
  it('moves with the arrow keys, types over a selected cell, and clears it with Delete', async () => {
    const focused = () => page.evaluate(() => document.activeElement?.getAttribute('data-cell') ?? null);
    await page.locator('[data-cell="B2"]').focus();
    for (const [key, cell] of [
      ['ArrowRight', 'C2'],
      ['ArrowDown', 'C3'],
      ['ArrowLeft', 'B3'],
      ['ArrowUp', 'B2'],
    ] as const) {
      await page.keyboard.press(key);
      expect(await focused()).toBe(cell);
    }
    expect(await page.locator('#active-cell').textContent()).toBe('B2');

    // Typing over a selected cell replaces its content, as in Sheets.
    await page.keyboard.type('hello');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('[data-cell="B2"]').textContent()).toBe('hello');
    await expect.poll(focused).toBe('B2');
    await page.keyboard.type('42');
    await page.keyboard.press('Enter');
    await expect.poll(() => sheet()[1]?.[1]).toBe('42');

    await expect.poll(focused).toBe('B2');
    await page.keyboard.press('Delete');
    await expect.poll(said).toBe('Cleared B2.');
    expect(sheet()).toEqual([]);
    await page.keyboard.press('ControlOrMeta+Z');
    await expect.poll(said).toBe('Undone: Cleared B2.');
    expect(sheet()).toEqual([[], ['', '42']]);
  });

  it('says why the sample data holds hostile strings, and shows them as text', async () => {
    const note = page.locator('#sample-note');
    expect(await note.textContent()).toContain(
      'a table app named <img src=x onerror=alert(1)> Ops, a table Tasks <b>bold</b>',
    );
    expect(await note.textContent()).toContain('nothing is rendered as HTML, run as a formula');
    expect(await note.locator('img, b').count()).toBe(0);
  });
});
