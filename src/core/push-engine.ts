// Push planning, as pure logic over in-memory lines: which lines are edited (against the base), which
// are new, which cannot be sent and why; and how a create whose answer was lost is found again.
import type { BaseRecord } from './base';
import { cellDigest, type DecodeContext, type JsonValue } from './codec';
import type { ColumnSpec } from './columns';
import type { Digest } from './digest';
import { ID_HEADER, type Layout } from './layout';
import { type LineEdits, lineEdits, newLineValues } from './merge';
import { cellText, type LineIndex } from './pull-engine';
import type { BaseTable, LineGrid } from './sheet-model';
import { duplicateStatus, errorStatus, pendingSince } from './status';

export interface UpdatePlan {
  line: number;
  rowId: string;
  base: BaseRecord;
  edits: LineEdits;
}

export interface CreatePlan {
  line: number;
  values: Record<string, JsonValue>;
  digests: Record<string, Digest>;
  /** Token of an earlier create whose answer was lost, if any. */
  pendingToken: string | null;
}

export interface PushPlan {
  updates: UpdatePlan[];
  creates: CreatePlan[];
  /** Lines that cannot be sent, with the status to show. */
  errors: Array<{ line: number; status: string }>;
  /** Lines whose read-only fixed-field cells were restored. */
  reverted: Array<{ line: number; fields: string[] }>;
  unchanged: number;
}

export interface PushState {
  grid: LineGrid;
  layout: Layout;
  live: readonly ColumnSpec[];
  base: BaseTable;
  index: LineIndex;
}

function expectedFixedValue(record: BaseRecord, field: string): string | undefined {
  const shown = record.shown?.[field];
  if (shown !== undefined) return String(shown);
  return field === 'lMod' ? record.lMod : undefined;
}

/** Reads every line once and sorts it into updates, creates, errors and unchanged lines. */
export function planPush(state: PushState, context: DecodeContext): PushPlan {
  const { grid, layout, live, base, index } = state;
  const plan: PushPlan = { updates: [], creates: [], errors: [], reverted: [], unchanged: 0 };
  const idColumn = layout.fixed.get(ID_HEADER);
  const statusColumn = layout.status;
  for (let line = 0; line < grid.length; line++) {
    const local = (columnId: string): unknown => {
      const column = layout.columns.get(columnId);
      return column === undefined ? '' : grid.get(line, column);
    };
    const rowId = idColumn === undefined ? '' : cellText(grid.get(line, idColumn));
    if (rowId === '') {
      const values = newLineValues(local, live, context);
      if (values.errors.length > 0) {
        plan.errors.push({ line, status: errorStatus(`not created: ${values.errors.join('; ')}`) });
      } else if (Object.keys(values.values).length > 0) {
        const status = statusColumn === undefined ? '' : grid.get(line, statusColumn);
        plan.creates.push({
          line,
          values: values.values,
          digests: values.digests,
          pendingToken: pendingSince(status),
        });
      }
      continue;
    }
    const duplicateLines = index.duplicates.get(rowId);
    if (duplicateLines) {
      plan.errors.push({
        line,
        status: duplicateStatus(
          rowId,
          duplicateLines.map((each) => each + 2),
        ),
      });
      continue;
    }
    const record = base.get(rowId);
    if (!record) {
      plan.errors.push({
        line,
        status: errorStatus(
          `row id ${rowId} is not from the last pull of this table: pull first, or clear the id to create a new row`,
        ),
      });
      continue;
    }
    const reverted: string[] = [];
    for (const [field, column] of layout.fixed) {
      if (field === ID_HEADER) continue;
      const expected = expectedFixedValue(record, field);
      if (expected !== undefined && cellText(grid.get(line, column)) !== expected) {
        grid.set(line, column, expected);
        reverted.push(field);
      }
    }
    if (reverted.length > 0) plan.reverted.push({ line, fields: reverted });
    const deadEdits: string[] = [];
    for (const [columnId, column] of layout.dead) {
      const digest = record.digests[columnId];
      if (digest !== undefined && cellDigest(grid.get(line, column)) !== digest) deadEdits.push(columnId);
    }
    const edits = lineEdits(local, record, live, context);
    const problems = [
      ...deadEdits.map(
        (columnId) => `${columnId}: this column no longer exists on the service, so the edit cannot be sent`,
      ),
      ...edits.errors,
    ];
    if (problems.length > 0) {
      plan.errors.push({ line, status: errorStatus(`not pushed: ${problems.join('; ')}`) });
    } else if (Object.keys(edits.values).length > 0) {
      plan.updates.push({ line, rowId, base: record, edits });
    } else {
      plan.unchanged += 1;
    }
  }
  return plan;
}

export { type Candidate, findLostCreate, pendingRecord, sentDigests } from './recovery';
