// Typed cells on a Range (apps-script-facts.md §14): data validation rules stored per cell (they move
// with the cell: sort, paste, fill, moved columns), rejecting rules refusing script writes, warning
// rules marking cells invalid, and checkboxes. Installed on RangeImpl by spreadsheet.ts.
import { columnToLetters } from './a1';
import { checkSettable, DataValidationImpl, meetsRule, type PersonRule, personRule } from './data-validation';
import { GasError } from './realm';
import type { CellRecord, RangeImpl, SheetImpl } from './spreadsheet';

/** Range#clear's advanced options (reference: Range#clear(Object)). */
export interface ClearOptions {
  commentsOnly?: boolean;
  contentsOnly?: boolean;
  formatOnly?: boolean;
  validationsOnly?: boolean;
  skipFilteredRows?: boolean;
}

/**
 * What Range#clear clears: without options, contents and formats (reference: "Clears the range of
 * contents and formats"; notes and data validation stay, §14); with options, the parts whose `…Only`
 * flag is set, and everything when none is ("By default all data is cleared"). Comments are the
 * cells' notes here (the simulator has no threaded comments).
 */
export function clearParts(options?: ClearOptions): {
  contents: boolean;
  formats: boolean;
  notes: boolean;
  validations: boolean;
} {
  if (!options) return { contents: true, formats: true, notes: false, validations: false };
  const only = {
    contents: options.contentsOnly === true,
    formats: options.formatOnly === true,
    notes: options.commentsOnly === true,
    validations: options.validationsOnly === true,
  };
  const any = only.contents || only.formats || only.notes || only.validations;
  return any ? only : { contents: true, formats: true, notes: true, validations: true };
}

/** The rule stored on cell (r, c), if any. */
export function ruleAt(sheet: SheetImpl, r: number, c: number): DataValidationImpl | undefined {
  return sheet._rows[r - 1]?.d?.[c - 1];
}

/** Stores (or, with undefined, removes) the rule of cell (r, c). */
export function setRuleAt(
  sheet: SheetImpl,
  r: number,
  c: number,
  rule: DataValidationImpl | undefined,
): void {
  const existing = sheet._rows[r - 1];
  if (rule === undefined && !existing?.d) return;
  const row = existing ?? { v: [] };
  sheet._rows[r - 1] = row;
  row.d ??= [];
  row.d[c - 1] = rule;
}

function nowOf(sheet: SheetImpl): number {
  return sheet._ss._rt.clock.now();
}

function hasRejectingRule(sheet: SheetImpl, row: number, col: number, rows: number, cols: number): boolean {
  for (let r = row; r < row + rows; r++) {
    const rules = sheet._rows[r - 1]?.d;
    if (!rules) continue;
    for (let c = col; c < col + cols; c++)
      if (rules[c - 1] && !rules[c - 1]?._settings.allowInvalid) return true;
  }
  return false;
}

/**
 * Runs a write (a script's, or a person's typing) of a block. A rule that rejects (allowInvalid false)
 * and a written value that breaks it undo the whole write and throw Sheets' message for the first such
 * cell, row by row (§14: "The data you entered in cell X violates the data validation rules set on this
 * cell."). Some projects saw it only at the next read or flush; the simulator throws at the write,
 * the stricter reading.
 */
export function guardRules(
  sheet: SheetImpl,
  row: number,
  col: number,
  rows: number,
  cols: number,
  write: () => void,
): void {
  if (!hasRejectingRule(sheet, row, col, rows, cols)) {
    write();
    return;
  }
  const saved: CellRecord[] = [];
  for (let r = row; r < row + rows; r++)
    for (let c = col; c < col + cols; c++) saved.push(sheet._cellRecord(r, c));
  write();
  const now = nowOf(sheet);
  for (let r = row; r < row + rows; r++)
    for (let c = col; c < col + cols; c++) {
      const rule = ruleAt(sheet, r, c);
      if (!rule || rule._settings.allowInvalid || meetsRule(rule, sheet, r, c, now)) continue;
      let k = 0;
      for (let rr = row; rr < row + rows; rr++)
        for (let cc = col; cc < col + cols; cc++) sheet._putRecord(rr, cc, saved[k++] as CellRecord);
      throw new GasError(
        `The data you entered in cell ${columnToLetters(c)}${r} violates the data validation rules set on this cell.`,
      );
    }
}

