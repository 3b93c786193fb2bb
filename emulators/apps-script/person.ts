// A person working in the spreadsheet, also while an execution waits for the network or a lock.
import { columnToLetters, parseA1 } from './a1';
import type { ExecutionInfo } from './runtime';
import type { CellRecord, RangeImpl, SheetImpl, SpreadsheetImpl } from './spreadsheet';
import type { FetchRequestInfo } from './url-fetch';

/** Where an execution waits: a UrlFetchApp.fetch, a UrlFetchApp.fetchAll, or a lock's tryLock/waitLock. */
export type WaitKind = 'fetch' | 'fetchAll' | 'lock';

/** One point where an execution waits and a person may act (host values). */
export interface WaitPoint {
  kind: WaitKind;
  /** 1-based count of waits of this kind in this execution (the 2nd fetchAll has nth 2). */
  nth: number;
  /** 1-based count of network waits (fetch and fetchAll together) in this execution; 0 for locks. */
  networkNth: number;
  /** The waiting execution's id (nested executions have their own counts). */
  executionId: number;
  /** The requests about to be sent (network waits); empty for locks. */
  requests: FetchRequestInfo[];
  /** The lock's key (lock waits), e.g. `document:<id>`. */
  lockKey?: string;
  /** Lock waits: another execution or process holds the lock. */
  contended?: boolean;
}

/** Which waits a hook acts at. */
export interface WaitSelector {
  /** 'network' matches fetch and fetchAll; default: any wait. */
  on?: WaitKind | 'network';
  /** Only the nth wait of that kind (for 'network': of fetch and fetchAll together) in an execution. */
  nth?: number;
  /** Extra condition, e.g. `(p) => p.requests.some((r) => r.method === 'POST')`. */
  when?: (point: WaitPoint) => boolean;
  /** How many times the hook acts before it removes itself. Default 1; `Infinity` for every match. */
  times?: number;
}

interface Hook {
  selector: WaitSelector;
  action: (point: WaitPoint) => void;
  left: number;
}

/** What a person's change was, for the document's edit triggers (apps-script-facts §13). */
export interface PersonEdit {
  /** The changed block (sheet, first row and column, size), as the event's `range` names it. */
  sheet: SheetImpl;
  row: number;
  column: number;
  rows: number;
  columns: number;
  /** A sort (Data > Sort): whether it fires edit is UNCONFIRMED, so the simulator makes it an option. */
  sort: boolean;
  /** One cell typed: its new value and the value before ('' for a formerly empty cell). */
  single?: { value: unknown; oldValue: unknown };
}

/** A sheet by name or the simulator's sheet object. */
export type SheetRef = string | SheetImpl;
/** A column by 1-based position or by its exact header text in row 1. */
export type ColumnRef = number | string;

/**
 * The person's hands: spreadsheet actions as a person does them in the Sheets UI, plus hooks that run
 * them while an execution waits. Actions are not script calls: they are not counted in any
 * execution's stats, cost no simulated time and need no authorization. Real Sheets applies a
 * person's edits between the script's calls; the hooks do the same at the chosen waits.
 */
export class PersonActions {
  private readonly hooks: Hook[] = [];
  private readonly counts = new Map<number, { fetch: number; fetchAll: number; lock: number }>();
  /** Every wait point reached so far (for tests choosing where to act). */
  readonly waits: WaitPoint[] = [];
  /**
   * Whose hands these are: the e-mail an edit event's `user` carries (default: the simulator's first
   * user; '' models an editor Google does not disclose, §13).
   */
  editor: string;

  constructor(
    private readonly _ss: SpreadsheetImpl,
    private readonly _outside: <T>(fn: () => T) => T,
    private readonly _current: () => ExecutionInfo | undefined,
    editor = '',
    /** Told of every change of cell values, while the person's hands act (the edit triggers fire). */
    private readonly _edited: (edit: PersonEdit) => void = () => {},
  ) {
    this.editor = editor;
  }

  /** Tells the edit triggers about a changed block (still outside every execution). */
  private changed(
    sheet: SheetImpl,
    row: number,
    column: number,
    rows: number,
    columns: number,
    extra: { sort?: boolean; single?: PersonEdit['single'] } = {},
  ): void {
    if (rows < 1 || columns < 1) return;
    const edit: PersonEdit = { sheet, row, column, rows, columns, sort: extra.sort === true };
    if (extra.single) edit.single = extra.single;
    this._edited(edit);
  }

