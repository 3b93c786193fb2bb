// Clipboard text read as Sheets reads a paste: lines, tab-separated cells, quoted cells.
import { describe, expect, it } from 'vitest';
import { parseClipboard } from '../../demo/grid-actions';

describe('clipboard text pasted over a cell', () => {
  it('splits lines and cells; one final line break ends the last line', () => {
    expect(parseClipboard('a\tb\r\nc\td\r\n')).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ]);
    expect(parseClipboard('one value')).toEqual([['one value']]);
    expect(parseClipboard('a\t\tc\n\n')).toEqual([['a', '', 'c'], ['']]);
  });

  it('keeps line breaks, tabs and doubled quotes inside a quoted cell', () => {
    expect(parseClipboard('"two\nlines"\t"tab\there"\t"say ""hi"""\n')).toEqual([
      ['two\nlines', 'tab\there', 'say "hi"'],
    ]);
    // A quote inside a cell that does not start with one is text.
    expect(parseClipboard('5" screen\tx')).toEqual([['5" screen', 'x']]);
  });

  it('reads nothing from empty text', () => {
    expect(parseClipboard('')).toEqual([]);
  });
});
