// SpreadsheetApp: a spreadsheet with sheets stored densely per row, typed-input parsing (§1) and exact errors.
import { columnToLetters, parseA1 } from './a1';
import {
  CellDate,
  CellFormula,
  type CellValue,
  DEFAULT_NUMBER_FORMAT,
  displayValue,
  evaluateFormula,
  isDateTimeFormat,
  PLAIN_TEXT,
  parseTyped,
  serialToEpoch,
} from './cell-values';
import {
  DATA_VALIDATION_CRITERIA,
  DataValidationBuilderImpl,
  type DataValidationImpl,
  RELATIVE_DATE,
} from './data-validation';
import { type DeveloperMetadataImpl, newDeveloperMetadata } from './developer-metadata';
import { ProtectionImpl, SpreadsheetProtections } from './protection';
import { GasError, GasObject, isDate } from './realm';
import type { Runtime } from './runtime';
import { RangeFinding, rowHiding, SheetFinding, SheetRowHiding, SpreadsheetFinding } from './text-finder';
import { type ClearOptions, clearParts, guardRules, RangeTypedCells } from './typed-range';

export { DeveloperMetadataImpl } from './developer-metadata';
export { ProtectionImpl } from './protection';

/** Sheets' workbook cap since 14 Mar 2022 (§3). */
export const MAX_CELLS = 10_000_000;
/** Characters per cell (§2, community sources). */
export const MAX_CELL_CHARS = 50_000;
export const MAX_COLUMNS = 18_278;

type Computed = string | number | boolean | CellDate | null;
type Style = Record<string, string>;

/** One row's cells: values, number formats, notes, styles and data validation rules (typed-range.ts). */
export interface RowData {
  v: CellValue[];
  f?: (string | undefined)[];
  n?: (string | undefined)[];
  s?: (Style | undefined)[];
  d?: (DataValidationImpl | undefined)[];
}

/**
 * Everything stored for one cell, used when cells move (sort, paste, fill) or come back (a person's
 * Undo): a paste carries the source's rule and so replaces the target's (§14).
 */
export interface CellRecord {
  v: CellValue;
  f: string | undefined;
  n: string | undefined;
  s: Style | undefined;
  d?: DataValidationImpl | undefined;
}

const fail = (message: string): never => {
  throw new GasError(message);
};

function signatureError(method: string): never {
  throw new GasError(`The parameters don't match the method signature for ${method}.`);
}

/** A rectangular range of one sheet (1-based coordinates). */
export class RangeImpl extends GasObject {
  protected readonly _gasType = 'Range';
  override readonly _family = 'sheet' as const;
  constructor(
    readonly _sheet: SheetImpl,
    readonly _row: number,
    readonly _col: number,
    readonly _numRows: number,
    readonly _numCols: number,
  ) {
    super();
  }
  /**
   * Whether the grid's size set this range's extent (an open-ended A1 such as `A:C` or `A2:C`): its
   * geometry then tells the grid size, which only the spreadsheet knows (costs.ts).
   */
  _sizedByGrid = false;

  private _rt(): Runtime {
    return this._sheet._ss._rt;
  }

  /** A write of this range's values; a rejecting validation rule they break undoes it and throws (§14). */
  private _guard(write: () => void): void {
    guardRules(this._sheet, this._row, this._col, this._numRows, this._numCols, write);
  }

  private _each(fn: (r: number, c: number, i: number, j: number) => void): void {
    for (let i = 0; i < this._numRows; i++)
      for (let j = 0; j < this._numCols; j++) fn(this._row + i, this._col + j, i, j);
  }

  /** Checks a 2D input against the range size with Sheets' exact wording (§1). */
  private _checkGrid(values: unknown, method: string): unknown[][] {
    if (!Array.isArray(values)) return signatureError(`SpreadsheetApp.Range.${method}`);
    if (values.length !== this._numRows) {
      fail(
        `The number of rows in the data does not match the number of rows in the range. The data has ${values.length} but the range has ${this._numRows}.`,
      );
    }
    for (const row of values) {
      if (!Array.isArray(row)) return signatureError(`SpreadsheetApp.Range.${method}`);
      if (row.length !== this._numCols) {
        fail(
          `The number of columns in the data does not match the number of columns in the range. The data has ${row.length} but the range has ${this._numCols}.`,
        );
      }
    }
    return values as unknown[][];
  }

  private _grid<T>(cell: (r: number, c: number) => T): T[][] {
    const out: T[][] = new Array(this._numRows);
    for (let i = 0; i < this._numRows; i++) {
      const line: T[] = new Array(this._numCols);
      for (let j = 0; j < this._numCols; j++) line[j] = cell(this._row + i, this._col + j);
      out[i] = line;
    }
    return out;
  }

  getRow(): number {
    return this._row;
  }
  getColumn(): number {
    return this._col;
  }
  getRowIndex(): number {
    return this._row;
  }
  getLastRow(): number {
    return this._row + this._numRows - 1;
  }
  getLastColumn(): number {
    return this._col + this._numCols - 1;
  }
  getNumRows(): number {
    return this._numRows;
  }
  getNumColumns(): number {
    return this._numCols;
  }
  getSheet(): SheetImpl {
    return this._sheet;
  }
  getGridId(): number {
    return this._sheet.getSheetId();
  }
  getA1Notation(): string {
    const start = columnToLetters(this._col) + this._row;
    if (this._numRows === 1 && this._numCols === 1) return start;
    return `${start}:${columnToLetters(this.getLastColumn())}${this.getLastRow()}`;
  }
  activate(): RangeImpl {
    this._sheet._ss._active = this._sheet;
    return this;
  }
  offset(rowOffset: number, columnOffset: number, numRows?: number, numColumns?: number): RangeImpl {
    const range = this._sheet.getRange(
      this._row + rowOffset,
      this._col + columnOffset,
      numRows ?? this._numRows,
      numColumns ?? this._numCols,
    );
    range._sizedByGrid = this._sizedByGrid && (numRows === undefined || numColumns === undefined);
    return range;
  }
  getCell(row: number, column: number): RangeImpl {
    if (row < 1 || row > this._numRows || column < 1 || column > this._numCols)
      fail('Cell reference out of range');
    return new RangeImpl(this._sheet, this._row + row - 1, this._col + column - 1, 1, 1);
  }
  isBlank(): boolean {
    let blank = true;
    this._each((r, c) => {
      if (this._sheet._cell(r, c) !== null) blank = false;
    });
    return blank;
  }

