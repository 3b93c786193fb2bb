// Writing a run's lines back over raw cells, while a person changes the sheet as the run waits: each
// line is written where its row id stands now, a cell the person changed is kept, nothing is written
// once columns moved, a line that cannot be found is left, new lines go after the current last row.
import { describe, expect, it } from 'vitest';
import { readLayout } from '../../../src/core/layout';
import { pendingStatus } from '../../../src/core/status';
import { readLines } from '../../../src/core/sync/read-lines';
import { writeLines } from '../../../src/core/sync/write-lines';
import { MemorySheet, recording } from '../../memory/memory-sheet';
import { AMOUNT, HEADERS, ID, LMOD, line, live, STATUS_COLUMN, TITLE } from './fixtures';

/** A linked sheet of these lines, read by the run (its grid and layout). */
function readSheet(lines: unknown[][]) {
  const waits = { count: 0 };
  const sheet = new MemorySheet([HEADERS, ...lines], waits);
  const { cells, calls } = recording(sheet.cells());
  const { headers, grid } = readLines(cells);
  calls.length = 0;
  return { sheet, cells, calls, grid, layout: readLayout(headers, live), waits };
}

const threeLines = () => [line('r1', 'b', 1, 't1'), line('r2', 'a', 2, 't1'), line('r3', 'c', 3, 't1')];

/** The sheet's line carrying this id, as [id, title, amount, lMod, status]. */
function lineOf(sheet: MemorySheet, id: string): unknown[] | undefined {
  return sheet.values().find((cells) => cells[ID] === id);
}

