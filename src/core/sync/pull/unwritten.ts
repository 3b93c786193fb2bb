// After a chunk's write: what the write could not settle. A line it could not find again (moved
// beyond finding, its columns moved) was not written, so its row's base must not move either; a cell
// a person typed into while the pull wrote it kept their typing, so the row is merged again with that
// typing as the line's value (a conflict where the service changed the cell too).
import type { BaseRecord } from '../../base';
import { ID_HEADER } from '../../layout';
import { cellText } from '../../lines';
import { applyServiceRows } from './apply-rows';
import type { PullState } from './pull-state';

type ServiceRow = Readonly<Record<string, unknown>>;

/**
 * Settles the rows of a written chunk whose write did not land whole. `before` holds each merged
 * row's base record before the merge. Returns whether lines changed again (to be written).
 */
export function settleUnwrittenRows(
  state: PullState,
  rows: readonly ServiceRow[],
  before: ReadonlyMap<string, BaseRecord | undefined>,
): boolean {
  const { grid, base, index } = state;
  for (const [id, agreed] of before) {
    const line = index.lineById.get(id);
    if (line === undefined || grid.physicalRow(line) >= 0) continue;
    // Not written: the next pull merges the row again against the base it had.
    if (agreed) base.set(agreed);
    else base.delete(id);
  }
  const kept = grid.takeKept();
  const idColumn = state.layout.fixed.get(ID_HEADER);
  if (kept.length === 0 || idColumn === undefined) return false;
  const typedInto = new Set(kept.map((cell) => cellText(grid.get(cell.line, idColumn))));
  const again = rows.filter((row) => typedInto.has(String(row.id)) && before.has(String(row.id)));
  if (again.length === 0) return false;
  for (const row of again) {
    const agreed = before.get(String(row.id));
    if (agreed) base.set(agreed);
    else base.delete(String(row.id));
  }
  // The lines hold what the sheet holds now (the typing): merged three-way against the last agreement.
  applyServiceRows(state, again);
  return true;
}
