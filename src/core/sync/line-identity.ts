// Whether a line is the row its id cell names. People sort or swap id cells alone; the line's lMod
// cell then shows another row's value. Such a line is not that row: nothing of it is sent to either
// row (a PATCH would carry every column of one row onto the other).
import type { BaseRecord } from '../base';
import type { BaseTable } from '../base-table';
import { type CellValue, cellDigestFor } from '../codec';
import type { ColumnSpec } from '../columns';
import type { Digest } from '../digest';
import { ID_HEADER, type Layout, LMOD_HEADER } from '../layout';
import type { LineGrid } from '../line-grid';
import { cellText, indexLines } from '../lines';

/** The lMod a synced line of this record shows. */
export function shownLMod(record: BaseRecord): string {
  const shown = record.shown?.lMod;
  return shown !== undefined ? String(shown) : record.lMod;
}

/**
 * Whether a line may show this lMod for a row: the one the row shows, the agreed one, or its
 * conflict's (the lMods LModOwners files the row under).
 */
export function showsLMod(record: BaseRecord, lModText: string): boolean {
  return (
    lModText === shownLMod(record) ||
    lModText === record.lMod ||
    lModText === record.conflict?.lMod ||
    lModText === lineShowsLMod(record)
  );
}

/** The lMod a row's line still shows where the write of the one it should show was lost, if any. */
function lineShowsLMod(record: BaseRecord): string | undefined {
  const lMod = record.lineShows?.lMod;
  return lMod === undefined ? undefined : String(lMod);
}

/**
 * Which row shows which lMod, worked out once per push or pull, on the first line that needs it: the
 * rows' records as the base held them then (a pull's own merges since do not move them).
 */
export class LModOwners {
  private owners: Map<string, BaseRecord[]> | null = null;
  /** Per lMod and column, the sharing rows by agreed digest: one row as itself, several as a list. */
  private readonly byValue = new Map<string, Map<string, Map<Digest, string | string[]>>>();

  constructor(private readonly base: BaseTable) {}

  /**
   * Whether a line's lMod cell is the lMod exactly one other row than `rowId` shows: the line is that
   * row's. A value no row shows (a person typed into the read-only cell) is not, and is put back.
   */
  belongsToAnotherRow(lModText: string, rowId: string): boolean {
    return this.anotherRowOf(lModText, rowId) !== undefined;
  }

  /** The one other row than `rowId` that shows this lMod, if any. */
  anotherRowOf(lModText: string, rowId: string): string | undefined {
    if (lModText === '') return undefined;
    const owners = this.ownersByLMod().get(lModText);
    const owner = owners?.length === 1 ? owners[0]?.id : undefined;
    return owner !== undefined && owner !== rowId ? owner : undefined;
  }

  /** Every row that shows this lMod (one, several or none), their records as the index found them. */
  rowsShowing(lModText: string): readonly BaseRecord[] {
    if (lModText === '') return [];
    return this.ownersByLMod().get(lModText) ?? [];
  }

  /**
   * The rows that show this lMod when several rows show it (written in one batch, or by a service whose
   * stamps are coarse): the lMod alone cannot say which of them a line is, the line's values can
   * (`holdsMoreOf`). Empty when one row or none shows it. The whole group, the asking row included: a
   * batch of 100,000 rows is not copied for each of its lines. Their records as the index found them.
   */
  rowsSharing(lModText: string): readonly BaseRecord[] {
    if (lModText === '') return [];
    const owners = this.ownersByLMod().get(lModText);
    return owners && owners.length > 1 ? owners : [];
  }

  /**
   * The rows sharing this lMod whose agreed value of the column has this digest: the only rows whose
   * values a line holding that value where its own row's differs can hold more of. Indexed per lMod
   * and column on first use, so a line's check costs its own cells, not the whole batch; by the
   * records the lMod index found (no look-up in the base for each of a batch's rows).
   */
  rowsHoldingValue(lModText: string, columnId: string, digest: Digest): readonly string[] {
    const group = this.rowsSharing(lModText);
    if (group.length === 0) return [];
    let byColumn = this.byValue.get(lModText);
    if (!byColumn) {
      byColumn = new Map();
      this.byValue.set(lModText, byColumn);
    }
    let byDigest = byColumn.get(columnId);
    if (!byDigest) {
      byDigest = new Map();
      for (const record of group) {
        const held = record.digests[columnId];
        if (held === undefined) continue;
        const rowId = record.id;
        const rows = byDigest.get(held);
        // Most values are one row's: no list is made for each of a batch's 100,000 rows.
        if (rows === undefined) byDigest.set(held, rowId);
        else if (typeof rows === 'string') byDigest.set(held, [rows, rowId]);
        else rows.push(rowId);
      }
      byColumn.set(columnId, byDigest);
    }
    const rows = byDigest.get(digest);
    if (rows === undefined) return [];
    return typeof rows === 'string' ? [rows] : rows;
  }

  /** A row's base record. */
  record(rowId: string): BaseRecord | undefined {
    return this.base.get(rowId);
  }

