// In-memory copies of the linked sheet's lines and of the base sheet, with dirty tracking, so a
// sync reads each once and writes back only spans that changed, in a constant number of calls.
import { type BaseRecord, decodeBaseRow, encodeBaseRow } from './base';
import { isDateLike } from './codec';

function sameCell(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (isDateLike(a) && isDateLike(b)) return a.getTime() === b.getTime();
  return false;
}

/** The sheet's data lines (row 2 onwards), 0-based: line i is sheet row i + 2. */
export class LineGrid {
  readonly lines: unknown[][];
  width: number;
  private readonly dirty = new Set<number>();

  constructor(lines: unknown[][], width: number) {
    this.width = width;
    this.lines = lines;
    for (const line of lines) while (line.length < width) line.push('');
  }

  get length(): number {
    return this.lines.length;
  }

  get(line: number, column: number): unknown {
    const value = this.lines[line]?.[column];
    return value === undefined ? '' : value;
  }

  /** Sets a cell; returns whether it changed. */
  set(line: number, column: number, value: unknown): boolean {
    const row = this.lines[line];
    if (!row) throw new Error(`No line ${line}`);
    if (sameCell(row[column], value)) return false;
    row[column] = value;
    this.dirty.add(line);
    return true;
  }

  appendLine(): number {
    this.lines.push(new Array<unknown>(this.width).fill(''));
    return this.lines.length - 1;
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
}

/** The base sheet's records in sheet order (row i + 2), addressable by row id. */
export class BaseTable {
  columnIds: string[];
  headerChanged = false;
  private readonly records: Array<BaseRecord | null> = [];
  private readonly indexById = new Map<string, number>();
  private readonly dirty = new Set<number>();

  constructor(rows: readonly (readonly unknown[])[], columnIds: string[]) {
    this.columnIds = columnIds;
    for (const row of rows) {
      const record = decodeBaseRow(row, columnIds);
      this.records.push(record ?? null);
      if (record && !this.indexById.has(record.id)) this.indexById.set(record.id, this.records.length - 1);
    }
  }

  get(id: string): BaseRecord | undefined {
    const index = this.indexById.get(id);
    return index === undefined ? undefined : (this.records[index] ?? undefined);
  }

  has(id: string): boolean {
    return this.indexById.has(id);
  }

  set(record: BaseRecord): void {
    let index = this.indexById.get(record.id);
    if (index === undefined) {
      this.records.push(record);
      index = this.records.length - 1;
      this.indexById.set(record.id, index);
    } else {
      this.records[index] = record;
    }
    this.dirty.add(index);
  }

  /** Forgets a record (its base row is blanked on the next flush). */
  delete(id: string): void {
    const index = this.indexById.get(id);
    if (index === undefined) return;
    this.records[index] = null;
    this.indexById.delete(id);
    this.dirty.add(index);
  }

  /** Adds column ids to the digest list (never reorders, so stored rows stay readable). */
  ensureColumns(ids: readonly string[]): void {
    for (const id of ids) {
      if (!this.columnIds.includes(id)) {
        this.columnIds.push(id);
        this.headerChanged = true;
      }
    }
  }

  all(): BaseRecord[] {
    return this.records.filter((record): record is BaseRecord => record !== null);
  }

  get size(): number {
    return this.records.length;
  }

  /** Dirty rows as spans [firstIndex, encodedRows] of contiguous indexes. */
  takeDirtySpans(): Array<{ start: number; rows: string[][] }> {
    const indexes = [...this.dirty].sort((a, b) => a - b);
    this.dirty.clear();
    if (this.headerChanged && this.records.length > 0) {
      // A new digest column changes how every row is read: rewrite them all.
      indexes.length = 0;
      for (let i = 0; i < this.records.length; i++) indexes.push(i);
    }
    const spans: Array<{ start: number; rows: string[][] }> = [];
    if (indexes.length === 0) return spans;
    // One span from the first to the last dirty row: a single range write per flush.
    const start = indexes[0] as number;
    const end = indexes[indexes.length - 1] as number;
    const rows: string[][] = [];
    for (let i = start; i <= end; i++) {
      const record = this.records[i];
      rows.push(record ? encodeBaseRow(record, this.columnIds) : ['', '', '', '', '', '']);
    }
    spans.push({ start, rows });
    return spans;
  }
}
