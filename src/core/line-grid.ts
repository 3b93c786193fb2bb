// In-memory copy of the linked sheet's lines, with dirty tracking, so a sync reads what it needs once
// and writes back only spans that changed, in few range calls. It can be lazy: only a few columns are
// read up front and whole rows are loaded in spans when a chunk of service rows needs them, so a run
// continuing a long pull does not re-read it all.
import { isDateLike } from './codec';
import { type RowLoader, spansOf } from './row-spans';

/** Whether two cell values read the same (dates by their time). */
export function sameCell(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (isDateLike(a) && isDateLike(b)) return a.getTime() === b.getTime();
  return false;
}

/** The sheet's data lines (row 2 onwards), 0-based: line i is sheet row i + 2. */
export class LineGrid {
  readonly lines: unknown[][];
  width: number;
  /** Lines the sheet held when read; lines from here on were appended by this run. */
  readonly initialLength: number;
  private readonly dirty = new Set<number>();
  /** Columns changed since the last flush: only these are written back. */
  private readonly dirtyColumns = new Set<number>();
  /** Lines of which only the preloaded columns are known. */
  private readonly partial = new Set<number>();
  private readonly preloaded: ReadonlySet<number>;
  private readonly loader: RowLoader | null;
  /**
   * Where each line stands in the sheet (physical data row, 0-based; -1: appended, not written yet;
   * -2: lost after a move). Lines are this run's own numbering; people may move rows meanwhile.
   */
  private readonly rowOf: number[];
  /** Whether some line stands elsewhere than its number says (rows moved during the run). */
  private moved = false;
  /** Data rows the sheet holds as far as this run knows (read, then written). */
  sheetRows: number;
  /** Data rows the sheet held right before the current write (rows past it are new). */
  sheetRowsBefore: number;
  /**
   * The caller's count of waits (network calls, sleeps) when the grid last matched the sheet: with
   * no wait since, nobody can have moved its lines and a write needs no re-identification.
   */
  checkedAtWait = -1;
  /**
   * The caller's count of waits when every cell of the grid was read (an eager read): with no wait
   * since, the sheet still holds what the run read, and a write needs nothing read back first.
   */
  valuesReadAtWait = -1;
  /** The cells of lines changed since the last flush, as the sheet held them before. */
  private readonly originals = new Map<number, unknown[]>();
  /** Cells writes kept as a person changed them (noteKept). */
  private readonly kept: Array<{ line: number; column: number }> = [];

