// Whether a line is the row its id cell names. People sort or swap id cells alone; the line's lMod
// cell then shows another row's value. Such a line is not that row: nothing of it is sent to either
// row (a PATCH would carry every column of one row onto the other).
import type { BaseRecord } from '../base';
import type { BaseTable } from '../base-table';
import { type CellValue, cellDigestFor } from '../codec';
import type { ColumnSpec } from '../columns';
import { ID_HEADER, type Layout, LMOD_HEADER } from '../layout';
import type { LineGrid } from '../line-grid';
import { cellText, indexLines } from '../lines';

/** The lMod a synced line of this record shows. */
export function shownLMod(record: BaseRecord): string {
  const shown = record.shown?.lMod;
  return shown !== undefined ? String(shown) : record.lMod;
}

/** Which row shows which lMod, worked out once per push, on the first line that needs it. */
export class LModOwners {
  private owners: Map<string, string[]> | null = null;

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
    const owner = owners?.length === 1 ? owners[0] : undefined;
    return owner !== undefined && owner !== rowId ? owner : undefined;
  }

  /**
   * The other rows than `rowId` that show this lMod when several rows show it (written in one batch,
   * or by a service whose stamps are coarse): the lMod alone cannot say which of them a line is, the
   * line's values can (`holdsMoreOf`). Empty when one row or none shows it.
   */
  othersSharing(lModText: string, rowId: string): string[] {
    if (lModText === '') return [];
    const owners = this.ownersByLMod().get(lModText);
    return owners && owners.length > 1 ? owners.filter((owner) => owner !== rowId) : [];
  }

  private ownersByLMod(): Map<string, string[]> {
    if (this.owners) return this.owners;
    const owners = new Map<string, string[]>();
    for (const record of this.base.all()) {
      // A line may show any lMod its row had since the last agreement: the one shown then, the agreed
      // one, or the service's of a conflict (a pull writes it onto the line; a push that meets the
      // conflict again keeps the agreed one: team chaos seed 20240121).
      for (const lMod of new Set([shownLMod(record), record.lMod, record.conflict?.lMod])) {
        if (lMod === undefined || lMod === '') continue;
        const rows = owners.get(lMod);
        if (!rows) owners.set(lMod, [record.id]);
        else if (!rows.includes(record.id)) rows.push(record.id);
      }
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
  let otherCount = 0;
  let ownCount = 0;
  for (const column of live) {
    const otherDigest = other.digests[column.id];
    const ownDigest = own.digests[column.id];
    if (otherDigest === ownDigest) continue;
    const value = cellOf(column);
    if (value === undefined) continue;
    const digest = cellDigestFor(value as CellValue, column.kind);
    if (digest === otherDigest) otherCount++;
    else if (digest === ownDigest) ownCount++;
  }
  return otherCount > ownCount;
}

/**
 * The row among `candidates` (rows sharing the line's lMod) whose values the line holds more of than
 * its own row's, when that row's own line does not hold them: ids swapped or sorted alone move a row's
 * values away from the line showing its id, while a person who typed another row's values into a
 * line (a deal closed like its neighbour) leaves that row's line as it was. `cellsOfLine` gives a
 * line's cell of a column; `lineOf` the line showing a row's id.
 */
export function rowWhoseValuesItHolds(
  line: number,
  cellsOfLine: (line: number) => (column: ColumnSpec) => unknown,
  lineOf: (rowId: string) => number | undefined,
  live: readonly ColumnSpec[],
  base: BaseTable,
  candidates: readonly string[],
  own: BaseRecord,
): string | undefined {
  const cellOf = cellsOfLine(line);
  for (const candidate of candidates) {
    const record = base.get(candidate);
    if (!record || !holdsMoreOf(cellOf, live, record, own)) continue;
    const itsLine = lineOf(candidate);
    if (itsLine !== undefined && itsLine !== line && holdsMoreOf(cellsOfLine(itsLine), live, record, own))
      continue;
    return candidate;
  }
  return undefined;
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
    for (const other of owners.othersSharing(cellText(grid.get(line, lModColumn)), rowId)) {
      const record = base.get(other);
      if (!record || !holdsMoreOf(cellOf, live, record, own)) continue;
      lineById ??= indexLines(grid, layout).lineById;
      const at = lineById.get(other);
      if (at !== undefined && at !== line && !grid.isLoaded(at)) wanted.add(at);
    }
  }
  return [...wanted];
}