  // ---- values ----
  getValues(): (string | number | boolean | Date)[][] {
    this._rt().chargeCells(this._numRows * this._numCols, 0);
    return this._grid((r, c) => this._sheet._scriptValue(r, c));
  }
  getValue(): string | number | boolean | Date {
    this._rt().chargeCells(1, 0);
    return this._sheet._scriptValue(this._row, this._col);
  }
  getDisplayValues(): string[][] {
    this._rt().chargeCells(this._numRows * this._numCols, 0);
    return this._grid((r, c) => this._sheet._display(r, c));
  }
  getDisplayValue(): string {
    this._rt().chargeCells(1, 0);
    return this._sheet._display(this._row, this._col);
  }
  getFormulas(): string[][] {
    this._rt().chargeCells(this._numRows * this._numCols, 0);
    return this._grid((r, c) => {
      const v = this._sheet._cell(r, c);
      return v instanceof CellFormula ? v.text : '';
    });
  }
  getFormula(): string {
    const v = this._sheet._cell(this._row, this._col);
    return v instanceof CellFormula ? v.text : '';
  }
  setValues(values: unknown[][]): RangeImpl {
    const grid = this._checkGrid(values, 'setValues');
    for (const row of grid) for (const v of row) checkCellLength(v);
    this._guard(() => {
      for (let i = 0; i < this._numRows; i++) {
        const row = grid[i] as unknown[];
        for (let j = 0; j < this._numCols; j++) this._sheet._write(this._row + i, this._col + j, row[j]);
      }
    });
    this._rt().chargeCells(0, this._numRows * this._numCols);
    return this;
  }
  setValue(value: unknown): RangeImpl {
    checkCellLength(value);
    this._guard(() => this._each((r, c) => this._sheet._write(r, c, value)));
    this._rt().chargeCells(0, this._numRows * this._numCols);
    return this;
  }
  setFormula(formula: string): RangeImpl {
    const text = String(formula);
    checkCellLength(text);
    this._guard(() =>
      this._each((r, c) =>
        this._sheet._set(
          r,
          c,
          text.startsWith('=') ? new CellFormula(text) : parseTyped(text, this._sheet._ss._timeZone).value,
        ),
      ),
    );
    this._rt().chargeCells(0, this._numRows * this._numCols);
    return this;
  }
  setFormulas(formulas: string[][]): RangeImpl {
    const grid = this._checkGrid(formulas, 'setFormulas');
    this._guard(() =>
      this._each((r, c, i, j) => {
        const text = String((grid[i] as unknown[])[j] ?? '');
        this._sheet._set(r, c, text === '' ? null : text.startsWith('=') ? new CellFormula(text) : text);
      }),
    );
    this._rt().chargeCells(0, this._numRows * this._numCols);
    return this;
  }

  // ---- formats, notes, styles ----
  getNumberFormat(): string {
    return this._sheet._format(this._row, this._col) ?? DEFAULT_NUMBER_FORMAT;
  }
  getNumberFormats(): string[][] {
    return this._grid((r, c) => this._sheet._format(r, c) ?? DEFAULT_NUMBER_FORMAT);
  }
  setNumberFormat(format: string): RangeImpl {
    if (format === null || format === undefined) signatureError('SpreadsheetApp.Range.setNumberFormat');
    this._setNumberFormatQuietly(String(format));
    return this;
  }
  /** 'general' resets the format: it reads back as the default '0.###############' (§1, §14). */
  _setNumberFormatQuietly(format: string): void {
    const kept = /^general$/i.test(format) ? undefined : format;
    this._each((r, c) => this._sheet._setFormat(r, c, kept));
  }
  setNumberFormats(formats: string[][]): RangeImpl {
    const grid = this._checkGrid(formats, 'setNumberFormats');
    this._each((r, c, i, j) => {
      const format = String((grid[i] as unknown[])[j]);
      this._sheet._setFormat(r, c, /^general$/i.test(format) ? undefined : format);
    });
    return this;
  }
  getNote(): string {
    return this._sheet._note(this._row, this._col);
  }
  getNotes(): string[][] {
    return this._grid((r, c) => this._sheet._note(r, c));
  }
  setNote(note: string | null): RangeImpl {
    const text = note === null || note === undefined ? '' : String(note);
    this._each((r, c) => this._sheet._setNote(r, c, text));
    return this;
  }
  setNotes(notes: (string | null)[][]): RangeImpl {
    const grid = this._checkGrid(notes, 'setNotes');
    this._each((r, c, i, j) => {
      const v = (grid[i] as unknown[])[j];
      this._sheet._setNote(r, c, v === null || v === undefined ? '' : String(v));
    });
    return this;
  }
  clearNote(): RangeImpl {
    return this.setNote('');
  }
  private _style(key: string, value: unknown): RangeImpl {
    const v = value === null || value === undefined ? undefined : String(value);
    this._each((r, c) => this._sheet._setStyle(r, c, key, v));
    return this;
  }
  private _styles(key: string, values: unknown, method: string): RangeImpl {
    const grid = this._checkGrid(values, method);
    this._each((r, c, i, j) => {
      const v = (grid[i] as unknown[])[j];
      this._sheet._setStyle(r, c, key, v === null || v === undefined ? undefined : String(v));
    });
    return this;
  }
  private _getStyle(key: string, fallback: string): string {
    return this._sheet._styleOf(this._row, this._col)?.[key] ?? fallback;
  }
  private _getStyles(key: string, fallback: string): string[][] {
    return this._grid((r, c) => this._sheet._styleOf(r, c)?.[key] ?? fallback);
  }
  setFontWeight(weight: string | null): RangeImpl {
    return this._style('fontWeight', weight);
  }
  setFontWeights(weights: unknown[][]): RangeImpl {
    return this._styles('fontWeight', weights, 'setFontWeights');
  }
  getFontWeight(): string {
    return this._getStyle('fontWeight', 'normal');
  }
  getFontWeights(): string[][] {
    return this._getStyles('fontWeight', 'normal');
  }
  setFontStyle(style: string | null): RangeImpl {
    return this._style('fontStyle', style);
  }
  getFontStyle(): string {
    return this._getStyle('fontStyle', 'normal');
  }
  setFontColor(color: string | null): RangeImpl {
    return this._style('fontColor', color);
  }
  setFontColors(colors: unknown[][]): RangeImpl {
    return this._styles('fontColor', colors, 'setFontColors');
  }
  getFontColor(): string {
    return this._getStyle('fontColor', '#000000');
  }
  setFontSize(size: number): RangeImpl {
    return this._style('fontSize', size);
  }
  setFontFamily(family: string | null): RangeImpl {
    return this._style('fontFamily', family);
  }
  setBackground(color: string | null): RangeImpl {
    return this._style('background', color);
  }
  setBackgrounds(colors: unknown[][]): RangeImpl {
    return this._styles('background', colors, 'setBackgrounds');
  }
  getBackground(): string {
    return this._getStyle('background', '#ffffff');
  }
  getBackgrounds(): string[][] {
    return this._getStyles('background', '#ffffff');
  }
  setHorizontalAlignment(alignment: string | null): RangeImpl {
    return this._style('horizontalAlignment', alignment);
  }
  setVerticalAlignment(alignment: string | null): RangeImpl {
    return this._style('verticalAlignment', alignment);
  }
  setWrap(wrap: boolean): RangeImpl {
    return this._style('wrap', wrap);
  }
  setBorder(): RangeImpl {
    return this;
  }

