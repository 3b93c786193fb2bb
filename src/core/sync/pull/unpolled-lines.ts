// After a pull by poll: what the lines of the rows it did not bring say. Those rows are unchanged on
// the service since the cursor, so a whole listing would have merged each with the service's side
// equal to its base: the line keeps its local edits and says so ("local edits not pushed yet", or
// why a push could not send them), or is unchanged. The poll reaches the same words without the rows.

import { keptLocalStatus, notPushedStatus } from '../../status';
import { isPendingToken } from '../lost-creates';
import { cellEdits } from '../push/line-edits';
import { type PullState, setStatus } from './pull-state';
import { markedRemoved, unseenRowIds } from './removed-rows';

/**
 * Counts and words the lines of rows the poll did not bring (a line already marked removed aside):
 * edited ones as kept local edits (or errors, with the push's reason), the others unchanged. A line
 * in conflict keeps its mark (the person decides), and a line not loaded (a sheet read in spans) is
 * only counted unchanged: its cells were never read, and a whole listing words it later.
 */
export function settleUnpolledLines(state: PullState): void {
  const { counts, layout, live } = state;
  // Rows whose lines were deleted from the sheet wait for review whether or not the poll brought them
  // (those it brought were counted as it merged them).
  for (const id of state.base.ids()) {
    if (isPendingToken(id) || state.index.lineById.has(id) || state.index.duplicates.has(id)) continue;
    if (state.base.seenOf(id) !== state.pullId) counts.awaitingReview += 1;
  }
  const at = live.map((column) => layout.columns.get(column.id) ?? -1);
  for (const id of unseenRowIds(state)) {
    if (markedRemoved(state, id)) continue;
    const line = state.index.lineById.get(id) as number;
    const record = state.base.get(id);
    const cells = state.grid.lineCells(line);
    if (!record || record.conflict || !cells || !state.decode) {
      if (!record?.conflict) counts.unchanged += 1;
      continue;
    }
    const edits = cellEdits(cells, at, record, live, state.decode);
    const edited = Object.keys(edits.digests);
    if (edits.errors.length > 0) {
      counts.errors += 1;
      setStatus(state, line, notPushedStatus(edits.errors));
    } else if (edited.length > 0) {
      counts.keptLocal += 1;
      setStatus(state, line, keptLocalStatus(edited));
    } else {
      counts.unchanged += 1;
    }
  }
}
