// TextFinder (apps-script-facts.md §14; reference: spreadsheet/text-finder, Range/Sheet/Spreadsheet
// #createTextFinder) and rows hidden by a person or by a filter, which the finder skips. Installed on
// RangeImpl, SheetImpl and SpreadsheetImpl by spreadsheet.ts.
import { CellFormula } from './cell-values';
import { GasError, GasObject } from './realm';
import type { RangeImpl, RowData, SheetImpl, SpreadsheetImpl } from './spreadsheet';

/** Why a row is hidden: hidden by a person or script (hideRows), or filtered out by a filter view. */
export type RowHiding = 'user' | 'filter';

// The hiding travels with the row's data, so it follows the line when rows above it come and go.
const hiddenRows = new WeakMap<RowData, RowHiding>();

/** The row's data, made when the row has none yet (an empty row can be hidden too). */
function rowData(sheet: SheetImpl, r: number): RowData {
  const row = sheet._rows[r - 1] ?? { v: [] };
  sheet._rows[r - 1] = row;
  return row;
}

/** How row r is hidden, if it is. */
export function rowHiding(sheet: SheetImpl, r: number): RowHiding | undefined {
  const row = sheet._rows[r - 1];
  return row ? hiddenRows.get(row) : undefined;
}

/** Hides (or, with undefined, shows) `count` rows from row `r`; tests and person actions use it for filters. */
export function hideRows(sheet: SheetImpl, r: number, count: number, how: RowHiding | undefined): void {
  if (
    !Number.isInteger(r) ||
    !Number.isInteger(count) ||
    r < 1 ||
    count < 1 ||
    r + count - 1 > sheet._maxRows
  )
    throw new GasError('Those rows are out of bounds.');
  for (let i = r; i < r + count; i++) {
    if (how === undefined) {
      const row = sheet._rows[i - 1];
      if (row) hiddenRows.delete(row);
    } else hiddenRows.set(rowData(sheet, i), how);
  }
}

/** Sheet methods for hidden rows (reference: Sheet#hideRows, #showRows, #isRowHiddenByUser, #isRowHiddenByFilter). */
export class SheetRowHiding {
  hideRows(this: SheetImpl, rowIndex: number, numRows = 1): void {
    hideRows(this, rowIndex, numRows, 'user');
  }
  showRows(this: SheetImpl, rowIndex: number, numRows = 1): void {
    for (let r = rowIndex; r < rowIndex + numRows; r++)
      if (rowHiding(this, r) === 'user') hideRows(this, r, 1, undefined);
  }
  isRowHiddenByUser(this: SheetImpl, rowPosition: number): boolean {
    return rowHiding(this, rowPosition) === 'user';
  }
  isRowHiddenByFilter(this: SheetImpl, rowPosition: number): boolean {
    return rowHiding(this, rowPosition) === 'filter';
  }
}

/** One block a finder searches: a sheet's rectangle. */
interface Block {
  sheet: SheetImpl;
  row: number;
  col: number;
  rows: number;
  cols: number;
}

// Regular-expression syntax RE2 (Google's engine) lacks: look-arounds and back-references.
const NOT_RE2 = /\(\?<?[=!]|\\[1-9]|\\k</;

function withoutDiacritics(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '');
}

/**
 * A TextFinder over blocks searched row by row (UNCONFIRMED order: by rows, then columns, sheets in
 * tab order). Defaults as Google's: case-insensitive, partial-cell, a formula cell by its displayed
 * value. Rows hidden by a person or a filter are skipped (UNCONFIRMED: the stricter reading, since an
 * add-on that takes "not found" for "absent" must not pass here). Every find (findAll, findNext,
 * findPrevious) searches every cell of the finder's scope and is charged that many read cells.
 */
export class TextFinderImpl extends GasObject {
  protected readonly _gasType = 'TextFinder';
  override readonly _family = 'sheet' as const;
  private _matchCase = false;
  private _entireCell = false;
  private _formulaText = false;
  private _regex = false;
  private _diacritics = false;
  /** The position the next find starts after (-1: before the first cell). */
  private _position = -1;
  private _current: RangeImpl | null = null;

  constructor(
    private readonly _blocks: () => Block[],
    private readonly _text: string,
  ) {
    super();
  }

  matchCase(matchCase: boolean): TextFinderImpl {
    this._matchCase = Boolean(matchCase);
    return this;
  }
  matchEntireCell(matchEntireCell: boolean): TextFinderImpl {
    this._entireCell = Boolean(matchEntireCell);
    return this;
  }
  matchFormulaText(matchFormulaText: boolean): TextFinderImpl {
    this._formulaText = Boolean(matchFormulaText);
    return this;
  }
  useRegularExpression(useRegEx: boolean): TextFinderImpl {
    this._regex = Boolean(useRegEx);
    return this;
  }
  ignoreDiacritics(ignoreDiacritics: boolean): TextFinderImpl {
    this._diacritics = Boolean(ignoreDiacritics);
    return this;
  }
  /** Starts the next search right after the range's top-left cell. */
  startFrom(startRange: RangeImpl): TextFinderImpl {
    if (!startRange || String(startRange) !== 'Range')
      throw new GasError(
        "The parameters don't match the method signature for SpreadsheetApp.TextFinder.startFrom.",
      );
    this._position = this._cellsUpTo(startRange._sheet, startRange._row, startRange._col) - 1;
    this._current = null;
    return this;
  }
  findAll(): RangeImpl[] {
    return this._search().map((m) => m.range);
  }
  findNext(): RangeImpl | null {
    const next = this._search().find((m) => m.index > this._position);
    return this._land(next);
  }
  findPrevious(): RangeImpl | null {
    const before = this._search().filter((m) => m.index < this._position);
    return this._land(before[before.length - 1]);
  }
  getCurrentMatch(): RangeImpl | null {
    return this._current;
  }
  replaceAllWith(): never {
    throw new Error(
      'The simulator does not model TextFinder.replaceAllWith (a write by search): write the cells instead.',
    );
  }
  replaceWith(): never {
    throw new Error(
      'The simulator does not model TextFinder.replaceWith (a write by search): write the cells instead.',
    );
  }