function eachCell(range: RangeImpl, fn: (r: number, c: number, i: number, j: number) => void): void {
  for (let i = 0; i < range._numRows; i++)
    for (let j = 0; j < range._numCols; j++) fn(range._row + i, range._col + j, i, j);
}

function checkRule(rule: unknown, method: string): DataValidationImpl | undefined {
  if (rule === null) return undefined;
  if (!(rule instanceof DataValidationImpl))
    throw new GasError(
      `The parameters (${String(rule)}) don't match the method signature for SpreadsheetApp.Range.${method}.`,
    );
  checkSettable(rule);
  return rule;
}

/** The checkbox rule of a cell and its checked and unchecked values, if it has one. */
function checkboxOf(
  sheet: SheetImpl,
  r: number,
  c: number,
): { checked: unknown; unchecked: unknown } | undefined {
  const rule = ruleAt(sheet, r, c);
  if (rule?._settings.criteria !== 'CHECKBOX') return undefined;
  const [checked, unchecked] = rule._settings.args;
  if (checked === undefined) return { checked: true, unchecked: false };
  return { checked, unchecked: unchecked ?? '' };
}

/** Range methods of typed cells (reference: Range#setDataValidation … #isChecked). */
export class RangeTypedCells {
  setDataValidation(this: RangeImpl, rule: DataValidationImpl | null): RangeImpl {
    const checked = checkRule(rule, 'setDataValidation');
    eachCell(this, (r, c) => setRuleAt(this._sheet, r, c, checked));
    this._sheet._ss._rt.chargeCells(0, this._numRows * this._numCols);
    return this;
  }
  setDataValidations(this: RangeImpl, rules: (DataValidationImpl | null)[][]): RangeImpl {
    const grid = sizedGrid(this, rules, 'setDataValidations');
    const checked = grid.map((line) => line.map((rule) => checkRule(rule, 'setDataValidations')));
    eachCell(this, (r, c, i, j) => setRuleAt(this._sheet, r, c, checked[i]?.[j]));
    this._sheet._ss._rt.chargeCells(0, this._numRows * this._numCols);
    return this;
  }
  getDataValidation(this: RangeImpl): DataValidationImpl | null {
    this._sheet._ss._rt.chargeCells(1, 0);
    return ruleAt(this._sheet, this._row, this._col) ?? null;
  }
  getDataValidations(this: RangeImpl): (DataValidationImpl | null)[][] {
    this._sheet._ss._rt.chargeCells(this._numRows * this._numCols, 0);
    const out: (DataValidationImpl | null)[][] = [];
    eachCell(this, (r, c, i) => {
      out[i] ??= [];
      (out[i] as (DataValidationImpl | null)[]).push(ruleAt(this._sheet, r, c) ?? null);
    });
    return out;
  }
  clearDataValidations(this: RangeImpl): RangeImpl {
    eachCell(this, (r, c) => setRuleAt(this._sheet, r, c, undefined));
    return this;
  }
  /**
   * Checkboxes in every cell, every value set to the unchecked one (§14: false; "" when only a checked
   * value is given). Whether an inserted checkbox rejects other input is UNCONFIRMED: it rejects here,
   * the stricter reading.
   */
  insertCheckboxes(this: RangeImpl, checkedValue?: unknown, uncheckedValue?: unknown): RangeImpl {
    const args = [checkedValue, uncheckedValue].filter((v) => v !== undefined);
    const rule = new DataValidationImpl({
      criteria: 'CHECKBOX',
      args,
      allowInvalid: false,
      helpText: null,
      multiple: false,
    });
    const unchecked = args.length === 0 ? false : args.length === 1 ? '' : uncheckedValue;
    eachCell(this, (r, c) => {
      setRuleAt(this._sheet, r, c, rule);
      this._sheet._write(r, c, unchecked);
    });
    this._sheet._ss._rt.chargeCells(0, this._numRows * this._numCols);
    return this;
  }
  /** Removes checkbox rules; a cell holding its checked or unchecked value is cleared too. */
  removeCheckboxes(this: RangeImpl): RangeImpl {
    eachCell(this, (r, c) => {
      const box = checkboxOf(this._sheet, r, c);
      if (!box) return;
      const value = this._sheet._scriptValue(r, c);
      if (value === box.checked || value === box.unchecked) this._sheet._set(r, c, null);
      setRuleAt(this._sheet, r, c, undefined);
    });
    return this;
  }
  check(this: RangeImpl): RangeImpl {
    return setBoxes(this, true);
  }
  uncheck(this: RangeImpl): RangeImpl {
    return setBoxes(this, false);
  }
  /** True when every cell is a checked checkbox, false when every one is unchecked, else null. */
  isChecked(this: RangeImpl): boolean | null {
    this._sheet._ss._rt.chargeCells(this._numRows * this._numCols, 0);
    const states = new Set<string>();
    eachCell(this, (r, c) => {
      const box = checkboxOf(this._sheet, r, c);
      const value = this._sheet._scriptValue(r, c);
      states.add(!box ? 'none' : value === box.checked ? 'on' : 'off');
    });
    if (states.size !== 1 || states.has('none')) return null;
    return states.has('on');
  }
}

