// Renamed-column detection, shared by pull and push: a synced column whose header is gone may stand
// under a new header; it is recognised by its cells still holding the agreed values.
import type { BaseTable } from '../base-table';
import { cellDigestFor } from '../codec';
import type { ColumnKind, ColumnSpec } from '../columns';
import { ID_HEADER, type Layout, renamedColumns } from '../layout';
import type { LineGrid } from '../line-grid';
import { cellText } from '../lines';

/**
 * Counts, for a column id and a sheet column, the lines whose row the base knows with a value agreed
 * in that column ([known]) and those whose cell there still holds it ([matching]): how renamedColumns recognises a
 * synced column under a new header. Loads every line (only asked when a synced header is gone).
 */
export function agreedCounter(
  grid: LineGrid,
  layout: Layout,
  base: BaseTable,
  /** Each synced column's kind (a list compares by its choices); text where not given. */
  kinds: ReadonlyMap<string, ColumnKind> = new Map(),
): (columnId: string, sheetColumn: number) => [number, number] {
  const idColumn = layout.fixed.get(ID_HEADER);
  const lines: number[] = [];
  for (let line = 0; line < grid.length; line++) lines.push(line);
  let loaded = false;
  return (columnId, sheetColumn) => {
    if (idColumn === undefined) return [0, 0];
    if (!loaded) {
      grid.ensureLoaded(lines);
      base.ensureLoaded(lines.map((line) => cellText(grid.get(line, idColumn))));
      loaded = true;
    }
    let known = 0;
    let matching = 0;
    const kind = kinds.get(columnId) ?? 'text';
    // An agreed empty cell is no evidence: every mostly empty column would match it (a column deleted
    // beside another renamed, both empty on most lines, was taken for the renamed one: chaos seed
    // 20240143).
    const empty = cellDigestFor('', kind);
    for (let line = 0; line < grid.length; line++) {
      const id = cellText(grid.get(line, idColumn));
      const digest = id === '' ? undefined : base.get(id)?.digests[columnId];
      if (digest === undefined || digest === empty) continue;
      known++;
      if (cellDigestFor(grid.get(line, sheetColumn), kind) === digest) matching++;
    }
    return [matching, known];
  };
}

/**
 * Synced columns a person renamed (column id → sheet column): such a column is not added again, and
 * renaming it back restores it, edits kept. Only looked for when a synced column's header is gone
 * (recognising one reads every line). `syncedBefore`: the column ids the base followed.
 */
export function findRenamedColumns(
  layout: Layout,
  live: readonly ColumnSpec[],
  syncedBefore: readonly string[],
  grid: LineGrid,
  base: BaseTable,
): Map<string, number> {
  const anyGone = live.some((column) => !layout.columns.has(column.id) && syncedBefore.includes(column.id));
  return anyGone
    ? renamedColumns(
        layout,
        live,
        syncedBefore,
        agreedCounter(grid, layout, base, new Map(live.map((column) => [column.id, column.kind]))),
      )
    : new Map<string, number>();
}