  // ---- clearing, sorting, protection ----
  /** Clears the parts `clearParts` names (typed-range.ts): without options, contents and formats only. */
  clear(options?: ClearOptions): RangeImpl {
    const parts = clearParts(options);
    const skipFiltered = options?.skipFilteredRows === true;
    this._each((r, c) => {
      if (!skipFiltered || rowHiding(this._sheet, r) !== 'filter') this._sheet._clearCell(r, c, parts);
    });
    return this;
  }
  clearContent(): RangeImpl {
    return this.clear({ contentsOnly: true });
  }
  clearFormat(): RangeImpl {
    return this.clear({ formatOnly: true });
  }
  sort(spec: unknown): RangeImpl {
    const specs = (Array.isArray(spec) ? spec : [spec]).map((s) => {
      if (typeof s === 'number') return { column: s, ascending: true };
      if (s && typeof s === 'object' && typeof (s as { column?: unknown }).column === 'number') {
        const o = s as { column: number; ascending?: boolean };
        return { column: o.column, ascending: o.ascending !== false };
      }
      return signatureError('SpreadsheetApp.Range.sort');
    });
    for (const s of specs) {
      if (s.column < this._col || s.column > this.getLastColumn())
        fail(`Sort column ${s.column} is out of range.`);
    }
    this._sheet._sortBlock(this._row, this._col, this._numRows, this._numCols, specs);
    return this;
  }
  protect(): ProtectionImpl {
    const p = new ProtectionImpl(this._sheet, 'RANGE', this);
    this._sheet._protections.push(p);
    return p;
  }
  getDataRegion(): RangeImpl {
    return this._sheet.getDataRange();
  }
}

function checkCellLength(v: unknown): void {
  if (typeof v === 'string' && v.length > MAX_CELL_CHARS) {
    fail(`Your input contains more than the maximum of ${MAX_CELL_CHARS} characters in a single cell.`);
  }
}

function toScriptValue(v: Computed): string | number | boolean | Date {
  if (v === null) return '';
  if (v instanceof CellDate) return new Date(v.ms);
  return v;
}

/** Order used by sort: numbers/dates, then text, then booleans; blanks always last. */
function sortKey(v: Computed): [number, number | string] {
  if (v === null || v === '') return [9, 0];
  if (typeof v === 'number') return [0, v];
  if (v instanceof CellDate) return [0, v.ms / 86400000 + 25569];
  if (typeof v === 'string') return [1, v.toLowerCase()];
  return [2, v ? 1 : 0];
}

let nextSheetId = 1_000_000;

/** One sheet (tab). */
/**
 * A RangeList: several ranges of one sheet changed by one call (Sheet.getRangeList). Only the
 * operations the add-on uses are modelled; one call is charged however many ranges it holds.
 */
export class RangeListImpl extends GasObject {
  protected readonly _gasType = 'RangeList';
  override readonly _family = 'sheet' as const;
  constructor(readonly _ranges: RangeImpl[]) {
    super();
  }
  getRanges(): RangeImpl[] {
    return [...this._ranges];
  }
  setNumberFormat(format: string): RangeListImpl {
    if (format === null || format === undefined) signatureError('SpreadsheetApp.RangeList.setNumberFormat');
    for (const range of this._ranges) range._setNumberFormatQuietly(String(format));
    return this;
  }
}

export class SheetImpl extends GasObject {
  protected readonly _gasType = 'Sheet';
  override readonly _family = 'sheet' as const;
  _rows: (RowData | undefined)[] = [];
  _hidden = false;
  _frozenRows = 0;
  _frozenCols = 0;
  readonly _protections: ProtectionImpl[] = [];
  readonly _metadata: DeveloperMetadataImpl[] = [];
  private _evalDepth = 0;

  constructor(
    readonly _ss: SpreadsheetImpl,
    readonly _id: number,
    public _name: string,
    public _maxRows: number,
    public _maxCols: number,
  ) {
    super();
  }

