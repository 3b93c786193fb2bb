// In-memory copy of the base sheet (what the sheet and the service last agreed, per row), with dirty
// tracking; lazy like the lines: only ids and seen marks are read up front, whole records on demand.
import { BASE_WRITTEN_WIDTH, type BaseRecord, decodeBaseRow, encodeBaseRow } from './base';
import { type RowLoader, spansOf } from './row-spans';

/**
 * Base rows closer than this are written together. A base write reads nothing first, so a span
 * costs two queued calls (getRange, setValues: about 4 ms) against two cells a row joined across
 * (about 0.06 ms written): scattered rows of a re-pull are written apart, not as one long span.
 */
export const BASE_WRITE_GAP = 50;

interface PartialBase {
  id: string;
  seen: string;
}

/** The base sheet's records in sheet order (row i + 2), addressable by row id. */
export class BaseTable {
  columnIds: string[];
  headerChanged = false;
  private readonly records: Array<BaseRecord | PartialBase | null> = [];
  private readonly partial = new Set<number>();
  private readonly indexById = new Map<string, number>();
  private readonly dirty = new Set<number>();
  /** Rows whose id cell changed (a record added or forgotten) since the last flush. */
  private readonly idChanged = new Set<number>();
  private readonly loader: RowLoader | null;
  /** Seen marks of this execution (one pull id per run), by row index; written only when a pull continues elsewhere. */
  private seenPullId: string | null = null;
  private readonly seenNow = new Set<number>();

  /**
   * Eager: whole base rows. Lazy: rows of [id, seen] only, whole rows read by `loader` on demand.
   */
  constructor(rows: readonly (readonly unknown[])[], columnIds: string[], lazy?: { loader: RowLoader }) {
    this.columnIds = columnIds;
    this.loader = lazy?.loader ?? null;
    for (const row of rows) {
      if (lazy) {
        const id = row[0] === '' || row[0] === null || row[0] === undefined ? '' : String(row[0]);
        this.records.push(id ? { id, seen: String(row[1] ?? '') } : null);
        if (id) this.partial.add(this.records.length - 1);
      } else {
        this.records.push(decodeBaseRow(row, columnIds) ?? null);
      }
      const record = this.records[this.records.length - 1];
      if (record && !this.indexById.has(record.id)) this.indexById.set(record.id, this.records.length - 1);
    }
  }

  /** Loads whole records for these row ids (lazy tables), in as few reads as spans allow. */
  ensureLoaded(ids: Iterable<string>): void {
    if (!this.loader || this.partial.size === 0) return;
    const indexes: number[] = [];
    for (const id of ids) {
      const index = this.indexById.get(id);
      if (index !== undefined && this.partial.has(index)) indexes.push(index);
    }
    indexes.sort((a, b) => a - b);
    for (const [first, last] of spansOf(indexes)) {
      const rows = this.loader(first, last - first + 1);
      for (let i = 0; i < rows.length; i++) {
        const index = first + i;
        if (!this.partial.has(index)) continue;
        this.records[index] = decodeBaseRow(rows[i] ?? [], this.columnIds) ?? null;
        this.partial.delete(index);
      }
    }
  }

  private loadAll(): void {
    if (this.partial.size === 0) return;
    const ids: string[] = [];
    for (const index of this.partial) ids.push((this.records[index] as PartialBase).id);
    this.ensureLoaded(ids);
  }

  get(id: string): BaseRecord | undefined {
    const index = this.indexById.get(id);
    if (index === undefined) return undefined;
    if (this.partial.has(index)) throw new Error(`Base record ${id} is not loaded`);
    return (this.records[index] as BaseRecord | null) ?? undefined;
  }

  /** The id of the last pull that saw this row; readable without loading the record. */
  seenOf(id: string): string | undefined {
    const index = this.indexById.get(id);
    if (index !== undefined && this.seenNow.has(index)) return this.seenPullId ?? undefined;
    const record = index === undefined ? null : this.records[index];
    return record ? (record as { seen?: string }).seen || undefined : undefined;
  }

  /** Notes that a pull saw this row, without rewriting its (unchanged) base row. */
  markSeen(id: string, pullId: string): void {
    const index = this.indexById.get(id);
    if (index === undefined) return;
    if (this.seenPullId !== pullId) {
      this.seenNow.clear();
      this.seenPullId = pullId;
    }
    this.seenNow.add(index);
  }

  /**
   * The seen marks of this execution as spans of the base's seen column, for a pull that goes on in
   * another execution (which must know which rows were already seen). Rows without a mark keep theirs.
   */
  takeSeenSpans(): Array<{ start: number; values: string[][] }> {
    const indexes: number[] = [];
    const pullId = this.seenPullId ?? '';
    for (const index of this.seenNow) {
      const record = this.records[index];
      if (!record) continue;
      (record as { seen?: string }).seen = pullId;
      indexes.push(index);
    }
    this.seenNow.clear();
    indexes.sort((a, b) => a - b);
    return spansOf(indexes).map(([start, end]) => {
      const values: string[][] = [];
      for (let i = start; i <= end; i++)
        values.push([(this.records[i] as { seen?: string } | null)?.seen ?? '']);
      return { start, values };
    });
  }

  has(id: string): boolean {
    return this.indexById.has(id);
  }

  /** Every row id the base holds (pending create tokens included). */
  ids(): string[] {
    return [...this.indexById.keys()];
  }

  set(record: BaseRecord): void {
    let index = this.indexById.get(record.id);
    if (index === undefined) {
      this.records.push(record);
      index = this.records.length - 1;
      this.indexById.set(record.id, index);
      this.idChanged.add(index);
    } else {
      this.records[index] = record;
      this.partial.delete(index);
    }
    this.dirty.add(index);
  }

  /** Forgets a record (its base row is blanked on the next flush). */
  delete(id: string): void {
    const index = this.indexById.get(id);
    if (index === undefined) return;
    this.records[index] = null;
    this.partial.delete(index);
    this.indexById.delete(id);
    this.dirty.add(index);
    this.idChanged.add(index);
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
    this.loadAll();
    return this.records.filter((record): record is BaseRecord => record !== null);
  }

  get size(): number {
    return this.records.length;
  }

  /** Dirty rows as spans of encoded rows, never crossing a row that is not loaded. */
  takeDirtySpans(): Array<{ start: number; rows: string[][]; withIds: boolean }> {
    // New digest columns are only ever appended: stored rows stay readable and are not rewritten.
    const indexes = [...this.dirty].sort((a, b) => a - b);
    this.dirty.clear();
    return spansOf(indexes, BASE_WRITE_GAP, (i) => !this.partial.has(i)).map(([start, end]) => {
      // Where no row of the span came or went, its ids stand: only the cells after them are written.
      let withIds = false;
      for (let i = start; i <= end && !withIds; i++) withIds = this.idChanged.has(i);
      const rows: string[][] = [];
      for (let i = start; i <= end; i++) {
        this.idChanged.delete(i);
        const record = this.records[i] as BaseRecord | null;
        const row = record
          ? encodeBaseRow(record, this.columnIds)
          : new Array<string>(BASE_WRITTEN_WIDTH).fill('');
        rows.push(withIds ? row : row.slice(1));
      }
      return { start, rows, withIds };
    });
  }
}
