// The linked sheet and its base over 2-D arrays of plain cell values (header row first): raw cells
// only (the SheetCells port), under the product's own sheet-write rules (core/sync/linked-sheet.ts,
// base-sheet.ts): lines read, re-identified by id right before a write, written back keeping a cell a
// person changed since it was read, headers completed, lines deleted by id. A person's hands act on
// the same arrays; every act counts as a wait of the run, as a person acts while an execution waits.
import type { BaseTable } from '../../src/core/base-table';
import { headerText, ID_HEADER } from '../../src/core/layout';
import { cellText } from '../../src/core/lines';
import { basePortOver, readBase } from '../../src/core/sync/base-sheet';
import { linkedSheetOver } from '../../src/core/sync/linked-sheet';
import type { BasePort, LinkedSheetPort, SheetReadOptions } from '../../src/core/sync/ports';
import type { SheetCells } from '../../src/core/sync/sheet-cells';

/** Counts the run's waits: a person's act is one (a read after the last wait is still true). */
export interface Waits {
  count: number;
}

function blank(value: unknown): boolean {
  return value === '' || value === null || value === undefined;
}

/** A sheet's cells: row 0 is the header row. Sized by its content, as a data range is. */
export class MemoryCells {
  cells: unknown[][];
  /** Rows frozen at the top (the header row, once the add-on wrote it). */
  frozenRows = 0;
  constructor(cells: unknown[][] = []) {
    this.cells = cells.map((row) => [...row]);
  }

  /** The last row and column (1-based) holding content; 0 when empty. */
  size(): { rows: number; columns: number } {
    let rows = 0;
    let columns = 0;
    this.cells.forEach((row, r) => {
      row.forEach((cell, c) => {
        if (!blank(cell)) {
          rows = Math.max(rows, r + 1);
          columns = Math.max(columns, c + 1);
        }
      });
    });
    return { rows, columns };
  }

  get(row: number, column: number): unknown {
    const value = this.cells[row]?.[column];
    return value === undefined || value === null ? '' : value;
  }

  set(row: number, column: number, value: unknown): void {
    while (this.cells.length <= row) this.cells.push([]);
    const cells = this.cells[row] as unknown[];
    while (cells.length <= column) cells.push('');
    cells[column] = value;
  }

  /** A block of values (0-based first row and column), '' beyond the content. */
  block(row: number, column: number, rows: number, columns: number): unknown[][] {
    const out: unknown[][] = [];
    for (let r = 0; r < rows; r++) {
      const line: unknown[] = [];
      for (let c = 0; c < columns; c++) line.push(this.get(row + r, column + c));
      out.push(line);
    }
    return out;
  }
}

/** The linked sheet (LinkedSheetPort) over cells, with the person's hands. */
export class MemorySheet {
  readonly sheet: MemoryCells;
  private readonly waits: Waits;

  constructor(cells: unknown[][], waits: Waits) {
    this.sheet = new MemoryCells(cells);
    this.waits = waits;
  }

  /** The header row and the lines as a person sees them (trailing blanks trimmed to the content). */
  values(): unknown[][] {
    const { rows, columns } = this.sheet.size();
    return this.sheet.block(0, 0, rows, columns);
  }

  // ---- the person's hands --------------------------------------------------------------------

  private acted(): void {
    this.waits.count += 1;
  }

  /** 0-based sheet column carrying this header, or throws. */
  columnOf(header: string): number {
    const at = (this.sheet.cells[0] ?? []).findIndex((cell) => headerText(cell) === header);
    if (at < 0) throw new Error(`memory sheet: no header ${header}`);
    return at;
  }

  /** 0-based data line whose id cell holds this id, or -1. */
  lineOfId(id: string): number {
    const idColumn = this.columnOf(ID_HEADER);
    const { rows } = this.sheet.size();
    for (let row = 1; row < rows; row++) if (cellText(this.sheet.get(row, idColumn)) === id) return row - 1;
    return -1;
  }

  /** Types a value into a data line's cell (line 0 is sheet row 2). */
  type(line: number, header: string, value: unknown): void {
    this.sheet.set(line + 1, this.columnOf(header), value);
    this.acted();
  }

  /** Sorts the data lines by a column (blank cells last), as a person sorts the range below the header. */
  sort(header: string, descending = false): void {
    const column = this.columnOf(header);
    const { rows } = this.sheet.size();
    const lines = this.sheet.cells.slice(1, rows);
    const key = (line: unknown[]) => line[column] ?? '';
    lines.sort((a, b) => {
      const x = key(a);
      const y = key(b);
      if (blank(x) !== blank(y)) return blank(x) ? 1 : -1;
      const order =
        typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y));
      return descending ? -order : order;
    });
    this.sheet.cells.splice(1, lines.length, ...lines);
    this.acted();
  }

  /** Inserts a line before data line `at` (its cells given by header). */
  insertLine(at: number, cells: Record<string, unknown> = {}): void {
    const width = Math.max(this.sheet.size().columns, 1);
    const line = new Array<unknown>(width).fill('');
    for (const [header, value] of Object.entries(cells)) line[this.columnOf(header)] = value;
    while (this.sheet.cells.length < at + 1) this.sheet.cells.push([]);
    this.sheet.cells.splice(at + 1, 0, line);
    this.acted();
  }

  /** Types a new line after the last one. */
  appendLine(cells: Record<string, unknown>): void {
    this.insertLine(Math.max(0, this.sheet.size().rows - 1), cells);
  }

  /** Deletes data line `at` (the lines below move up). */
  deleteLine(at: number): void {
    this.sheet.cells.splice(at + 1, 1);
    this.acted();
  }

  /** Renames a header cell. */
  renameHeader(from: string, to: string): void {
    this.sheet.set(0, this.columnOf(from), to);
    this.acted();
  }

  // ---- the port ---------------------------------------------------------------------------------

  /** The raw cells of this sheet, as the product's rules read and write them. */
  cells(): SheetCells {
    return memorySheetCells(this.sheet, this.waits);
  }

  /** The LinkedSheetPort of this sheet: the product's rules over its raw cells. */
  port(): LinkedSheetPort {
    return linkedSheetOver(this.cells(), {
      restoreNumberFormats: () => {
        // Plain values: a typed date is not a number format here.
      },
      workbookShapes: () => [
        { role: 'linked', columns: this.sheet.size().columns, rows: 0 },
        { role: 'base', columns: 3, rows: 0 },
      ],
      commitWrites: () => {
        // Writes land at once in memory.
      },
      decodeContext: () => ({ formatDate: (date) => new Date(date.getTime()).toISOString().slice(0, 10) }),
    });
  }
}