  // ---- internal cell access (1-based) ----
  _cell(r: number, c: number): CellValue {
    return this._rows[r - 1]?.v[c - 1] ?? null;
  }
  _computed(r: number, c: number): Computed {
    const v = this._cell(r, c);
    if (!(v instanceof CellFormula)) return v;
    if (this._evalDepth > 64) return '#REF!';
    this._evalDepth++;
    try {
      return evaluateFormula(v.text, (rr, cc) => this._computed(rr, cc));
    } finally {
      this._evalDepth--;
    }
  }
  _display(r: number, c: number): string {
    return displayValue(this._computed(r, c), this._format(r, c), this._ss._timeZone);
  }
  /** What getValues returns: a number under a date/time format reads back as a Date (§12). */
  _scriptValue(r: number, c: number): string | number | boolean | Date {
    const value = this._computed(r, c);
    if (typeof value === 'number' && isDateTimeFormat(this._format(r, c)))
      return new Date(serialToEpoch(value, this._ss._timeZone));
    return toScriptValue(value);
  }

  _format(r: number, c: number): string | undefined {
    return this._rows[r - 1]?.f?.[c - 1];
  }
  _note(r: number, c: number): string {
    return this._rows[r - 1]?.n?.[c - 1] ?? '';
  }
  _styleOf(r: number, c: number): Style | undefined {
    return this._rows[r - 1]?.s?.[c - 1];
  }
  private _row(r: number): RowData {
    let row = this._rows[r - 1];
    if (!row) {
      row = { v: [] };
      this._rows[r - 1] = row;
    }
    return row;
  }
  _set(r: number, c: number, v: CellValue): void {
    if (v === null && !this._rows[r - 1]) return;
    this._row(r).v[c - 1] = v;
  }
  _setFormat(r: number, c: number, f: string | undefined): void {
    const row = this._row(r);
    if (!row.f) row.f = [];
    row.f[c - 1] = f;
  }
  _setNote(r: number, c: number, note: string): void {
    if (note === '' && !this._rows[r - 1]?.n) return;
    const row = this._row(r);
    if (!row.n) row.n = [];
    row.n[c - 1] = note === '' ? undefined : note;
  }
  _setStyle(r: number, c: number, key: string, value: string | undefined): void {
    const row = this._row(r);
    if (!row.s) row.s = [];
    const style = { ...(row.s[c - 1] ?? {}) };
    if (value === undefined) delete style[key];
    else style[key] = value;
    row.s[c - 1] = style;
  }
  _clearCell(
    r: number,
    c: number,
    parts: { contents: boolean; formats: boolean; notes: boolean; validations: boolean },
  ): void {
    const row = this._rows[r - 1];
    if (!row) return;
    if (parts.contents) row.v[c - 1] = null;
    if (parts.formats) {
      if (row.f) row.f[c - 1] = undefined;
      if (row.s) row.s[c - 1] = undefined;
    }
    if (parts.notes && row.n) row.n[c - 1] = undefined;
    if (parts.validations && row.d) row.d[c - 1] = undefined;
  }

  /** Writes a script/person value with §1 parsing (plain-text `@` cells keep strings literally). */
  _write(r: number, c: number, input: unknown): void {
    if (input === null || input === undefined) {
      this._set(r, c, null);
      return;
    }
    if (typeof input === 'number' || typeof input === 'boolean') {
      this._set(r, c, typeof input === 'number' ? this._ss._keepDigits(input) : input);
      return;
    }
    if (isDate(input)) {
      const ms = (input as Date).getTime();
      this._set(r, c, Number.isNaN(ms) ? '#NUM!' : new CellDate(ms));
      return;
    }
    const text = typeof input === 'string' ? input : String(input);
    const format = this._format(r, c);
    if (format === PLAIN_TEXT) {
      // §1: in a plain-text cell every string stays literal — also `=...`; the stricter reading keeps a
      // leading apostrophe as a character.
      this._set(r, c, text === '' ? null : text);
      return;
    }
    const parsed = parseTyped(text, this._ss._timeZone);
    this._set(r, c, typeof parsed.value === 'number' ? this._ss._keepDigits(parsed.value) : parsed.value);
    // A date typed into a number cell gives it a date format (§12); other automatic formats only
    // apply to cells without a format of their own.
    const becomesDate = parsed.value instanceof CellDate && !isDateTimeFormat(format);
    if (parsed.autoFormat && (format === undefined || format === DEFAULT_NUMBER_FORMAT || becomesDate))
      this._setFormat(r, c, parsed.autoFormat);
  }

  _cellRecord(r: number, c: number): CellRecord {
    const row = this._rows[r - 1];
    const rec: CellRecord = {
      v: row?.v[c - 1] ?? null,
      f: row?.f?.[c - 1],
      n: row?.n?.[c - 1],
      s: row?.s?.[c - 1],
    };
    if (row?.d?.[c - 1]) rec.d = row.d[c - 1];
    return rec;
  }
  _putRecord(r: number, c: number, rec: CellRecord): void {
    if (
      rec.v === null &&
      rec.f === undefined &&
      rec.n === undefined &&
      rec.s === undefined &&
      rec.d === undefined &&
      !this._rows[r - 1]
    )
      return;
    const row = this._row(r);
    row.v[c - 1] = rec.v;
    if (rec.f !== undefined || row.f) {
      row.f ??= [];
      row.f[c - 1] = rec.f;
    }
    if (rec.n !== undefined || row.n) {
      row.n ??= [];
      row.n[c - 1] = rec.n;
    }
    if (rec.s !== undefined || row.s) {
      row.s ??= [];
      row.s[c - 1] = rec.s;
    }
    if (rec.d !== undefined || row.d) {
      row.d ??= [];
      row.d[c - 1] = rec.d;
    }
  }
  _sortBlock(
    row: number,
    col: number,
    numRows: number,
    numCols: number,
    specs: { column: number; ascending: boolean }[],
  ): void {
    const lines: { key: Computed[]; cells: CellRecord[] }[] = [];
    for (let i = 0; i < numRows; i++) {
      const cells: CellRecord[] = [];
      for (let j = 0; j < numCols; j++) cells.push(this._cellRecord(row + i, col + j));
      lines.push({ key: specs.map((s) => this._computed(row + i, s.column)), cells });
    }
    lines.sort((a, b) => {
      for (let k = 0; k < specs.length; k++) {
        const [ga, va] = sortKey(a.key[k] as Computed);
        const [gb, vb] = sortKey(b.key[k] as Computed);
        if (ga === 9 || gb === 9) {
          if (ga !== gb) return ga === 9 ? 1 : -1;
          continue;
        }
        let d = ga - gb;
        if (d === 0)
          d =
            typeof va === 'number' && typeof vb === 'number' ? va - vb : String(va).localeCompare(String(vb));
        if (d !== 0) return (specs[k] as { ascending: boolean }).ascending ? d : -d;
      }
      return 0;
    });
    lines.forEach((line, i) => {
      line.cells.forEach((rec, j) => {
        this._putRecord(row + i, col + j, rec);
      });
    });
  }