  // ---- hooks ----

  /**
   * Runs `action` as the person at the waits `selector` picks (default: the next wait of any kind),
   * `times` times (default once). Returns a function that removes the hook.
   */
  at(selector: WaitSelector, action: (point: WaitPoint) => void): () => void {
    const hook: Hook = { selector, action, left: selector.times ?? 1 };
    this.hooks.push(hook);
    return () => {
      const i = this.hooks.indexOf(hook);
      if (i >= 0) this.hooks.splice(i, 1);
    };
  }

  /** Hooks not yet used up. */
  get pendingHooks(): number {
    return this.hooks.length;
  }

  /** Removes every hook and forgets the waits seen. */
  reset(): void {
    this.hooks.length = 0;
    this.waits.length = 0;
    this.counts.clear();
  }

  /** Called by the simulator's services when the current execution waits. */
  _reach(
    kind: WaitKind,
    detail: { requests?: FetchRequestInfo[]; lockKey?: string; contended?: boolean },
  ): void {
    const exec = this._current();
    if (!exec) return;
    let count = this.counts.get(exec.id);
    if (!count) {
      count = { fetch: 0, fetchAll: 0, lock: 0 };
      this.counts.set(exec.id, count);
    }
    count[kind]++;
    const point: WaitPoint = {
      kind,
      nth: count[kind],
      networkNth: kind === 'lock' ? 0 : count.fetch + count.fetchAll,
      executionId: exec.id,
      requests: detail.requests ?? [],
    };
    if (detail.lockKey !== undefined) point.lockKey = detail.lockKey;
    if (detail.contended !== undefined) point.contended = detail.contended;
    this.waits.push(point);
    for (const hook of [...this.hooks]) {
      if (!this.matches(hook.selector, point)) continue;
      hook.left--;
      if (hook.left <= 0) this.hooks.splice(this.hooks.indexOf(hook), 1);
      this._outside(() => hook.action(point));
    }
  }

  private matches(s: WaitSelector, p: WaitPoint): boolean {
    if (s.on === 'network' && p.kind === 'lock') return false;
    if (s.on !== undefined && s.on !== 'network' && s.on !== p.kind) return false;
    if (s.nth !== undefined && s.nth !== (s.on === 'network' ? p.networkNth : p.nth)) return false;
    return s.when ? s.when(p) : true;
  }

  // ---- lookups ----

  /** The sheet (by name or object); throws if there is none. */
  sheet(ref: SheetRef): SheetImpl {
    if (typeof ref !== 'string') return ref;
    const sheet = this._ss.getSheetByName(ref);
    if (!sheet) throw new Error(`person: no sheet named ${ref}`);
    return sheet;
  }

  /** The 1-based position of a column given by position or exact header text; throws if absent. */
  column(ref: SheetRef, column: ColumnRef): number {
    if (typeof column === 'number') return column;
    const at = this.headers(ref).indexOf(column);
    if (at < 0) throw new Error(`person: no header "${column}"`);
    return at + 1;
  }

  /** Row 1 as display text (what the person reads as headers). */
  headers(ref: SheetRef): string[] {
    const sheet = this.sheet(ref);
    return this._outside(() => {
      const width = Math.max(1, sheet.getLastColumn());
      return Array.from({ length: width }, (_, i) => sheet._display(1, i + 1));
    });
  }

  private range(ref: SheetRef, a1: string): RangeImpl {
    if (!parseA1(a1)) throw new Error(`person: not an A1 range: ${a1}`);
    return this.sheet(ref).getRange(a1);
  }

  // ---- lines (the playground's Undo follows them) ----

  /**
   * The identity of the line at `row` (1-based): it follows the line as lines are inserted or deleted
   * above it, by anyone, scripts included; {@link rowOfLine} says where it is now. A sort moves cells
   * between lines, not lines: whoever follows a line compares its cells too.
   */
  lineAt(ref: SheetRef, row: number): object {
    const sheet = this.sheet(ref);
    if (!Number.isInteger(row) || row < 1 || row > sheet.getMaxRows())
      throw new Error(`person: no line ${row} (the sheet has ${sheet.getMaxRows()})`);
    const line = sheet._rows[row - 1] ?? { v: [] };
    sheet._rows[row - 1] = line;
    return line;
  }

  /** Where the line {@link lineAt} gave is now (1-based), or 0 when it was deleted (or the sheet cleared). */
  rowOfLine(ref: SheetRef, line: object): number {
    return (this.sheet(ref)._rows as unknown[]).indexOf(line) + 1;
  }