/**
 * The raw cells (SheetCells) of a memory grid. The grid has no edge: reads past the content give
 * blanks and writes extend it, so the execution's knowledge of its extent (noted sizes, rows and
 * columns made to exist) is not needed; a read of no rows or columns throws, as Sheets does.
 */
export function memorySheetCells(cells: MemoryCells, waits: Waits): SheetCells {
  const block = (row: number, column: number, rows: number, columns: number): unknown[][] => {
    if (rows < 1) throw new Error('memory sheet: the number of rows in the range must be at least 1');
    if (columns < 1) throw new Error('memory sheet: the number of columns in the range must be at least 1');
    return cells.block(row - 1, column - 1, rows, columns);
  };
  const gridRows = () => Math.max(1, cells.cells.length);
  return {
    values: block,
    sheetValues: (row, column, rows, columns) => {
      const size = cells.size();
      return block(
        row,
        column,
        rows === -1 ? size.rows - row + 1 : rows,
        columns === -1 ? size.columns - column + 1 : columns,
      );
    },
    columnValues: (firstColumn, width) => block(1, firstColumn, gridRows(), width),
    dataRange: () => {
      const size = cells.size();
      const rows = Math.max(1, size.rows);
      const columns = Math.max(1, size.columns);
      return { rows: () => rows, columns: () => columns, values: () => block(1, 1, rows, columns) };
    },
    lastRow: () => cells.size().rows,
    lastColumn: () => cells.size().columns,
    maxRows: gridRows,
    frozenRows: () => cells.frozenRows,
    write: (row, column, values) => {
      values.forEach((line, r) => {
        line.forEach((value, c) => {
          cells.set(row - 1 + r, column - 1 + c, value);
        });
      });
    },
    // Plain values: formats, notes, styles and protections have nothing to change here.
    setPlainText: () => {},
    styleHeader: () => {},
    protectWarningOnly: () => {},
    freezeRows: (rows) => {
      cells.frozenRows = rows;
    },
    insertRowsAfter: (row, count) => {
      if (cells.cells.length > row) cells.cells.splice(row, 0, ...Array.from({ length: count }, () => []));
    },
    deleteRows: (row, count) => {
      cells.cells.splice(row - 1, count);
    },
    waitsSoFar: () => waits.count,
    noteContentExtent: () => {},
    noteContentSize: () => {},
    noteGridRows: () => {},
    ensureRows: () => null,
    ensureColumns: () => {},
  };
}

/** The base sheet (BasePort) over cells: [id, record, seen] per row under a header row. */
export class MemoryBase {
  readonly sheet = new MemoryCells();
  private readonly cells = memorySheetCells(this.sheet, { count: 0 });
  private readonly base = { name: '_base_1', synced: () => true, open: () => this.cells };

  /** The BasePort of this base: the product's rules over its raw cells. */
  port(): BasePort {
    return basePortOver(this.base);
  }

  read(options?: SheetReadOptions): BaseTable {
    return readBase(this.base, options);
  }

  write(base: BaseTable): void {
    this.port().write(base);
  }

  /** The base as the next run reads it. */
  records(): BaseTable {
    return this.read();
  }
}

/** Operations of the raw cells that only note what the execution knows: not calls on the sheet. */
const NOTES = new Set(['waitsSoFar', 'noteContentExtent', 'noteContentSize', 'noteGridRows']);

/** Raw cells that log every call on the sheet (`values(1,1,3,5)`), for tests of which calls the rules make. */
export function recording(cells: SheetCells): { cells: SheetCells; calls: string[] } {
  const calls: string[] = [];
  const out = {} as Record<string, unknown>;
  for (const [name, method] of Object.entries(cells) as Array<[string, (...args: unknown[]) => unknown]>) {
    out[name] = (...args: unknown[]) => {
      if (!NOTES.has(name)) calls.push(`${name}(${args.filter((arg) => !Array.isArray(arg)).join(',')})`);
      return method(...args);
    };
  }
  // The data range's values are a waiting call of their own.
  out.dataRange = () => {
    calls.push('dataRange()');
    const range = cells.dataRange();
    return {
      ...range,
      values: () => {
        calls.push('dataRange.values()');
        return range.values();
      },
    };
  };
  return { cells: out as unknown as SheetCells, calls };
}