  private ownersByLMod(): Map<string, BaseRecord[]> {
    if (this.owners) return this.owners;
    const owners = new Map<string, BaseRecord[]>();
    const addOwner = (lMod: string | undefined, record: BaseRecord): void => {
      if (lMod === undefined || lMod === '') return;
      const rows = owners.get(lMod);
      if (!rows) owners.set(lMod, [record]);
      else rows.push(record);
    };
    for (const record of this.base.all()) {
      // A line may show any lMod its row had since the last agreement: the one shown then, the agreed
      // one, or the service's of a conflict (a pull writes it onto the line; a push that meets the
      // conflict again keeps the agreed one: team chaos seed 20240121). Each record once per lMod (no
      // look through a batch of 100,000 rows), and no set built per record to say so.
      const shown = shownLMod(record);
      const agreed = record.lMod;
      const conflicting = record.conflict?.lMod;
      addOwner(shown, record);
      if (agreed !== shown) addOwner(agreed, record);
      if (conflicting !== shown && conflicting !== agreed) addOwner(conflicting, record);
      // And the lMod its line still shows where a push's write of the new one was lost.
      const onLine = record.lineShows ? lineShowsLMod(record) : undefined;
      if (onLine !== undefined && onLine !== shown && onLine !== agreed && onLine !== conflicting)
        addOwner(onLine, record);
    }
    this.owners = owners;
    return owners;
  }
}

/**
 * Whether more of a line's synced cells hold `other`'s agreed values than `own`'s: the line is the
 * other row's (its id cell was swapped or sorted alone). `cellOf` gives the line's cell of a column
 * (undefined: the column is not in the sheet).
 */
export function holdsMoreOf(
  cellOf: (column: ColumnSpec) => unknown,
  live: readonly ColumnSpec[],
  other: BaseRecord,
  own: BaseRecord,
): boolean {
  return holdsMoreByDigests(cellDigestsOf(cellOf, live), live, other, own, Number.POSITIVE_INFINITY);
}

/** holdsMoreOf of a line whose cell digests are known (lineDigests). */
export function digestsHoldMoreOf(
  digests: ReadonlyArray<Digest | undefined>,
  live: readonly ColumnSpec[],
  other: BaseRecord,
  own: BaseRecord,
): boolean {
  return holdsMoreByDigests(digests, live, other, own, Number.POSITIVE_INFINITY);
}

/** A line's cell digests, column by column (undefined: the column is not in the sheet). */
export function cellDigestsOf(
  cellOf: (column: ColumnSpec) => unknown,
  live: readonly ColumnSpec[],
): Array<Digest | undefined> {
  return live.map((column) => {
    const value = cellOf(column);
    return value === undefined ? undefined : cellDigestFor(value as CellValue, column.kind);
  });
}

/**
 * Whether every cell of a line the sheet has holds its own row's agreed value (most lines): such a line
 * holds more of no other row's values, so it is its own row's whatever rows share its lMod, and the
 * check weighs nothing (no index of the rows sharing its lMod is built for it).
 */
export function holdsOnlyOwnValues(
  digests: ReadonlyArray<Digest | undefined>,
  live: readonly ColumnSpec[],
  own: BaseRecord,
): boolean {
  const ownDigests = own.digests;
  for (let i = 0; i < live.length; i++) {
    const digest = digests[i];
    if (digest !== undefined && digest !== ownDigests[(live[i] as ColumnSpec).id]) return false;
  }
  return true;
}

/**
 * The row among `candidates` (rows sharing the line's lMod) whose values the line holds more of than
 * its own row's, when that row's own line does not hold them: ids swapped or sorted alone move a row's
 * values away from the line showing its id, while a person who typed another row's values into a
 * line (a deal closed like its neighbour) leaves that row's line as it was. `digests` are the line's
 * cell digests (cellDigestsOf; the caller has them for its merge or plan); `cellsOfLine` gives another
 * line's cell of a column; `lineOf` the line showing a row's id.
 */
export function rowWhoseValuesItHolds(
  line: number,
  digests: ReadonlyArray<Digest | undefined>,
  cellsOfLine: (line: number) => (column: ColumnSpec) => unknown,
  lineOf: (rowId: string) => number | undefined,
  live: readonly ColumnSpec[],
  owners: LModOwners,
  lMod: string,
  own: BaseRecord,
): string | undefined {
  const { notOwn, candidates } = weighedRows(digests, live, owners, lMod, own);
  for (const candidate of candidates) {
    const record = owners.record(candidate);
    if (!record || !holdsMoreByDigests(digests, live, record, own, notOwn)) continue;
    const itsLine = lineOf(candidate);
    if (itsLine !== undefined && itsLine !== line && holdsMoreOf(cellsOfLine(itsLine), live, record, own))
      continue;
    return candidate;
  }
  return undefined;
}

/** Rows to weigh past which the other way of finding them is looked at. */
const MANY_ROWS_TO_WEIGH = 64;

