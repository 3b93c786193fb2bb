import type { BaseRecord } from '../../base';
import type { BaseTable } from '../../base-table';
import type { DecodeContext } from '../../codec';
import type { ColumnSpec } from '../../columns';
import type { Layout } from '../../layout';
import type { LineGrid } from '../../line-grid';
import type { LineIndex } from '../../lines';
import type { LModOwners } from '../line-identity';

export interface PullCounts {
  added: number;
  updated: number;
  unchanged: number;
  keptLocal: number;
  conflicts: number;
  removedOnService: number;
  errors: number;
  /** Rows the base knows whose lines are gone from the sheet: held for a person's review, not added back. */
  awaitingReview: number;
}

export function emptyPullCounts(): PullCounts {
  return {
    added: 0,
    updated: 0,
    unchanged: 0,
    keptLocal: 0,
    conflicts: 0,
    removedOnService: 0,
    errors: 0,
    awaitingReview: 0,
  };
}

export interface PullState {
  grid: LineGrid;
  layout: Layout;
  live: readonly ColumnSpec[];
  base: BaseTable;
  index: LineIndex;
  pullId: string;
  counts: PullCounts;
  /** How a fixed field shows (e.g. createdBy as an e-mail); default: its text. */
  displayFixed?: (field: string, value: unknown) => string;
  /** New lines whose create was sent but not answered: a pull adopts the row it made, never adds it twice. */
  pending?: PendingCreates;
  /**
   * Column ids this pull added (back) to the sheet: their empty cells are not edits, every line
   * takes the service's value (an absent column is never "kept local edits").
   */
  freshColumns?: ReadonlySet<string>;
  /**
   * Reads edited cells as a push would: a line whose kept edits cannot be sent keeps saying why
   * (a pull never hides a push's reason behind "local edits not pushed yet").
   */
  decode?: DecodeContext;
  /**
   * Rows no line shows by id that a line whose id cell was cleared or typed over may stand for (it
   * could not tell which): not missing from the sheet (findEditedIds).
   */
  standing?: ReadonlySet<string>;
  /** Which row shows which lMod, worked out from the base on the first line that needs it. */
  lModOwners?: LModOwners;
}

export interface PendingCreates {
  me: string;
  lines: Array<{ line: number; record: BaseRecord }>;
}

export function setStatus(state: PullState, line: number, status: string): void {
  if (state.layout.status !== undefined) state.grid.set(line, state.layout.status, status);
}

export function statusOf(state: PullState, line: number): unknown {
  return state.layout.status === undefined ? '' : state.grid.get(line, state.layout.status);
}