describe('writing lines back', () => {
  it('with no wait since the read: writes where the lines were read, reading nothing first', () => {
    const { sheet, cells, calls, grid, layout } = readSheet(threeLines());
    grid.set(0, AMOUNT, 10);
    writeLines(cells, grid, layout, live);
    expect(lineOf(sheet, 'r1')).toEqual(line('r1', 'b', 10, 't1'));
    expect(calls.filter((call) => /^(values|sheetValues|lastRow|dataRange)/.test(call))).toEqual([]);
  });

  describe('when the person sorted the lines while the run waited', () => {
    it('writes each line where its id stands now', () => {
      const { sheet, cells, grid, layout } = readSheet(threeLines());
      grid.set(0, AMOUNT, 10);
      grid.set(2, LMOD, 't2');
      sheet.sort('title');
      writeLines(cells, grid, layout, live);
      expect(sheet.values().slice(1)).toEqual([
        line('r2', 'a', 2, 't1'),
        line('r1', 'b', 10, 't1'),
        line('r3', 'c', 3, 't2'),
      ]);
    });
  });

  describe('when the person inserted a row above while the run waited', () => {
    it('writes the line where it stands now and leaves the inserted row alone', () => {
      const { sheet, cells, grid, layout } = readSheet(threeLines());
      grid.set(1, TITLE, 'a2');
      grid.set(1, STATUS_COLUMN, '✓ pushed');
      sheet.insertLine(0, { title: 'mine' });
      writeLines(cells, grid, layout, live);
      expect(sheet.values().slice(1)).toEqual([
        ['', 'mine', '', '', ''],
        line('r1', 'b', 1, 't1'),
        line('r2', 'a2', 2, 't1', '✓ pushed'),
        line('r3', 'c', 3, 't1'),
      ]);
    });
  });

  describe('when the person moved a column while the run waited', () => {
    it('writes nothing: every value would land in another column', () => {
      const { sheet, cells, grid, layout, waits } = readSheet(threeLines());
      grid.set(0, TITLE, 'b2');
      grid.set(0, LMOD, 't2');
      // Title moved to the right of amount: every row's two cells swap.
      for (const row of sheet.sheet.cells) [row[TITLE], row[AMOUNT]] = [row[AMOUNT], row[TITLE]];
      waits.count += 1;
      const before = sheet.values();
      writeLines(cells, grid, layout, live);
      expect(sheet.values()).toEqual(before);
      expect(grid.physicalRow(0)).toBeLessThan(0);
    });
  });

  describe('when the person changed a cell the run writes while it waited', () => {
    it("keeps the person's cell, writes the run's other cells, and tells the run", () => {
      const { sheet, cells, grid, layout } = readSheet(threeLines());
      grid.set(0, TITLE, 'from the service');
      grid.set(0, AMOUNT, 10);
      sheet.type(0, 'title', 'typed');
      writeLines(cells, grid, layout, live);
      expect(lineOf(sheet, 'r1')).toEqual(line('r1', 'typed', 10, 't1'));
      expect(grid.takeKept()).toEqual([{ line: 0, column: TITLE }]);
      expect(grid.get(0, TITLE)).toBe('typed');
    });
  });

  describe('when a line cannot be found as the sheet stands now', () => {
    it('leaves a deleted line for the next run and writes the others where they stand', () => {
      const { sheet, cells, grid, layout } = readSheet(threeLines());
      grid.set(1, AMOUNT, 20);
      grid.set(2, AMOUNT, 30);
      sheet.deleteLine(1);
      writeLines(cells, grid, layout, live);
      expect(sheet.values().slice(1)).toEqual([line('r1', 'b', 1, 't1'), line('r3', 'c', 30, 't1')]);
      expect(grid.physicalRow(1)).toBeLessThan(0);
    });

    it('leaves a line whose id now stands on two lines, and one whose id was typed over', () => {
      const { sheet, cells, grid, layout } = readSheet(threeLines());
      grid.set(0, AMOUNT, 10);
      grid.set(1, AMOUNT, 20);
      grid.set(2, AMOUNT, 30);
      sheet.type(0, 'id', 'r3');
      writeLines(cells, grid, layout, live);
      expect(sheet.values().slice(1)).toEqual([
        line('r3', 'b', 1, 't1'),
        line('r2', 'a', 20, 't1'),
        line('r3', 'c', 3, 't1'),
      ]);
    });
  });

  describe('when the person sorted two new lines (no id, no mark) past each other while the run waited', () => {
    // Interleaving seeds 528, 627, 1028 and 1172 (from seed 251, 8000): a live push's pending mark
    // landed on the other new line, which then got the created row's id and lMod under its own values.
    const withNewLines = (before: unknown[][]) => [
      ...before,
      line('', 'new d', 4, ''),
      line('', 'new c', 3, ''),
    ];

    it('writes neither: the rows their ids and marks stand on hold other cells now', () => {
      const { sheet, cells, grid, layout } = readSheet(
        withNewLines([line('r1', 'a', 1, 't1'), line('r2', 'b', 2, 't1')]),
      );
      grid.set(2, STATUS_COLUMN, 'pending:tok1');
      sheet.sort('title');
      const before = sheet.values();
      writeLines(cells, grid, layout, live);
      expect(sheet.values()).toEqual(before);
      expect(grid.physicalRow(2)).toBeLessThan(0);
    });

    it('on a large sheet too, telling them apart from the ids and marks read to the last row', () => {
      const lines = Array.from({ length: 3100 }, (_, i) =>
        line(`r${i + 1}`, `a ${String(i).padStart(4, '0')}`, i, 't1'),
      );
      const { sheet, cells, grid, layout } = readSheet(withNewLines(lines));
      grid.set(3100, STATUS_COLUMN, 'pending:tok1');
      grid.set(5, AMOUNT, 50);
      sheet.sort('title');
      writeLines(cells, grid, layout, live);
      expect(sheet.values().slice(3101)).toEqual([line('', 'new c', 3, ''), line('', 'new d', 4, '')]);
      expect(lineOf(sheet, 'r6')?.[AMOUNT]).toBe(50);
    });

    it('on a large sheet whose table columns lie outside the ids and marks read: one read of their cells', () => {
      const headers = ['title', 'amount', 'id', 'lMod', '_sync'];
      const row = (id: string, title: string, amount: number) => [title, amount, id, id ? 't1' : '', ''];
      const rows = Array.from({ length: 3100 }, (_, i) =>
        row(`r${i + 1}`, `a ${String(i).padStart(4, '0')}`, i),
      );
      const waits = { count: 0 };
      const sheet = new MemorySheet([headers, ...rows, row('', 'new d', 4), row('', 'new c', 3)], waits);
      const { cells, calls } = recording(sheet.cells());
      const read = readLines(cells);
      const { grid } = read;
      grid.set(3100, 4, 'pending:tok1');
      sheet.sort('title');
      calls.length = 0;
      writeLines(cells, grid, readLayout(read.headers, live), live);
      expect(sheet.values().slice(3101)).toEqual([row('', 'new c', 3), row('', 'new d', 4)]);
      expect(calls).toContain('values(3102,1,1,2)');
    });

    it('reads the header, ids, cells and marks in one block when that saves the read of the new lines too', () => {
      const lines = Array.from({ length: 6000 }, (_, i) => line(`r${i + 1}`, `a ${i}`, i, 't1'));
      /** The reads of a write of line 1 and of a new line, marked already or not. */
      const reads = (marked: boolean) => {
        const { cells, calls, grid, layout, waits } = readSheet([
          ...lines,
          line('', 'new', 1, '', marked ? pendingStatus('pending:tok0') : ''),
        ]);
        grid.set(0, AMOUNT, 10);
        grid.set(6000, STATUS_COLUMN, pendingStatus('pending:tok1'));
        waits.count += 1;
        writeLines(cells, grid, layout, live);
        return calls.filter((call) => /^(values|sheetValues|lastRow)/.test(call));
      };
      // 6,000 rows of three columns between the ids and the marks: more cells than one read costs.
      expect(reads(true)).toEqual([
        'sheetValues(2,1,-1,1)',
        'values(2,5,6001,1)',
        'values(1,1,1,5)',
        // The amounts read back before they are written.
        'values(2,3,1,1)',
        'values(6002,3,1,1)',
      ]);
      // Fewer than two: the new line's cells come with the ids and marks, and the header with them.
      expect(reads(false)).toEqual(['sheetValues(1,1,-1,5)', 'values(2,3,1,1)', 'values(6002,3,1,1)']);
    });

    it('writes a new line where it stands when its cells are as read', () => {
      const { sheet, cells, grid, layout, waits } = readSheet(
        withNewLines([line('r1', 'a', 1, 't1'), line('r2', 'b', 2, 't1')]),
      );
      grid.set(2, STATUS_COLUMN, 'pending:tok1');
      waits.count += 1;
      writeLines(cells, grid, layout, live);
      expect(sheet.values()[3]).toEqual(line('', 'new d', 4, '', 'pending:tok1'));
    });
  });

  describe('when the person sorted the lines around a written one while the run waited', () => {
    // Interleaving seeds 1722 (call 19) and 2019 (call 36), from seed 1251, 8000: a pull's updated
    // line kept its row, the rows below it moved, and the write span joining it with the appended
    // line rewrote their ids and lMods as read: four ids on two lines each.
    it('leaves the rows between a written line and an appended one as they stand now', () => {
      const { sheet, cells, grid, layout } = readSheet([
        line('r1', 'd', 1, 't1'),
        line('r2', 'b', 2, 't1'),
        line('r3', 'a', 3, 't1'),
        line('r4', 'c', 4, 't1'),
      ]);
      grid.set(1, AMOUNT, 20);
      const added = grid.appendLine();
      for (const [column, value] of line('r5', 'e', 5, 't2').entries()) grid.set(added, column, value);
      sheet.sort('title');
      writeLines(cells, grid, layout, live);
      expect(sheet.values().slice(1)).toEqual([
        line('r3', 'a', 3, 't1'),
        line('r2', 'b', 20, 't1'),
        line('r4', 'c', 4, 't1'),
        line('r1', 'd', 1, 't1'),
        line('r5', 'e', 5, 't2'),
      ]);
    });
  });

  describe('when the run adds lines', () => {
    it('appends them after the current last row, below a line the person typed meanwhile', () => {
      const { sheet, cells, grid, layout } = readSheet(threeLines());
      const added = grid.appendLine();
      grid.set(added, TITLE, 'from the service');
      grid.set(added, ID, 'r4');
      sheet.appendLine({ title: 'typed' });
      writeLines(cells, grid, layout, live);
      expect(sheet.values().slice(1)).toEqual([
        ...threeLines(),
        ['', 'typed', '', '', ''],
        line('r4', 'from the service', '', ''),
      ]);
    });
  });

  describe('a large sheet (more cells than a waiting call is worth)', () => {
    const large = () =>
      Array.from({ length: 3100 }, (_, i) =>
        line(`r${i + 1}`, `title ${String(i).padStart(4, '0')}`, i, 't1'),
      );

    it('tells nothing moved from one read of row 1 down to the written rows', () => {
      const { sheet, cells, calls, grid, layout, waits } = readSheet(large());
      grid.set(5, AMOUNT, 50);
      waits.count += 1;
      writeLines(cells, grid, layout, live);
      expect(lineOf(sheet, 'r6')?.[AMOUNT]).toBe(50);
      expect(calls.filter((call) => /^(values|sheetValues|lastRow|lastColumn|dataRange)/.test(call))).toEqual(
        [
          'values(1,1,7,5)',
          // The amount read back before it is written.
          'values(7,3,1,1)',
        ],
      );
    });

    it('finds the line again when a row was inserted above it', () => {
      const { sheet, cells, grid, layout } = readSheet(large());
      grid.set(5, AMOUNT, 50);
      sheet.insertLine(2, { title: 'mine' });
      writeLines(cells, grid, layout, live);
      expect(
        sheet
          .values()
          .slice(1, 8)
          .map((cells) => [cells[ID], cells[AMOUNT]]),
      ).toEqual([
        ['r1', 0],
        ['r2', 1],
        ['', ''],
        ['r3', 2],
        ['r4', 3],
        ['r5', 4],
        ['r6', 50],
      ]);
    });

    it('finds a line a sort moved far down', () => {
      const { sheet, cells, grid, layout } = readSheet(large());
      grid.set(0, AMOUNT, 1000);
      sheet.sort('title', true);
      writeLines(cells, grid, layout, live);
      expect(sheet.values()[3100]).toEqual(line('r1', 'title 0000', 1000, 't1'));
    });
  });
});
