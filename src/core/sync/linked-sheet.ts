// The linked sheet a run reads and writes (LinkedSheetPort), over its raw cells: every rule of reading
// lines, re-identifying them, writing them back, completing headers and deleting lines is the core's
// (read-lines, relocate-lines, write-lines, header-row, delete-lines); the platform gives the cells
// and what is its own (number formats, the workbook's sheets, committing writes, how dates read).
import { deleteLinesById } from './delete-lines';
import { completeHeaders } from './header-row';
import type { LinkedSheetPort } from './ports';
import { readColumns, readLines, readLinesForPull } from './read-lines';
import { relocateBeforeLoading } from './relocate-lines';
import type { SheetCells } from './sheet-cells';
import { writeLines } from './write-lines';

/** What the platform adds to a linked sheet's cells. */
export type SheetPlatform = Pick<
  LinkedSheetPort,
  'restoreNumberFormats' | 'workbookShapes' | 'commitWrites' | 'decodeContext'
>;

/** The LinkedSheetPort of a sheet's cells. */
export function linkedSheetOver(cells: SheetCells, platform: SheetPlatform): LinkedSheetPort {
  return {
    readLines: () => readLines(cells),
    readLinesForPull: (layoutOf, reading, lastRow) => readLinesForPull(cells, layoutOf, reading, lastRow),
    lastRow: () => cells.lastRow(),
    readColumns: (columns) => readColumns(cells, columns),
    completeHeaders: (request) => completeHeaders(cells, request),
    restoreNumberFormats: (grid, layout, live) => platform.restoreNumberFormats(grid, layout, live),
    relocateBeforeLoading: (grid, layout) => relocateBeforeLoading(cells, grid, layout),
    writeLines: (grid, layout, live, columns) => writeLines(cells, grid, layout, live, columns),
    workbookShapes: () => platform.workbookShapes(),
    commitWrites: () => platform.commitWrites(),
    decodeContext: () => platform.decodeContext(),
    deleteLines: (lines) => deleteLinesById(cells, lines),
  };
}