/** check()/uncheck(): only cells holding their checkbox's checked or unchecked value change. */
function setBoxes(range: RangeImpl, on: boolean): RangeImpl {
  eachCell(range, (r, c) => {
    const box = checkboxOf(range._sheet, r, c);
    if (!box) return;
    const value = range._sheet._scriptValue(r, c);
    if (value !== box.checked && value !== box.unchecked) return;
    range._sheet._write(r, c, on ? box.checked : box.unchecked);
  });
  range._sheet._ss._rt.chargeCells(0, range._numRows * range._numCols);
  return range;
}

function sizedGrid<T>(range: RangeImpl, values: T[][], method: string): T[][] {
  if (!Array.isArray(values) || !values.every(Array.isArray))
    throw new GasError(`The parameters don't match the method signature for SpreadsheetApp.Range.${method}.`);
  if (values.length !== range._numRows)
    throw new GasError(
      `The number of rows in the data does not match the number of rows in the range. The data has ${values.length} but the range has ${range._numRows}.`,
    );
  const wrong = values.find((line) => line.length !== range._numCols);
  if (wrong)
    throw new GasError(
      `The number of columns in the data does not match the number of columns in the range. The data has ${wrong.length} but the range has ${range._numCols}.`,
    );
  return values;
}

/**
 * A person sets a rule in Data > Data validation on an A1 block (not a script call: nothing is
 * charged and no refusal applies, so relative dates and multi-select chips are possible); `null`
 * removes the rules.
 */
export function setPersonRule(sheet: SheetImpl, a1: string, spec: PersonRule | null): void {
  const range = sheet._rangeFromA1(a1);
  const rule = spec === null ? undefined : personRule(spec);
  eachCell(range, (r, c) => setRuleAt(sheet, r, c, rule));
}

/** A cell with a rule, as tests and the playground read it (not an Apps Script API). */
export interface CellRuleView {
  a1: string;
  criteria: string;
  values: unknown[];
  allowInvalid: boolean;
  /** Sheets shows a dropdown: a list or range rule with showDropdown, or a person's chips. */
  dropdown: boolean;
  checkbox: boolean;
  /** The value breaks the rule: Sheets marks the cell invalid (a warning, for a rule that only warns). */
  invalid: boolean;
}

/** Every cell of the sheet with a rule, row by row (the test API's view of typed cells). */
export function cellRules(sheet: SheetImpl): CellRuleView[] {
  const out: CellRuleView[] = [];
  const now = nowOf(sheet);
  sheet._rows.forEach((row, i) => {
    row?.d?.forEach((rule, j) => {
      if (!rule) return;
      const { criteria, args, allowInvalid, multiple } = rule._settings;
      const listed = criteria === 'VALUE_IN_LIST' || criteria === 'VALUE_IN_RANGE';
      out.push({
        a1: `${columnToLetters(j + 1)}${i + 1}`,
        criteria: criteria as string,
        values: rule.getCriteriaValues(),
        allowInvalid,
        dropdown: multiple || (listed && args[1] !== false),
        checkbox: criteria === 'CHECKBOX',
        invalid: !meetsRule(rule, sheet, i + 1, j + 1, now),
      });
    });
  });
  return out;
}

/** The cells Sheets marks invalid (a red corner: the value breaks the cell's rule), as A1 references. */
export function invalidCells(sheet: SheetImpl): string[] {
  return cellRules(sheet)
    .filter((cell) => cell.invalid)
    .map((cell) => cell.a1);
}

declare module './spreadsheet' {
  interface RangeImpl extends RangeTypedCells {}
}
