// Push planning, as pure logic over in-memory lines: which lines are edited (against the base), which
// are new, which cannot be sent and why; and how a create whose answer was lost is found again.
import type { BaseRecord } from './base';
import { cellDigest, type DecodeContext, type JsonValue } from './codec';
import type { ColumnSpec } from './columns';
import type { Digest } from './digest';
import { ID_HEADER, type Layout } from './layout';
import { cellsByGet, cellText, type LineIndex, sheetRowOf } from './lines';
import { cellEdits, type LineEdits, newCellValues } from './merge';
import type { BaseTable, LineGrid } from './sheet-model';
import {
  duplicateStatus,
  notCreatedStatus,
  notPushedStatus,
  pendingTokenOf,
  unknownRowStatus,
} from './status';

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
  // Sheet positions of the live columns (-1: not in the sheet), of the fixed fields but the id, and of
  // dead columns: looked up once, not per line.
  const at = live.map((column) => layout.columns.get(column.id) ?? -1);
  const fixedFields: string[] = [];
  const fixedColumns: number[] = [];
  for (const [field, column] of layout.fixed) {
    if (field === ID_HEADER) continue;
    fixedFields.push(field);
    fixedColumns.push(column);
  }
  const deletedIds = [...layout.deleted.keys()];
  const deletedColumns = [...layout.deleted.values()];
  for (let line = 0; line < grid.length; line++) {
    // The line's own cells when loaded whole (cellText reads a missing cell as '', like get).
    const cells = grid.lineCells(line);
    const rowId = idColumn === undefined ? '' : cellText(cells ? cells[idColumn] : grid.get(line, idColumn));
    if (rowId === '') {
      const values = newCellValues(cells ?? cellsByGet(grid, line, at), at, live, context);
      if (values.errors.length > 0) {
        plan.errors.push({ line, status: notCreatedStatus(values.errors) });
      } else if (Object.keys(values.values).length > 0) {
        const status = statusColumn === undefined ? '' : grid.get(line, statusColumn);
        plan.creates.push({
          line,
          values: values.values,
          digests: values.digests,
          pendingToken: pendingTokenOf(status),
        });
      }
      continue;
    }
    const duplicateLines = index.duplicates.get(rowId);
    if (duplicateLines) {
      plan.errors.push({
        line,
        status: duplicateStatus(rowId, duplicateLines.map(sheetRowOf)),
      });
      continue;
    }
    const record = base.get(rowId);
    if (!record) {
      plan.errors.push({
        line,
        status: unknownRowStatus(rowId),
      });
      continue;
    }
    // Lists are only allocated when something goes in them: most lines need nothing.
    let reverted: string[] | null = null;
    for (let f = 0; f < fixedFields.length; f++) {
      const field = fixedFields[f] as string;
      const column = fixedColumns[f] as number;
      const expected = expectedFixedValue(record, field);
      if (expected !== undefined && cellText(cells ? cells[column] : grid.get(line, column)) !== expected) {
        grid.set(line, column, expected);
        reverted ??= [];
        reverted.push(field);
      }
    }
    if (reverted) plan.reverted.push({ line, fields: reverted });
    let deadEdits: string[] | null = null;
    for (let d = 0; d < deletedIds.length; d++) {
      const columnId = deletedIds[d] as string;
      const digest = record.digests[columnId];
      if (digest !== undefined && cellDigest(grid.get(line, deletedColumns[d] as number)) !== digest) {
        deadEdits ??= [];
        deadEdits.push(columnId);
      }
    }
    const edits = cellEdits(cells ?? cellsByGet(grid, line, at), at, record, live, context);
    if (deadEdits || edits.errors.length > 0) {
      const problems = [
        ...(deadEdits ?? []).map(
          (columnId) =>
            `${columnId}: this column no longer exists on the service, so the edit cannot be sent`,
        ),
        ...edits.errors,
      ];
      plan.errors.push({ line, status: notPushedStatus(problems) });
    } else if (Object.keys(edits.values).length > 0) {
      plan.updates.push({ line, rowId, base: record, edits });
    } else {
      plan.unchanged += 1;
    }
  }
  return plan;
}

export {
  type Candidate,
  findChangedLostCreate,
  findLostCreate,
  pendingRecord,
  sentDigests,
} from './recovery';
