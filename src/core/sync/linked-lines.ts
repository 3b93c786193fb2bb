// The linked sheet as a run that writes by row id reads it: the table's live columns, the lines with
// their header layout and id index, and the base (resolving conflicts, putting held values back).
import type { BaseTable } from '../base-table';
import { type ColumnSpec, knownDeletedColumnIds, liveColumns } from '../columns';
import { type Layout, readLayout } from '../layout';
import type { LineGrid } from '../line-grid';
import { indexLines, type LineIndex } from '../lines';
import type { LinkRecord } from '../records';
import type { LinkedSheetPort, SyncPorts } from './ports';

export interface LinkedLines {
  sheet: LinkedSheetPort;
  live: ColumnSpec[];
  grid: LineGrid;
  base: BaseTable;
  layout: Layout;
  index: LineIndex;
}

/** Reads the schema, then the whole sheet and base, and lays them out by header and row id. */
export function readLinkedLines(ports: SyncPorts, link: LinkRecord): LinkedLines {
  const table = ports.service.table(link.tableAppId, link.tableId);
  const live = liveColumns(table.columns);
  const sheet = ports.openSheet();
  const { headers, grid } = sheet.readLines();
  const base = ports.base.read();
  const layout = readLayout(headers, live, knownDeletedColumnIds(link, table.columns, live, base.columnIds));
  return { sheet, live, grid, base, layout, index: indexLines(grid, layout) };
}
