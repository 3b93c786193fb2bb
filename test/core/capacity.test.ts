// Whether a table fits in a spreadsheet of 10,000,000 cells, and the refusal's arithmetic.
import { describe, expect, it } from 'vitest';
import {
  assertTableFits,
  cellsForRows,
  largestTableRows,
  SMALLEST_FOOTPRINT,
  SPREADSHEET_CELL_LIMIT,
} from '../../src/core/capacity';
import { isSyncError } from '../../src/core/errors';

const footprint = { sheetColumns: 15, baseColumns: 26, otherCells: 0 };

function refusal(run: () => void): string {
  try {
    run();
  } catch (error) {
    if (isSyncError(error) && error.code === 'SHEET') return error.message;
    throw error;
  }
  throw new Error('not refused');
}

describe('table capacity', () => {
  it('counts the header, the spare rows and both sheets’ grids', () => {
    expect(cellsForRows(1000, footprint)).toBe((1000 + 1 + 100) * (15 + 26));
    expect(cellsForRows(1000, { ...footprint, otherCells: 5000 })).toBe((1000 + 1 + 100) * 41 + 5000);
  });
  it('gives the largest table that fits, and one row more does not', () => {
    const rows = largestTableRows(footprint);
    expect(cellsForRows(rows, footprint)).toBeLessThanOrEqual(SPREADSHEET_CELL_LIMIT);
    expect(cellsForRows(rows + 1, footprint)).toBeGreaterThan(SPREADSHEET_CELL_LIMIT);
    expect(() => assertTableFits(rows, footprint, { atLeast: false })).not.toThrow();
    expect(largestTableRows(SMALLEST_FOOTPRINT)).toBeGreaterThan(largestTableRows(footprint));
    expect(largestTableRows({ ...footprint, otherCells: SPREADSHEET_CELL_LIMIT })).toBe(0);
  });
  it('refuses with the arithmetic and what to do', () => {
    const message = refusal(() =>
      assertTableFits(300_000, { ...footprint, otherCells: 26_000 }, { atLeast: true }),
    );
    expect(message).toBe(
      'This table is too large for one spreadsheet: it has at least 300,000 rows, and (300,000 rows + 1 header + 100 spare) x (15 columns of the sheet + 26 of its hidden sync record) + 26,000 cells of the other sheets = 12,330,141 cells, more than the 10,000,000 a spreadsheet holds; at most 243,167 rows of it fit. Nothing was written. Pull it into a spreadsheet of its own, delete unused columns or sheets here, or split the table on the service.',
    );
    expect(
      refusal(() => assertTableFits(300_000, footprint, { atLeast: false, linesWritten: 5000 })),
    ).toMatch(/it has 300,000 rows, .* The first 5,000 lines were written; nothing more was\./);
  });
});