  /**
   * Eager: `lines` are whole rows. Lazy: `lines` hold only the `preloaded` columns, and `loader`
   * reads whole rows when ensureLoaded asks for them.
   */
  constructor(lines: unknown[][], width: number, lazy?: { loader: RowLoader; preloaded: readonly number[] }) {
    this.width = width;
    this.lines = lines;
    this.initialLength = lines.length;
    this.loader = lazy?.loader ?? null;
    this.preloaded = new Set(lazy?.preloaded ?? []);
    this.sheetRows = lines.length;
    this.sheetRowsBefore = lines.length;
    this.rowOf = new Array<number>(lines.length);
    for (let i = 0; i < lines.length; i++) this.rowOf[i] = i;
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i] as unknown[];
      while (line.length < width) line.push('');
      if (lazy) this.partial.add(i);
    }
  }

  get length(): number {
    return this.lines.length;
  }

  /**
   * Whether the grid was read lazily (whole lines loaded later, by position): it is re-identified
   * before each load, since a sort while the run waited would load another row's cells into a line.
   */
  get lazy(): boolean {
    return this.loader !== null;
  }

  isLoaded(line: number): boolean {
    return !this.partial.has(line);
  }

  get(line: number, column: number): unknown {
    // The size test first: most grids are whole, and get runs for every cell read.
    if (this.partial.size !== 0 && this.partial.has(line) && !this.preloaded.has(column)) {
      throw new Error(`Line ${line} is not loaded (column ${column})`);
    }
    const value = this.lines[line]?.[column];
    return value === undefined ? '' : value;
  }

  /**
   * The cells of a loaded line, for reading many at once (merges and plans read every cell of every
   * line); undefined for a line not loaded or absent, which `get` must read. Never modify the result.
   * A cell read here may be undefined where `get` gives ''.
   */
  lineCells(line: number): readonly unknown[] | undefined {
    if (this.partial.size !== 0 && this.partial.has(line)) return undefined;
    return this.lines[line];
  }

  /** Sets a cell of a loaded line; returns whether it changed. */
  set(line: number, column: number, value: unknown): boolean {
    const row = this.lines[line];
    if (!row) throw new Error(`No line ${line}`);
    if (this.partial.size !== 0 && this.partial.has(line)) throw new Error(`Line ${line} is not loaded`);
    if (sameCell(row[column], value)) return false;
    if (!this.originals.has(line) && (this.rowOf[line] ?? -1) >= 0) this.originals.set(line, row.slice());
    row[column] = value;
    this.dirty.add(line);
    this.dirtyColumns.add(column);
    return true;
  }

  /** Loads whole rows for these lines, in as few reads as spans allow. */
  ensureLoaded(lines: Iterable<number>): void {
    if (!this.loader || this.partial.size === 0) return;
    const wanted = [...new Set(lines)].filter((line) => this.partial.has(line)).sort((a, b) => a - b);
    for (const [first, last] of spansOf(wanted)) {
      // Load only the unloaded stretches of the span.
      let start = first;
      while (start <= last) {
        while (start <= last && !this.partial.has(start)) start++;
        let end = start;
        while (end + 1 <= last && this.partial.has(end + 1)) end++;
        if (start > last) break;
        const rows = this.loadRows(start, end);
        for (let i = 0; i < rows.length; i++) {
          const row = (rows[i] ?? []) as unknown[];
          while (row.length < this.width) row.push('');
          this.lines[start + i] = row;
          this.partial.delete(start + i);
        }
        start = end + 1;
      }
    }
  }

  /** Whole rows of lines first..last, read where they stand now. */
  private loadRows(first: number, last: number): unknown[][] {
    const loader = this.loader as RowLoader;
    if (!this.moved) return loader(first, last - first + 1);
    const rows: unknown[][] = [];
    for (let line = first; line <= last; line++) {
      const row = this.rowOf[line] ?? -1;
      // A line lost after a move reads as its preloaded cells only: nothing is written to it.
      rows.push(row < 0 ? (this.lines[line] as unknown[]) : (loader(row, 1)[0] ?? []));
    }
    return rows;
  }

  appendLine(): number {
    this.lines.push(new Array<unknown>(this.width).fill(''));
    this.rowOf.push(-1);
    return this.lines.length - 1;
  }

  /** The sheet row (1-based) a line stands on as far as this run knows; 0: not in the sheet. */
  currentSheetRow(line: number): number {
    const row = this.rowOf[line] ?? -1;
    return row < 0 ? 0 : row + 2;
  }

  /** Whether lines stood elsewhere than read at some write of this run (then rows need reading). */
  get hasMoved(): boolean {
    return this.moved;
  }

  /** The physical data row of a line (0-based), or -1. */
  physicalRow(line: number): number {
    return this.rowOf[line] ?? -1;
  }

  /** A line's cells as the sheet held them before this run's changes since the last flush, if changed. */
  originalCells(line: number): readonly unknown[] | undefined {
    return this.originals.get(line);
  }

  /**
   * What each line is believed to hold in the id and mark columns of the sheet and where: the cells
   * before this run's unflushed changes. `markerOf` reads a mark out of a status cell.
   */
  expectedLines(
    idColumn: number,
    statusColumn: number | undefined,
    markerOf: (status: unknown) => string | null,
    idText: (value: unknown) => string,
  ): Array<{ row: number; id: string; marker: string | null }> {
    const expected = new Array<{ row: number; id: string; marker: string | null }>(this.lines.length);
    for (let line = 0; line < this.lines.length; line++) {
      const cells = this.originals.get(line) ?? (this.lines[line] as unknown[]);
      expected[line] = {
        row: this.rowOf[line] ?? -1,
        id: idText(cells[idColumn]),
        marker: statusColumn === undefined ? null : markerOf(cells[statusColumn]),
      };
    }
    return expected;
  }

  /**
   * Takes where every line stands now, as locateLines found them (`rows`: per line its physical data
   * row, or LOST: nothing more is written to it in this run; `moved`: some line stood elsewhere).
   * `sheetRows`: the data rows the sheet holds now.
   */
  relocate(located: { readonly rows: readonly number[]; readonly moved: boolean }, sheetRows: number): void {
    if (located.moved) this.moved = true;
    this.place(located.rows, sheetRows);
  }

  /**
   * Takes these lines as not found after all (another line stands on their row): nothing more is
   * written to them in this run, and rows are read back as after any move.
   */
  lose(lines: readonly number[]): void {
    if (lines.length === 0) return;
    for (const line of lines) this.rowOf[line] = -2;
    this.moved = true;
  }

  /**
   * Without a reading (nothing can have moved, or no id column to find lines by): lines stand where
   * they were, and lines appended by this run go after the sheet's `sheetRows` data rows, in order.
   */
  placeAppendedLines(sheetRows: number): void {
    this.place(null, sheetRows);
  }

  private place(rows: readonly number[] | null, sheetRows: number): void {
    this.sheetRowsBefore = sheetRows;
    let last = sheetRows;
    let next = sheetRows;
    for (let line = 0; line < this.rowOf.length; line++) {
      const before = this.rowOf[line] ?? -1;
      const row = rows ? (rows[line] as number) : before === -1 ? next++ : before;
      this.rowOf[line] = row;
      if (row + 1 > last) last = row + 1;
    }
    this.sheetRows = last;
  }

  /** After a write: the sheet now holds what the grid holds for every written line. */
  flushed(): void {
    this.originals.clear();
  }

  /**
   * A cell the write left as a person changed it since the run read it (their edit, kept): the line
   * now holds what the sheet holds, and the run learns it (takeKept) to settle that row again.
   */
  noteKept(line: number, column: number, sheetValue: unknown): void {
    const cells = this.lines[line];
    if (cells) cells[column] = sheetValue;
    this.kept.push({ line, column });
  }

  /** The cells writes kept as people changed them, since the last call. */
  takeKept(): Array<{ line: number; column: number }> {
    return this.kept.splice(0, this.kept.length);
  }

  /** The columns changed since the last call, sorted. */
  takeDirtyColumns(): number[] {
    const columns = [...this.dirtyColumns].sort((a, b) => a - b);
    this.dirtyColumns.clear();
    return columns;
  }

  widen(width: number): void {
    if (width <= this.width) return;
    for (const line of this.lines) while (line.length < width) line.push('');
    this.width = width;
  }

  takeDirty(): number[] {
    const lines = [...this.dirty].sort((a, b) => a - b);
    this.dirty.clear();
    return lines;
  }

  get dirtyCount(): number {
    return this.dirty.size;
  }

  /** Columns changed since the last takeDirtyColumns (the write spans them on every dirty line). */
  get dirtyColumnCount(): number {
    return this.dirtyColumns.size;
  }
}
