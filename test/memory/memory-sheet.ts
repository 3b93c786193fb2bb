// The linked sheet and its base over 2-D arrays of plain cell values (header row first), keeping the
// contract of src/gas/sheet-lines.ts, headers.ts and base-sheet.ts with the same core rules: lines
// re-identified by id right before a write (locateLines), a cell a person changed since it was read
// never overwritten (write-back), missing headers appended (layout). A person's hands act on the
// same arrays; every act counts as a wait of the run, as a person acts while an execution waits.
import {
  BASE_HEADER_WIDTH,
  BASE_WRITTEN_WIDTH,
  baseHeaderRow,
  parseBaseColumnIds,
} from '../../src/core/base';
import { BaseTable } from '../../src/core/base-table';
import type { ColumnSpec } from '../../src/core/columns';
import {
  extendLayout,
  headerText,
  ID_HEADER,
  type Layout,
  missingHeaders,
  STATUS_HEADER,
  syncedColumns,
} from '../../src/core/layout';
import { LineGrid } from '../../src/core/line-grid';
import { cellText } from '../../src/core/lines';
import { SPAN_GAP, spansOf } from '../../src/core/row-spans';
import { pendingTokenOf } from '../../src/core/status';
import { LOST, locateLines } from '../../src/core/sync/locate-lines';
import type { BasePort, LinkedSheetPort, SheetLines, SheetReadOptions } from '../../src/core/sync/ports';
import {
  CELLS_PER_QUEUED_CALL,
  planWriteBack,
  rowsToReadBack,
  type SpanRow,
  writeBackSpans,
} from '../../src/core/sync/write-back';

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
  private readonly lazyGrids = new WeakSet<LineGrid>();

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

  /** The LinkedSheetPort of this sheet. */
  port(): LinkedSheetPort {
    return {
      readLines: () => this.readLines(),
      readLinesForPull: (layoutOf, reading, lastRow) => this.readLinesForPull(layoutOf, reading, lastRow),
      lastRow: () => this.sheet.size().rows,
      readColumns: (columns) => {
        const { rows } = this.sheet.size();
        return columns.map((column) =>
          Array.from({ length: Math.max(0, rows - 1) }, (_, i) => this.sheet.get(i + 1, column) ?? ''),
        );
      },
      completeHeaders: (request) =>
        this.completeHeaders(
          request.layout,
          request.grid,
          request.live,
          request.deletedIds,
          request.fixedFields,
          request.keepOut,
        ),
      restoreNumberFormats: () => {
        // Plain values: a typed date is not a number format here.
      },
      relocateBeforeLoading: (grid, layout) => {
        if (this.lazyGrids.has(grid)) this.relocateLines(grid, layout);
      },
      writeLines: (grid, layout, live, columns) => this.flushLines(grid, layout, live, columns),
      workbookShapes: () => [
        { role: 'linked', columns: this.sheet.size().columns, rows: 0 },
        { role: 'base', columns: BASE_HEADER_WIDTH, rows: 0 },
      ],
      commitWrites: () => {
        // Writes land at once in memory.
      },
      decodeContext: () => ({ formatDate: (date) => new Date(date.getTime()).toISOString().slice(0, 10) }),
      deleteLines: (lines) => this.deleteLinesById(lines),
    };
  }

  /** As src/gas/delete-lines.ts: each line found by id as the sheet stands now, deleted bottom up. */
  private deleteLinesById(lines: ReadonlyArray<{ rowId: string; statuses: readonly string[] }>): string[] {
    const headers = this.sheet.cells[0] ?? [];
    const idColumn = headers.findIndex((cell) => headerText(cell) === ID_HEADER);
    const statusColumn = headers.findIndex((cell) => headerText(cell) === STATUS_HEADER);
    if (idColumn < 0 || statusColumn < 0) return [];
    const rowsById = new Map<string, number[]>();
    const { rows } = this.sheet.size();
    for (let row = 1; row < rows; row++) {
      const id = cellText(this.sheet.get(row, idColumn));
      if (id !== '') rowsById.set(id, [...(rowsById.get(id) ?? []), row]);
    }
    const doomed: Array<{ row: number; rowId: string }> = [];
    for (const { rowId, statuses } of lines) {
      const found = rowsById.get(rowId);
      if (found?.length !== 1) continue;
      const row = found[0] as number;
      if (statuses.includes(String(this.sheet.get(row, statusColumn) ?? ''))) doomed.push({ row, rowId });
    }
    doomed.sort((a, b) => b.row - a.row);
    for (const { row } of doomed) this.sheet.cells.splice(row, 1);
    return doomed.map((each) => each.rowId).reverse();
  }

  private linesOf(values: unknown[][]): SheetLines {
    const columns = values[0]?.length ?? 0;
    if (values.length === 0 || columns === 0) return { headers: [], grid: new LineGrid([], 0) };
    const grid = new LineGrid(values.slice(1), columns);
    grid.checkedAtWait = this.waits.count;
    grid.valuesReadAtWait = this.waits.count;
    return { headers: values[0] as unknown[], grid };
  }

  readLines(): SheetLines {
    return this.linesOf(this.values());
  }

  /** As src/gas/sheet-lines.ts: small sheets whole, large ones with the id and status columns first. */
  readLinesForPull(
    layoutOf: (headers: unknown[]) => Layout,
    options: SheetReadOptions,
    knownLastRow?: number,
  ): SheetLines {
    const size = this.sheet.size();
    const lastRow = knownLastRow ?? size.rows;
    const lastColumn = size.columns;
    if (lastRow === 0 || lastColumn === 0) return { headers: [], grid: new LineGrid([], 0) };
    if (lastRow - 1 <= options.eagerUpTo) return this.linesOf(this.sheet.block(0, 0, lastRow, lastColumn));
    const headers = this.sheet.block(0, 0, 1, lastColumn)[0] as unknown[];
    const layout = layoutOf(headers);
    const idColumn = layout.fixed.get(ID_HEADER);
    if (idColumn === undefined) return this.linesOf(this.sheet.block(0, 0, lastRow, lastColumn));
    const count = lastRow - 1;
    const preloaded = [idColumn, ...(layout.status === undefined ? [] : [layout.status])];
    const lines: unknown[][] = Array.from({ length: count }, () => new Array<unknown>(lastColumn).fill(''));
    for (const column of preloaded)
      for (let i = 0; i < count; i++) (lines[i] as unknown[])[column] = this.sheet.get(i + 1, column);
    const loader = (first: number, rows: number): unknown[][] =>
      this.sheet.block(first + 1, 0, rows, lastColumn);
    const grid = new LineGrid(lines, lastColumn, { loader, preloaded });
    grid.checkedAtWait = this.waits.count;
    this.lazyGrids.add(grid);
    return { headers, grid };
  }

  /** As src/gas/headers.ts: appends the missing headers at the right edge. */
  private completeHeaders(
    layout: Layout,
    grid: LineGrid,
    live: readonly ColumnSpec[],
    deletedIds: readonly string[],
    fixedFields: readonly string[],
    keepOut: ReadonlySet<string>,
  ): Layout {
    const added = missingHeaders(layout, live, fixedFields, keepOut);
    if (added.length === 0) return layout;
    added.forEach((header, i) => {
      this.sheet.set(0, layout.width + i, header);
    });
    const next = extendLayout(layout, added, live, deletedIds);
    grid.widen(next.width);
    return next;
  }

  /** As relocateLines in src/gas/sheet-lines.ts: finds the grid's lines where they stand now. */
  private relocateLines(grid: LineGrid, layout: Layout): void {
    const idColumn = layout.fixed.get(ID_HEADER);
    if (grid.checkedAtWait === this.waits.count || idColumn === undefined) {
      grid.placeAppendedLines(grid.sheetRows);
      return;
    }
    const count = Math.max(0, this.sheet.size().rows - 1);
    grid.checkedAtWait = this.waits.count;
    if (this.columnsMovedSince(layout)) {
      grid.relocate({ rows: new Array<number>(grid.length).fill(LOST), moved: true }, count);
      return;
    }
    const expected = grid.expectedLines(idColumn, layout.status, pendingTokenOf, cellText);
    const ids: unknown[] = [];
    const markers: Array<string | null> = [];
    for (let row = 0; row < count; row++) {
      ids.push(this.sheet.get(row + 1, idColumn));
      markers.push(
        layout.status === undefined ? null : pendingTokenOf(this.sheet.get(row + 1, layout.status)),
      );
    }
    const located = locateLines(expected, grid.sheetRows, { ids, markers });
    grid.relocate(located, count);
  }

  /** Whether a column the run writes no longer carries the header it read there. */
  private columnsMovedSince(layout: Layout): boolean {
    const positions = [...layout.fixed.values(), ...layout.columns.values()];
    if (layout.status !== undefined) positions.push(layout.status);
    return positions.some((index) => {
      const header = headerText(this.sheet.get(0, index));
      return header !== '' && header !== layout.headers[index];
    });
  }

  /** As flushLines in src/gas/sheet-lines.ts: the guarded write-back of the dirty lines where they stand now. */
  private flushLines(
    grid: LineGrid,
    layout: Layout,
    _live: readonly ColumnSpec[],
    columns: 'synced' | 'fixedAndStatus',
  ): number {
    const dirty = grid.takeDirty();
    const changed = new Set(grid.takeDirtyColumns());
    if (dirty.length === 0) return 0;
    this.relocateLines(grid, layout);
    const existingRows = grid.sheetRowsBefore;
    const fixedAndStatus = [
      ...layout.fixed.values(),
      ...(layout.status === undefined ? [] : [layout.status]),
    ].sort((a, b) => a - b);
    const plan = planWriteBack({
      eligible: columns === 'synced' ? syncedColumns(layout) : fixedAndStatus,
      changed,
      text: [],
      table: [...layout.columns.values()],
      withTable: columns === 'synced',
      moved: grid.hasMoved,
    });
    if (plan === null) {
      grid.flushed();
      return 0;
    }
    const firstColumn = plan.written[0] as number;
    const lineAt = new Map<number, number>();
    for (const line of dirty) {
      const row = grid.physicalRow(line);
      if (row >= 0) lineAt.set(row, line);
    }
    for (const [first, last] of spansOf(
      [...lineAt.keys()].sort((a, b) => a - b),
      SPAN_GAP,
    )) {
      const count = last - first + 1;
      // As flushLines: with no wait since every cell was read, nothing is read back.
      const readCount =
        grid.valuesReadAtWait === this.waits.count ? 0 : rowsToReadBack(plan, first, last, existingRows);
      const guardFirst = plan.guarded[0] ?? 0;
      const guardWidth = ((plan.guarded[plan.guarded.length - 1] ?? 0) as number) - guardFirst + 1;
      const current = readCount > 0 ? this.sheet.block(first + 1, guardFirst, readCount, guardWidth) : [];
      const rows: SpanRow[] = [];
      for (let i = 0; i < count; i++) {
        const line = lineAt.get(first + i);
        rows.push(
          line === undefined
            ? { kind: 'between', cells: grid.lines[first + i] }
            : { kind: 'line', cells: grid.lines[line] as unknown[], read: grid.originalCells(line) },
        );
      }
      const spans = writeBackSpans(plan, first, rows, current, CELLS_PER_QUEUED_CALL, (i, column, value) => {
        const line = lineAt.get(first + i);
        if (line !== undefined) grid.noteKept(line, column, value);
      });
      for (const span of spans)
        for (const [start, width] of plan.groups)
          span.block.forEach((cells, i) => {
            for (let c = 0; c < width; c++)
              this.sheet.set(span.first + 1 + i, start + c, cells[start - firstColumn + c]);
          });
    }
    grid.flushed();
    return dirty.length;
  }
}