  private _checkBounds(row: number, col: number, numRows: number, numCols: number): void {
    if (
      !Number.isInteger(row) ||
      !Number.isInteger(col) ||
      !Number.isInteger(numRows) ||
      !Number.isInteger(numCols)
    ) {
      signatureError('SpreadsheetApp.Sheet.getRange');
    }
    if (row < 1) fail('The starting row of the range is too small.');
    if (col < 1) fail('The starting column of the range is too small.');
    if (numRows < 1) fail('The number of rows in the range must be at least 1.');
    if (numCols < 1) fail('The number of columns in the range must be at least 1.');
    if (row + numRows - 1 > this._maxRows || col + numCols - 1 > this._maxCols) {
      fail('The coordinates of the range are outside the dimensions of the sheet.');
    }
  }

  /** Resolves an A1 reference against this sheet. */
  _rangeFromA1(a1: string): RangeImpl {
    const ref = parseA1(a1);
    if (!ref) return fail('Range not found');
    const row = ref.row ?? 1;
    const col = ref.col ?? 1;
    const endRow = ref.endRow ?? this._maxRows;
    const endCol = ref.endCol ?? this._maxCols;
    const r1 = Math.min(row, endRow);
    const c1 = Math.min(col, endCol);
    const nr = Math.abs(endRow - row) + 1;
    const nc = Math.abs(endCol - col) + 1;
    this._checkBounds(r1, c1, nr, nc);
    const range = new RangeImpl(this, r1, c1, nr, nc);
    range._sizedByGrid = ref.endRow === undefined || ref.endCol === undefined;
    return range;
  }

  // ---- public Sheet API ----
  getRange(a: number | string, column?: number, numRows?: number, numColumns?: number): RangeImpl {
    if (typeof a === 'string') return this._rangeFromA1(a);
    if (typeof a !== 'number' || typeof column !== 'number')
      return signatureError('SpreadsheetApp.Sheet.getRange');
    const nr = numRows ?? 1;
    const nc = numColumns ?? 1;
    this._checkBounds(a, column, nr, nc);
    return new RangeImpl(this, a, column, nr, nc);
  }
  getRangeList(a1Notations: string[]): RangeListImpl {
    if (!Array.isArray(a1Notations) || a1Notations.length === 0)
      return signatureError('SpreadsheetApp.Sheet.getRangeList');
    return new RangeListImpl(a1Notations.map((a1) => this._rangeFromA1(String(a1))));
  }
  getSheetId(): number {
    return this._id;
  }
  getName(): string {
    return this._name;
  }
  getSheetName(): string {
    return this._name;
  }
  setName(name: string): SheetImpl {
    const n = String(name);
    if (n.trim() === '') fail('Sheet names cannot be empty.');
    const other = this._ss._sheets.find((s) => s !== this && s._name.toLowerCase() === n.toLowerCase());
    if (other) fail(`A sheet with the name "${n}" already exists. Please enter another name.`);
    this._name = n;
    return this;
  }
  getParent(): SpreadsheetImpl {
    return this._ss;
  }
  getIndex(): number {
    return this._ss._sheets.indexOf(this) + 1;
  }
  activate(): SheetImpl {
    this._ss._active = this;
    return this;
  }
  isSheetHidden(): boolean {
    return this._hidden;
  }
  hideSheet(): SheetImpl {
    if (this._ss._sheets.filter((s) => !s._hidden && s !== this).length === 0)
      fail("You can't hide all the sheets in a document.");
    this._hidden = true;
    return this;
  }
  showSheet(): SheetImpl {
    this._hidden = false;
    return this;
  }
  getMaxRows(): number {
    return this._maxRows;
  }
  getMaxColumns(): number {
    return this._maxCols;
  }
  getLastRow(): number {
    for (let i = Math.min(this._rows.length, this._maxRows) - 1; i >= 0; i--) {
      const row = this._rows[i];
      if (row?.v.some((v) => v !== null && v !== undefined)) return i + 1;
    }
    return 0;
  }
  getLastColumn(): number {
    let last = 0;
    for (const row of this._rows) {
      if (!row) continue;
      for (let j = row.v.length - 1; j >= last; j--) {
        const v = row.v[j];
        if (v !== null && v !== undefined) {
          last = j + 1;
          break;
        }
      }
    }
    return last;
  }
  getDataRange(): RangeImpl {
    return new RangeImpl(this, 1, 1, Math.max(1, this.getLastRow()), Math.max(1, this.getLastColumn()));
  }
  /**
   * The values of a block from (startRow, startColumn); -1 as a count runs to the last row or column
   * with content, in one waiting call (reference: Sheet.getSheetValues). On a sheet with no content a
   * -1 count leaves no cell: it throws as a range of no rows does (UNCONFIRMED; the stricter reading,
   * docs/apps-script-facts.md).
   */
  getSheetValues(
    startRow: number,
    startColumn: number,
    numRows: number,
    numColumns: number,
  ): (string | number | boolean | Date)[][] {
    const rows = numRows === -1 ? this.getLastRow() - startRow + 1 : numRows;
    const columns = numColumns === -1 ? this.getLastColumn() - startColumn + 1 : numColumns;
    if (rows < 1) fail('The number of rows in the range must be at least 1.');
    if (columns < 1) fail('The number of columns in the range must be at least 1.');
    return this.getRange(startRow, startColumn, rows, columns).getValues();
  }
  getFrozenRows(): number {
    return this._frozenRows;
  }
  setFrozenRows(rows: number): void {
    if (rows < 0 || rows >= this._maxRows) fail("You can't freeze all visible rows on the sheet.");
    this._frozenRows = rows;
  }
  getFrozenColumns(): number {
    return this._frozenCols;
  }
  setFrozenColumns(columns: number): void {
    if (columns < 0 || columns >= this._maxCols) fail("You can't freeze all visible columns on the sheet.");
    this._frozenCols = columns;
  }

