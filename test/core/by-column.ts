// The merge and push-plan cores read through a reader by column id, as tests state lines: the cores
// take a line's cells by position (src/core/merge.ts); these adapters line the reader's values up.
import type { BaseRecord } from '../../src/core/base';
import type { CellValue, DecodeContext, EncodedCell } from '../../src/core/codec';
import type { ColumnSpec } from '../../src/core/columns';
import { cellEdits, type LineEdits, mergeCells, newCellValues, type PullOutcome } from '../../src/core/merge';

type Reader = (columnId: string) => CellValue;

function cellsOf(local: Reader, columns: readonly ColumnSpec[]): unknown[] {
  return columns.map((column) => local(column.id));
}

function identity(columns: readonly ColumnSpec[]): number[] {
  return columns.map((_, k) => k);
}

export interface PulledRow {
  /** Cells to write (column id → encoded service value). */
  writes: Map<string, EncodedCell>;
  base: BaseRecord;
  outcome: PullOutcome;
  updated: string[];
  keptLocal: string[];
  conflicts: string[];
}

/** mergeCells with the line read by column id; `local` undefined: a row new to the sheet. */
export function mergePulledRow(
  serviceRow: Readonly<Record<string, unknown>>,
  local: Reader | undefined,
  base: BaseRecord | undefined,
  columns: readonly ColumnSpec[],
  mayHoldDeleted = true,
): PulledRow {
  const cells = local ? cellsOf(local, columns) : undefined;
  const merged = mergeCells(serviceRow, cells, identity(columns), base, columns, mayHoldDeleted);
  const writes = new Map<string, EncodedCell>();
  merged.writeAt.forEach((k, w) => {
    writes.set((columns[k] as ColumnSpec).id, merged.writeCells[w] as EncodedCell);
  });
  const record = merged.base;
  return {
    writes,
    base: merged.same ? { id: record.id, lMod: record.lMod, digests: record.digests } : record,
    outcome: merged.outcome,
    updated: merged.updated,
    keptLocal: merged.keptLocal,
    conflicts: merged.conflicts,
  };
}

/** cellEdits with the line read by column id. */
export function lineEdits(
  local: Reader,
  base: BaseRecord,
  columns: readonly ColumnSpec[],
  context: DecodeContext,
): LineEdits {
  return cellEdits(cellsOf(local, columns), identity(columns), base, columns, context);
}

/** newCellValues with the line read by column id. */
export function newLineValues(
  local: Reader,
  columns: readonly ColumnSpec[],
  context: DecodeContext,
): LineEdits {
  return newCellValues(cellsOf(local, columns), identity(columns), columns, context);
}