/** The base sheet (BasePort) over cells: [id, record, seen] per row under a header row. */
export class MemoryBase {
  readonly sheet = new MemoryCells();

  port(): BasePort {
    return {
      read: (reading) => this.read(reading),
      write: (base) => this.write(base),
      writeSeen: (base) => this.writeSeen(base),
    };
  }

  /** As readBase in src/gas/base-sheet.ts: whole, or ids and seen marks with records loaded on demand. */
  read(options: SheetReadOptions = { eagerUpTo: Number.POSITIVE_INFINITY, withSeen: true }): BaseTable {
    const lastRow = this.sheet.size().rows;
    if (lastRow === 0) return new BaseTable([], []);
    const columnIds = parseBaseColumnIds(this.sheet.get(0, 1));
    const width = options.withSeen ? 3 : 2;
    if (lastRow - 1 <= options.eagerUpTo)
      return new BaseTable(this.sheet.block(1, 0, lastRow - 1, width), columnIds);
    const rows: unknown[][] = [];
    for (let row = 1; row < lastRow; row++)
      rows.push([this.sheet.get(row, 0), options.withSeen ? this.sheet.get(row, 2) : '']);
    const loader = (first: number, n: number): unknown[][] =>
      this.sheet.block(first + 1, 0, n, BASE_HEADER_WIDTH);
    return new BaseTable(rows, columnIds, { loader });
  }

  write(base: BaseTable): void {
    const spans = base.takeDirtySpans();
    if (base.headerChanged) {
      baseHeaderRow(base.columnIds).forEach((cell, c) => {
        this.sheet.set(0, c, cell);
      });
      base.headerChanged = false;
    }
    for (const span of spans) {
      const firstColumn = span.withIds ? 0 : 1;
      span.rows.forEach((cells, i) => {
        for (let c = 0; c < BASE_WRITTEN_WIDTH - firstColumn; c++)
          this.sheet.set(span.start + 1 + i, firstColumn + c, cells[c]);
      });
    }
  }

  writeSeen(base: BaseTable): void {
    for (const span of base.takeSeenSpans())
      span.values.forEach((cells, i) => {
        this.sheet.set(span.start + 1 + i, 2, cells[0]);
      });
  }

  /** The base as the next run reads it. */
  records(): BaseTable {
    return this.read();
  }
}