  insertRowsAfter(afterPosition: number, howMany: number): SheetImpl {
    this._ss._checkGrowth(howMany * this._maxCols);
    if (afterPosition < 0 || afterPosition > this._maxRows) fail('Those rows are out of bounds.');
    if (this._rows.length > afterPosition)
      this._rows.splice(afterPosition, 0, ...new Array<RowData | undefined>(howMany));
    this._maxRows += howMany;
    return this;
  }
  insertRowsBefore(beforePosition: number, howMany: number): SheetImpl {
    return this.insertRowsAfter(beforePosition - 1, howMany);
  }
  insertRowAfter(afterPosition: number): SheetImpl {
    return this.insertRowsAfter(afterPosition, 1);
  }
  insertRowBefore(beforePosition: number): SheetImpl {
    return this.insertRowsAfter(beforePosition - 1, 1);
  }
  insertRows(rowIndex: number, numRows = 1): void {
    this.insertRowsAfter(rowIndex - 1, numRows);
  }
  deleteRows(rowPosition: number, howMany: number): void {
    if (rowPosition < 1 || howMany < 1 || rowPosition + howMany - 1 > this._maxRows)
      fail('Those rows are out of bounds.');
    if (this._maxRows - howMany <= this._frozenRows)
      fail('Sorry, it is not possible to delete all non-frozen rows.');
    if (this._rows.length >= rowPosition) this._rows.splice(rowPosition - 1, howMany);
    this._maxRows -= howMany;
  }
  deleteRow(rowPosition: number): SheetImpl {
    this.deleteRows(rowPosition, 1);
    return this;
  }
  insertColumnsAfter(afterPosition: number, howMany: number): SheetImpl {
    this._ss._checkGrowth(howMany * this._maxRows);
    if (this._maxCols + howMany > MAX_COLUMNS)
      fail(
        `This action would increase the number of columns in the sheet above the limit of ${MAX_COLUMNS}.`,
      );
    if (afterPosition < 0 || afterPosition > this._maxCols) fail('Those columns are out of bounds.');
    const blanks = new Array(howMany);
    for (const row of this._rows) {
      if (!row) continue;
      for (const arr of [row.v, row.f, row.n, row.s, row.d])
        if (arr && arr.length > afterPosition) arr.splice(afterPosition, 0, ...blanks);
    }
    this._maxCols += howMany;
    return this;
  }
  insertColumnsBefore(beforePosition: number, howMany: number): SheetImpl {
    return this.insertColumnsAfter(beforePosition - 1, howMany);
  }
  insertColumnAfter(afterPosition: number): SheetImpl {
    return this.insertColumnsAfter(afterPosition, 1);
  }
  insertColumnBefore(beforePosition: number): SheetImpl {
    return this.insertColumnsAfter(beforePosition - 1, 1);
  }
  insertColumns(columnIndex: number, numColumns = 1): void {
    this.insertColumnsAfter(columnIndex - 1, numColumns);
  }
  deleteColumns(columnPosition: number, howMany: number): void {
    if (columnPosition < 1 || howMany < 1 || columnPosition + howMany - 1 > this._maxCols)
      fail('Those columns are out of bounds.');
    if (this._maxCols - howMany <= this._frozenCols)
      fail('Sorry, it is not possible to delete all non-frozen columns.');
    for (const row of this._rows) {
      if (!row) continue;
      for (const arr of [row.v, row.f, row.n, row.s, row.d]) if (arr) arr.splice(columnPosition - 1, howMany);
    }
    this._maxCols -= howMany;
  }
  deleteColumn(columnPosition: number): SheetImpl {
    this.deleteColumns(columnPosition, 1);
    return this;
  }
  appendRow(rowContents: unknown[]): SheetImpl {
    if (!Array.isArray(rowContents)) return signatureError('SpreadsheetApp.Sheet.appendRow');
    for (const v of rowContents) checkCellLength(v);
    const target = this.getLastRow() + 1;
    if (target > this._maxRows) this.insertRowsAfter(this._maxRows, 1);
    if (rowContents.length > this._maxCols)
      this.insertColumnsAfter(this._maxCols, rowContents.length - this._maxCols);
    guardRules(this, target, 1, 1, Math.max(1, rowContents.length), () =>
      rowContents.forEach((v, j) => {
        this._write(target, j + 1, v);
      }),
    );
    this._ss._rt.chargeCells(0, rowContents.length);
    return this;
  }
  /**
   * Contents and formats, or the part an option names; notes and data validation stay (§14: a sheet
   * "replaced" by clear() keeps an earlier link's header notes and rules). The rows stay too.
   */
  clear(options?: { contentsOnly?: boolean; formatOnly?: boolean }): SheetImpl {
    const contents = !options?.formatOnly || options.contentsOnly === true;
    const formats = !options?.contentsOnly || options.formatOnly === true;
    const parts = { contents, formats, notes: false, validations: false };
    this._rows.forEach((row, i) => {
      if (row) for (let c = 1; c <= this._maxCols; c++) this._clearCell(i + 1, c, parts);
    });
    return this;
  }
  clearContents(): SheetImpl {
    for (const row of this._rows) if (row) row.v = [];
    return this;
  }
  clearFormats(): SheetImpl {
    for (const row of this._rows) {
      if (!row) continue;
      delete row.f;
      delete row.s;
    }
    return this;
  }
  clearNotes(): SheetImpl {
    for (const row of this._rows) if (row) delete row.n;
    return this;
  }
  sort(columnPosition: number, ascending = true): SheetImpl {
    const first = this._frozenRows + 1;
    const last = this.getLastRow();
    if (last >= first)
      this._sortBlock(first, 1, last - first + 1, Math.max(1, this.getLastColumn()), [
        { column: columnPosition, ascending },
      ]);
    return this;
  }
  protect(): ProtectionImpl {
    const existing = this._protections.find((p) => p._type === 'SHEET');
    if (existing) return existing;
    const p = new ProtectionImpl(this, 'SHEET', new RangeImpl(this, 1, 1, this._maxRows, this._maxCols));
    this._protections.push(p);
    return p;
  }
  getProtections(type: string): ProtectionImpl[] {
    return this._protections.filter((p) => p._type === String(type));
  }
  setColumnWidth(): SheetImpl {
    return this;
  }
  setColumnWidths(): SheetImpl {
    return this;
  }
  autoResizeColumns(): SheetImpl {
    return this;
  }
  autoResizeColumn(): SheetImpl {
    return this;
  }
  setTabColor(): SheetImpl {
    return this;
  }
  getDeveloperMetadata(): DeveloperMetadataImpl[] {
    return [...this._metadata];
  }
  addDeveloperMetadata(key: string, value?: string, visibility?: string): SheetImpl {
    this._metadata.push(
      newDeveloperMetadata(
        this,
        String(key),
        value === undefined ? null : String(value),
        visibility ?? 'DOCUMENT',
      ),
    );
    return this;
  }
}