  // ---- actions ----

  /** Types `value` into a cell (text is parsed as typed: "42" becomes a number). */
  edit(ref: SheetRef, row: number, column: ColumnRef, value: unknown): void {
    this._outside(() => {
      const sheet = this.sheet(ref);
      const col = this.column(ref, column);
      const cell = sheet.getRange(row, col);
      const oldValue = cell.getValue();
      cell.setValue(value);
      this.changed(sheet, row, col, 1, 1, { single: { value: cell.getValue(), oldValue } });
    });
  }

  /** Pastes a block of values with its top-left cell at (row, column). */
  setValues(ref: SheetRef, row: number, column: ColumnRef, values: unknown[][]): void {
    this._outside(() => {
      const width = Math.max(1, ...values.map((line) => line.length));
      const sheet = this.sheet(ref);
      const col = this.column(ref, column);
      const need = row + values.length - 1 - sheet.getMaxRows();
      if (need > 0) sheet.insertRowsAfter(sheet.getMaxRows(), need);
      // Sheets adds columns too when a pasted block reaches past the last one.
      const wide = col + width - 1 - sheet.getMaxColumns();
      if (wide > 0) sheet.insertColumnsAfter(sheet.getMaxColumns(), wide);
      const block = values.map((line) => [...line, ...Array<unknown>(width - line.length).fill('')]);
      const target = sheet.getRange(row, col, values.length, width);
      const oldValue = values.length === 1 && width === 1 ? target.getValue() : undefined;
      target.setValues(block);
      this.changed(
        sheet,
        row,
        col,
        values.length,
        width,
        oldValue === undefined ? {} : { single: { value: target.getValue(), oldValue } },
      );
    });
  }

  /**
   * Copies a block's cells as they are (values, formulas, formats, notes, styles), e.g. to put them
   * back on Undo. Cells past the sheet's edge copy as empty.
   */
  copyCells(ref: SheetRef, row: number, column: number, rows: number, columns: number): CellRecord[][] {
    const sheet = this.sheet(ref);
    return Array.from({ length: rows }, (_, i) =>
      Array.from({ length: columns }, (_, j) => ({ ...sheet._cellRecord(row + i, column + j) })),
    );
  }

  /** Puts copied cells back with their top-left cell at (row, column), adding lines and columns as needed. */
  putCells(ref: SheetRef, row: number, column: number, cells: CellRecord[][]): void {
    this._outside(() => {
      const sheet = this.sheet(ref);
      const width = Math.max(0, ...cells.map((line) => line.length));
      const need = row + cells.length - 1 - sheet.getMaxRows();
      if (need > 0) sheet.insertRowsAfter(sheet.getMaxRows(), need);
      const wide = column + width - 1 - sheet.getMaxColumns();
      if (wide > 0) sheet.insertColumnsAfter(sheet.getMaxColumns(), wide);
      cells.forEach((line, i) => {
        line.forEach((rec, j) => {
          sheet._putRecord(row + i, column + j, { ...rec });
        });
      });
      this.changed(sheet, row, column, cells.length, width);
    });
  }

  /** Data > Sort sheet: every line below the frozen rows, by one column. */
  sortSheet(ref: SheetRef, column: ColumnRef, ascending = true): void {
    this._outside(() => {
      const sheet = this.sheet(ref);
      sheet.sort(this.column(ref, column), ascending);
      const first = sheet.getFrozenRows() + 1;
      this.changed(sheet, first, 1, sheet.getLastRow() - first + 1, sheet.getLastColumn(), { sort: true });
    });
  }

  /**
   * Data > Sort range on a selection (e.g. `B2:B26`, one column's cells alone): only the selected
   * cells move, by the values of `column` (a column inside the selection).
   */
  sortRange(ref: SheetRef, a1: string, column: ColumnRef, ascending = true): void {
    this._outside(() => {
      const range = this.range(ref, a1);
      range.sort({ column: this.column(ref, column), ascending });
      this.changed(
        range.getSheet(),
        range.getRow(),
        range.getColumn(),
        range.getNumRows(),
        range.getNumColumns(),
        {
          sort: true,
        },
      );
    });
  }

  /** Inserts `count` empty lines before line `before` (1-based; the lines below move down). */
  insertRows(ref: SheetRef, before: number, count = 1): void {
    this._outside(() => {
      this.sheet(ref).insertRowsBefore(before, count);
    });
  }