  private _land(match: { index: number; range: RangeImpl } | undefined): RangeImpl | null {
    if (!match) return null;
    this._position = match.index;
    this._current = match.range;
    return match.range;
  }

  /** How many cells of the scope come at or before (sheet, r, c) in search order. */
  private _cellsUpTo(sheet: SheetImpl, r: number, c: number): number {
    let count = 0;
    for (const b of this._blocks()) {
      const order = Math.sign(sheet.getIndex() - b.sheet.getIndex());
      if (order < 0) break;
      if (order > 0 || r > b.row + b.rows - 1) {
        count += b.rows * b.cols;
        continue;
      }
      if (r < b.row) break;
      count += (r - b.row) * b.cols + Math.max(0, Math.min(c, b.col + b.cols - 1) - b.col + 1);
      break;
    }
    return count;
  }

  private _matcher(): (text: string) => boolean {
    const fold = (s: string): string => {
      const plain = this._diacritics ? withoutDiacritics(s) : s;
      return this._matchCase || this._regex ? plain : plain.toLowerCase();
    };
    if (this._regex) {
      if (NOT_RE2.test(this._text))
        throw new Error(
          `The simulator refuses the pattern ${this._text}: Google's regular expressions (RE2) have no look-arounds or back-references.`,
        );
      let re: RegExp;
      try {
        const source = fold(this._text);
        re = new RegExp(this._entireCell ? `^(?:${source})$` : source, this._matchCase ? 'u' : 'iu');
      } catch {
        throw new GasError(`Invalid regular expression: ${this._text}`);
      }
      return (text) => re.test(fold(text));
    }
    const wanted = fold(this._text);
    return this._entireCell ? (text) => fold(text) === wanted : (text) => fold(text).includes(wanted);
  }

  /** Every match of the scope in search order, each with its position; charges every cell searched. */
  private _search(): { index: number; range: RangeImpl }[] {
    const matches = this._matcher();
    const found: { index: number; range: RangeImpl }[] = [];
    let index = 0;
    let searched = 0;
    for (const b of this._blocks()) {
      searched += b.rows * b.cols;
      for (let r = b.row; r < b.row + b.rows; r++) {
        if (rowHiding(b.sheet, r) !== undefined) {
          index += b.cols;
          continue;
        }
        for (let c = b.col; c < b.col + b.cols; c++, index++) {
          const raw = b.sheet._cell(r, c);
          const text = this._formulaText && raw instanceof CellFormula ? raw.text : b.sheet._display(r, c);
          if (text !== '' && matches(text)) found.push({ index, range: b.sheet.getRange(r, c) });
        }
      }
    }
    const first = this._blocks()[0];
    first?.sheet._ss._rt.chargeCells(searched, 0);
    return found;
  }
}

function finderText(findText: unknown, owner: string): string {
  if (typeof findText !== 'string')
    throw new GasError(
      `The parameters don't match the method signature for SpreadsheetApp.${owner}.createTextFinder.`,
    );
  // Best guess of the wording: an empty search is refused (UNCONFIRMED).
  if (findText === '') throw new GasError('The text to find cannot be empty.');
  return findText;
}

/** A sheet's cells with content: up to its last row and column (nothing beyond holds text). */
function sheetBlock(sheet: SheetImpl): Block[] {
  const rows = sheet.getLastRow();
  const cols = sheet.getLastColumn();
  return rows > 0 && cols > 0 ? [{ sheet, row: 1, col: 1, rows, cols }] : [];
}

export class RangeFinding {
  /** A finder over every cell of this range. */
  createTextFinder(this: RangeImpl, findText: string): TextFinderImpl {
    const text = finderText(findText, 'Range');
    const block = {
      sheet: this._sheet,
      row: this._row,
      col: this._col,
      rows: this._numRows,
      cols: this._numCols,
    };
    return new TextFinderImpl(() => [block], text);
  }
}

export class SheetFinding {
  /** A finder over the sheet's cells up to its last row and column with content. */
  createTextFinder(this: SheetImpl, findText: string): TextFinderImpl {
    const text = finderText(findText, 'Sheet');
    return new TextFinderImpl(() => sheetBlock(this), text);
  }
}

export class SpreadsheetFinding {
  /** A finder over every sheet, in tab order. */
  createTextFinder(this: SpreadsheetImpl, findText: string): TextFinderImpl {
    const text = finderText(findText, 'Spreadsheet');
    return new TextFinderImpl(() => this._sheets.flatMap(sheetBlock), text);
  }
}

declare module './spreadsheet' {
  interface RangeImpl extends RangeFinding {}
  interface SheetImpl extends SheetFinding, SheetRowHiding {}
  interface SpreadsheetImpl extends SpreadsheetFinding {}
}