/** A serializable picture of one sheet for the demo grid and tests. Dates are ISO strings. */
export interface SheetSnapshot {
  name: string;
  id: number;
  hidden: boolean;
  frozenRows: number;
  maxRows: number;
  maxColumns: number;
  rows: string[][];
  values: (string | number | boolean | null)[][];
  formulas: string[][];
  formats: (string | null)[][];
  notes: string[][];
}

/** The one spreadsheet a bound script or add-on sees. */
export class SpreadsheetImpl extends GasObject {
  protected readonly _gasType = 'Spreadsheet';
  override readonly _family = 'sheet' as const;
  readonly _sheets: SheetImpl[] = [];
  readonly _metadata: DeveloperMetadataImpl[] = [];
  _active: SheetImpl;
  _locale = 'en_US';

  constructor(
    readonly _rt: Runtime,
    readonly _id: string,
    private _name: string,
    public _timeZone: string,
  ) {
    super();
    const first = new SheetImpl(this, 0, 'Sheet1', 1000, 26);
    this._sheets.push(first);
    this._active = first;
  }

  _totalCells(): number {
    return this._sheets.reduce((n, s) => n + s._maxRows * s._maxCols, 0);
  }
  /** Enforces the 10,000,000-cell workbook cap (§3). */
  _checkGrowth(extraCells: number): void {
    if (this._totalCells() + extraCells > MAX_CELLS) {
      fail(
        `This action would increase the number of cells in the workbook above the limit of ${MAX_CELLS} cells.`,
      );
    }
  }
  _sheet(idOrName: number | string): SheetImpl {
    const s =
      typeof idOrName === 'number'
        ? this._sheets.find((x) => x._id === idOrName)
        : this._sheets.find((x) => x._name === idOrName);
    if (!s) throw new Error(`No sheet ${idOrName}`);
    return s;
  }

  getId(): string {
    return this._id;
  }
  getName(): string {
    return this._name;
  }
  rename(name: string): void {
    this._name = String(name);
  }
  getUrl(): string {
    return `https://docs.google.com/spreadsheets/d/${this._id}/edit`;
  }
  getSheets(): SheetImpl[] {
    return [...this._sheets];
  }
  getNumSheets(): number {
    return this._sheets.length;
  }
  getSheetByName(name: string): SheetImpl | null {
    return this._sheets.find((s) => s._name === String(name)) ?? null;
  }
  getSheetById(id: number): SheetImpl | null {
    return this._sheets.find((s) => s._id === id) ?? null;
  }
  getActiveSheet(): SheetImpl {
    return this._active;
  }
  setActiveSheet(sheet: SheetImpl): SheetImpl {
    if (!(sheet instanceof SheetImpl) || sheet._ss !== this)
      return signatureError('SpreadsheetApp.Spreadsheet.setActiveSheet');
    this._active = sheet;
    return sheet;
  }
  getActiveRange(): RangeImpl {
    return this._active.getRange(1, 1);
  }
  insertSheet(a?: string | number, b?: number): SheetImpl {
    let name: string | undefined;
    let index: number | undefined;
    if (typeof a === 'string') {
      name = a;
      if (typeof b === 'number') index = b;
    } else if (typeof a === 'number') index = a;
    if (name === undefined) {
      let n = this._sheets.length + 1;
      while (this.getSheetByName(`Sheet${n}`)) n++;
      name = `Sheet${n}`;
    }
    if (this._sheets.some((s) => s._name.toLowerCase() === (name as string).toLowerCase())) {
      fail(`A sheet with the name "${name}" already exists. Please enter another name.`);
    }
    this._checkGrowth(1000 * 26);
    const sheet = new SheetImpl(this, nextSheetId, name, 1000, 26);
    nextSheetId += 7919 * 131;
    nextSheetId %= 2_000_000_000;
    const at = index === undefined ? this._sheets.length : Math.max(0, Math.min(index, this._sheets.length));
    this._sheets.splice(at, 0, sheet);
    this._active = sheet;
    return sheet;
  }
  deleteSheet(sheet: SheetImpl): void {
    if (!(sheet instanceof SheetImpl)) signatureError('SpreadsheetApp.Spreadsheet.deleteSheet');
    const i = this._sheets.indexOf(sheet);
    if (i < 0) fail('Sheet not found');
    if (this._sheets.length === 1) fail("You can't remove all the sheets in a document.");
    this._sheets.splice(i, 1);
    if (this._active === sheet) this._active = this._sheets[0] as SheetImpl;
  }
  /** Significant digits a number cell keeps (undefined: the full double). See `cellSignificantDigits`. */
  _significantDigits: number | undefined;
  _keepDigits(n: number): number {
    const digits = this._significantDigits;
    return digits === undefined || !Number.isFinite(n) || n === 0 ? n : Number(n.toPrecision(digits));
  }
  getSpreadsheetTimeZone(): string {
    return this._timeZone;
  }
  setSpreadsheetTimeZone(timeZone: string): void {
    this._timeZone = String(timeZone);
  }
  getSpreadsheetLocale(): string {
    return this._locale;
  }
  setSpreadsheetLocale(locale: string): void {
    this._locale = String(locale);
  }
  toast(msg: string, title?: string, _timeoutSeconds?: number): void {
    this._rt.ui.toasts.push({
      msg: String(msg),
      title: title === undefined ? '' : String(title),
      at: this._rt.clock.now(),
    });
  }
  getRange(a1: string): RangeImpl {
    const ref = parseA1(String(a1));
    if (!ref) return fail('Range not found');
    const sheet = ref.sheetName === undefined ? this._active : this.getSheetByName(ref.sheetName);
    if (!sheet) return fail('Range not found');
    const local = String(a1).slice(String(a1).lastIndexOf('!') + 1);
    return sheet._rangeFromA1(local);
  }
  getDeveloperMetadata(): DeveloperMetadataImpl[] {
    return [...this._metadata];
  }
  addDeveloperMetadata(key: string, value?: string, visibility?: string): SpreadsheetImpl {
    this._metadata.push(
      newDeveloperMetadata(
        this,
        String(key),
        value === undefined ? null : String(value),
        visibility ?? 'DOCUMENT',
      ),
    );
    return this;
  }