  /** Deletes `count` lines starting at line `row` (the lines below move up). */
  deleteRows(ref: SheetRef, row: number, count = 1): void {
    this._outside(() => {
      this.sheet(ref).deleteRows(row, count);
    });
  }

  /** Retypes the header cell whose exact text is `from`. */
  renameHeader(ref: SheetRef, from: string, to: string): void {
    this.edit(ref, 1, this.column(ref, from), to);
  }

  /** Clears a header cell (the column's cells stay). */
  clearHeader(ref: SheetRef, header: string): void {
    this.clearCells(ref, `${columnToLetters(this.column(ref, header))}1`);
  }

  /** Deletes a whole column (the columns right of it move left). */
  deleteColumn(ref: SheetRef, column: ColumnRef): void {
    this._outside(() => {
      this.sheet(ref).deleteColumn(this.column(ref, column));
    });
  }

  /** Inserts `count` empty columns so the first stands at position `at` (one past the last column too). */
  insertColumnsAt(ref: SheetRef, at: number, count = 1): void {
    this._outside(() => {
      this.sheet(ref).insertColumnsAfter(at - 1, count);
    });
  }

  /** Inserts an empty column before `before` (the columns from it move right). */
  insertColumn(ref: SheetRef, before: ColumnRef): void {
    this._outside(() => {
      this.sheet(ref).insertColumnsBefore(this.column(ref, before), 1);
    });
  }

  /**
   * Drags a whole column (values, formats, notes, styles) so that it stands at position `to`
   * (1-based, counted after the move); the columns in between shift by one.
   */
  moveColumn(ref: SheetRef, column: ColumnRef, to: number): void {
    this._outside(() => {
      const sheet = this.sheet(ref);
      const from = this.column(ref, column);
      const height = sheet.getMaxRows();
      const cells = Array.from({ length: height }, (_, i) => sheet._cellRecord(i + 1, from));
      sheet.deleteColumns(from, 1);
      sheet.insertColumnsBefore(to, 1);
      cells.forEach((rec, i) => {
        sheet._putRecord(i + 1, to, rec);
      });
    });
  }

  /** Selects cells and presses Delete: contents go, formats and notes stay. */
  clearCells(ref: SheetRef, a1: string): void {
    this._outside(() => {
      const range = this.range(ref, a1);
      range.clearContent();
      this.changed(
        range.getSheet(),
        range.getRow(),
        range.getColumn(),
        range.getNumRows(),
        range.getNumColumns(),
      );
    });
  }

  /**
   * Copies the block `fromA1` and pastes it with its top-left cell at `toA1` (values, formats, notes,
   * styles), e.g. a block pasted one line off. Overlapping blocks paste what was copied.
   */
  paste(ref: SheetRef, fromA1: string, toA1: string): void {
    this._outside(() => {
      const sheet = this.sheet(ref);
      const from = this.range(ref, fromA1);
      const to = parseA1(toA1);
      if (!to || to.row === undefined || to.col === undefined) throw new Error(`person: not a cell: ${toA1}`);
      const rows = from.getNumRows();
      const cols = from.getNumColumns();
      const block = Array.from({ length: rows }, (_, i) =>
        Array.from({ length: cols }, (_, j) => sheet._cellRecord(from.getRow() + i, from.getColumn() + j)),
      );
      const need = (to.row as number) + rows - 1 - sheet.getMaxRows();
      if (need > 0) sheet.insertRowsAfter(sheet.getMaxRows(), need);
      block.forEach((line, i) => {
        line.forEach((rec, j) => {
          sheet._putRecord((to.row as number) + i, (to.col as number) + j, { ...rec });
        });
      });
      this.changed(sheet, to.row as number, to.col as number, rows, cols);
    });
  }

  /** Fills a range down from its first line (Ctrl+D): every line takes the first line's cells. */
  fillDown(ref: SheetRef, a1: string): void {
    this._outside(() => {
      const sheet = this.sheet(ref);
      const range = this.range(ref, a1);
      for (let j = 0; j < range.getNumColumns(); j++) {
        const rec = sheet._cellRecord(range.getRow(), range.getColumn() + j);
        for (let i = 1; i < range.getNumRows(); i++)
          sheet._putRecord(range.getRow() + i, range.getColumn() + j, { ...rec });
      }
      this.changed(sheet, range.getRow(), range.getColumn(), range.getNumRows(), range.getNumColumns());
    });
  }
}