/**
 * How many of a line's cells do not hold its own row's value, and the rows sharing its lMod that hold
 * one of those values: another row's values can be held only where the line does not hold its own, so
 * a line holding its own values (most lines) weighs no row and looks up no owner, and the rows weighed
 * are found by value, whatever the size of the batch sharing the lMod.
 */
function weighedRows(
  digests: ReadonlyArray<Digest | undefined>,
  live: readonly ColumnSpec[],
  owners: LModOwners,
  lMod: string,
  own: BaseRecord,
): { notOwn: number; candidates: Set<string> } {
  const candidates = new Set<string>();
  if (holdsOnlyOwnValues(digests, live, own) || owners.rowsSharing(lMod).length === 0)
    return { notOwn: 0, candidates };
  // A row outweighs the line's own only by holding one of the line's other values, and by differing
  // from the own row in fewer of the cells that hold the own row's value than the line has other
  // values (k): it holds the own row's value in at least one of any k of those cells. Of the two ways
  // to find such rows, the one with fewer rows to weigh is taken.
  const otherValued: Array<readonly string[]> = [];
  const ownValuedColumns: number[] = [];
  live.forEach((column, i) => {
    const digest = digests[i];
    if (digest === undefined) return;
    if (digest === own.digests[column.id]) ownValuedColumns.push(i);
    else otherValued.push(owners.rowsHoldingValue(lMod, column.id, digest));
  });
  const notOwn = otherValued.length;
  const sizeOf = (sets: ReadonlyArray<readonly string[]>) => sets.reduce((sum, rows) => sum + rows.length, 0);
  let sources = otherValued;
  // Values many rows of the batch hold (a status filled down): the own row's values are rarer.
  if (sizeOf(otherValued) > MANY_ROWS_TO_WEIGH && ownValuedColumns.length >= notOwn) {
    const ownValued = ownValuedColumns.map((i) => {
      const column = live[i] as ColumnSpec;
      return owners.rowsHoldingValue(lMod, column.id, own.digests[column.id] as Digest);
    });
    const rarest = ownValued.sort((a, b) => a.length - b.length).slice(0, notOwn);
    if (sizeOf(rarest) < sizeOf(otherValued)) sources = rarest;
  }
  for (const rows of sources) for (const rowId of rows) candidates.add(rowId);
  candidates.delete(own.id);
  return { notOwn, candidates };
}

/**
 * Whether more of a line's cell digests are `other`'s agreed ones than `own`'s, where the two differ.
 * `notOwn` (cells not holding own's value) bounds what `other` can count, so a row differing from own
 * where the line holds own's values is left at once (holdsMoreOf has no bound).
 */
function holdsMoreByDigests(
  digests: ReadonlyArray<Digest | undefined>,
  live: readonly ColumnSpec[],
  other: BaseRecord,
  own: BaseRecord,
  notOwn: number,
): boolean {
  let otherCount = 0;
  let ownCount = 0;
  for (let i = 0; i < live.length; i++) {
    const id = (live[i] as ColumnSpec).id;
    const otherDigest = other.digests[id];
    const ownDigest = own.digests[id];
    if (otherDigest === ownDigest) continue;
    const digest = digests[i];
    if (digest === undefined) continue;
    if (digest === otherDigest) otherCount++;
    else if (digest === ownDigest && ++ownCount >= notOwn) return false;
  }
  return otherCount > ownCount;
}

/**
 * The lines a check of `lines` (rowWhoseValuesItHolds) compares them with that a grid read in part has
 * not loaded: the lines of other rows showing the same lMod (one batch wrote them) whose values one of
 * `lines` holds more of than its own. Rare; the caller loads them, re-identified first.
 */
export function linesToCompareWith(
  grid: LineGrid,
  layout: Layout,
  live: readonly ColumnSpec[],
  base: BaseTable,
  lines: readonly number[],
): number[] {
  const idColumn = layout.fixed.get(ID_HEADER);
  const lModColumn = layout.fixed.get(LMOD_HEADER);
  if (idColumn === undefined || lModColumn === undefined) return [];
  const owners = new LModOwners(base);
  let lineById: ReadonlyMap<string, number> | undefined;
  const wanted = new Set<number>();
  for (const line of lines) {
    if (!grid.isLoaded(line)) continue;
    const rowId = cellText(grid.get(line, idColumn));
    const own = base.get(rowId);
    if (!own) continue;
    const cellOf = (column: ColumnSpec): unknown => {
      const at = layout.columns.get(column.id);
      return at === undefined ? undefined : grid.get(line, at);
    };
    const lMod = cellText(grid.get(line, lModColumn));
    const digests = cellDigestsOf(cellOf, live);
    const { notOwn, candidates } = weighedRows(digests, live, owners, lMod, own);
    for (const other of candidates) {
      const record = base.get(other);
      if (!record || !holdsMoreByDigests(digests, live, record, own, notOwn)) continue;
      lineById ??= indexLines(grid, layout).lineById;
      const at = lineById.get(other);
      if (at !== undefined && at !== line && !grid.isLoaded(at)) wanted.add(at);
    }
  }
  return [...wanted];
}