  /** Snapshot for tests and the demo (not an Apps Script method). */
  _snapshot(idOrName: number | string): SheetSnapshot {
    const s = this._sheet(idOrName);
    const lastRow = s.getLastRow();
    const lastCol = s.getLastColumn();
    const rows: string[][] = [];
    const values: (string | number | boolean | null)[][] = [];
    const formulas: string[][] = [];
    const formats: (string | null)[][] = [];
    const notes: string[][] = [];
    for (let r = 1; r <= lastRow; r++) {
      const d: string[] = [];
      const v: (string | number | boolean | null)[] = [];
      const fo: string[] = [];
      const f: (string | null)[] = [];
      const n: string[] = [];
      for (let c = 1; c <= lastCol; c++) {
        d.push(s._display(r, c));
        const cv = s._computed(r, c);
        v.push(cv instanceof CellDate ? new Date(cv.ms).toISOString() : cv);
        const raw = s._cell(r, c);
        fo.push(raw instanceof CellFormula ? raw.text : '');
        f.push(s._format(r, c) ?? null);
        n.push(s._note(r, c));
      }
      rows.push(d);
      values.push(v);
      formulas.push(fo);
      formats.push(f);
      notes.push(n);
    }
    return {
      name: s._name,
      id: s._id,
      hidden: s._hidden,
      frozenRows: s._frozenRows,
      maxRows: s._maxRows,
      maxColumns: s._maxCols,
      rows,
      values,
      formulas,
      formats,
      notes,
    };
  }
}

/** The SpreadsheetApp service of a bound script. */
export class SpreadsheetAppService extends GasObject {
  protected readonly _gasType = 'SpreadsheetApp';
  override readonly _family = 'sheet' as const;
  readonly ProtectionType = { RANGE: 'RANGE', SHEET: 'SHEET' };
  readonly DataValidationCriteria = DATA_VALIDATION_CRITERIA;
  readonly RelativeDate = RELATIVE_DATE;
  readonly DeveloperMetadataVisibility = { DOCUMENT: 'DOCUMENT', PROJECT: 'PROJECT' };
  readonly BorderStyle = { SOLID: 'SOLID', DOTTED: 'DOTTED', DASHED: 'DASHED' };
  constructor(
    private readonly _rt: Runtime,
    private readonly _ss: SpreadsheetImpl,
    private readonly _ui: () => GasObject,
  ) {
    super();
  }
  private _doc(): SpreadsheetImpl {
    // §6/§10.6: in AuthMode.NONE the add-on may build menus but not read the document.
    this._rt.requireAuth(
      'SpreadsheetApp.getActiveSpreadsheet',
      'https://www.googleapis.com/auth/spreadsheets.currentonly',
      'LIMITED',
    );
    return this._ss;
  }
  getActive(): SpreadsheetImpl {
    return this._doc();
  }
  getActiveSpreadsheet(): SpreadsheetImpl {
    return this._doc();
  }
  getActiveSheet(): SheetImpl {
    return this._doc()._active;
  }
  getActiveRange(): RangeImpl {
    return this._doc().getActiveRange();
  }
  setActiveSheet(sheet: SheetImpl): SheetImpl {
    return this._doc().setActiveSheet(sheet);
  }
  getUi(): GasObject {
    const exec = this._rt.current();
    if (exec && exec.kind === 'trigger') fail('Cannot call SpreadsheetApp.getUi() from this context.');
    return this._ui();
  }
  flush(): void {}
  newDataValidation(): DataValidationBuilderImpl {
    return new DataValidationBuilderImpl();
  }
  openById(): never {
    return fail(
      'You do not have permission to call SpreadsheetApp.openById. Required permissions: https://www.googleapis.com/auth/spreadsheets',
    );
  }
}

/** Copies the methods of classes kept in their own files (typed cells, finding, protections) onto `to`. */
function mixMethods(to: { prototype: object }, ...from: { prototype: object }[]): void {
  for (const source of from)
    for (const name of Object.getOwnPropertyNames(source.prototype))
      if (name !== 'constructor')
        Object.defineProperty(
          to.prototype,
          name,
          Object.getOwnPropertyDescriptor(source.prototype, name) as PropertyDescriptor,
        );
}
mixMethods(RangeImpl, RangeTypedCells, RangeFinding);
mixMethods(SheetImpl, SheetFinding, SheetRowHiding);
mixMethods(SpreadsheetImpl, SpreadsheetFinding, SpreadsheetProtections);
