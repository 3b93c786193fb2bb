// Lines of rows removed on the service (sync-rules "Deleting rows"): listed with what else goes with
// them (the person's own columns), removed in one action, each found again by id right before.
import { describe, expect, it } from 'vitest';
import { STATUS } from '../../../../src/core/status';
import { removeRemovedLines, reviewRemovedLines } from '../../../../src/core/sync/delete/removed-lines';
import { reviewMissingRows } from '../../../../src/core/sync/delete/run-delete';
import { runPull } from '../../../../src/core/sync/pull/run-pull';
import { ANN, BOB, MemoryWorld } from '../../../memory/memory-ports';

/** Four rows pulled, a "notes" column of the person's own, rows r0002 and r0003 removed on the service. */
function worldWithRemovedRows(): MemoryWorld {
  const world = new MemoryWorld();
  for (let i = 1; i <= 4; i++) world.service.insert({ title: `t${i}`, amount: i }, BOB.id);
  pull(world);
  world.sheet.sheet.set(0, 5, 'notes');
  world.sheet.type(world.sheet.lineOfId('r0002'), 'notes', 'call back');
  world.sheet.type(world.sheet.lineOfId('r0004'), 'notes', 'keep');
  world.service.remove('r0002');
  world.service.remove('r0003');
  pull(world);
  return world;
}

function pull(world: MemoryWorld) {
  return runPull(world.ports(ANN), world.links.get());
}

function column(world: MemoryWorld, header: string): unknown[] {
  const [headers, ...lines] = world.sheet.values() as [unknown[], ...unknown[][]];
  return lines.map((line) => line[headers.indexOf(header)]);
}

describe('lines of rows removed on the service', () => {
  it('are listed with the person’s own columns that hold values on them', () => {
    const world = worldWithRemovedRows();
    const review = reviewRemovedLines(world.ports(ANN), world.links.get());
    expect(review.count).toBe(2);
    expect(review.lines).toEqual([
      { rowId: 'r0002', row: 3, title: 't2' },
      { rowId: 'r0003', row: 4, title: 't3' },
    ]);
    expect(review.ownValues).toEqual([{ header: 'notes', lines: 1 }]);
    expect(review.message).toBe(
      '2 lines of rows removed on the service (“t2” and “t3”). Removing them deletes those sheet rows; nothing is sent to the service. Your own columns go with them: notes (1 line).',
    );
  });

  it('are removed in one action: exactly those lines and their base records; other lines and their own cells stay', () => {
    const world = worldWithRemovedRows();
    const before = world.service.requests.length;
    const result = removeRemovedLines(world.ports(ANN), ['r0002', 'r0003']);
    expect(result).toEqual({ ok: true, message: 'Removed 2 lines.', removed: 2, skipped: 0 });
    expect(column(world, 'id')).toEqual(['r0001', 'r0004']);
    expect(column(world, 'notes')).toEqual(['', 'keep']);
    expect(world.base.records().has('r0002')).toBe(false);
    expect(world.service.requests.length).toBe(before);
    // Nothing is left for review: the rows are not "missing lines" now.
    expect(reviewMissingRows(world.ports(ANN), world.links.get()).count).toBe(0);
  });

  it('are found by id where they stand now: a sort since the review removes the right lines', () => {
    const world = worldWithRemovedRows();
    reviewRemovedLines(world.ports(ANN), world.links.get());
    world.sheet.sort('amount', true);
    removeRemovedLines(world.ports(ANN), ['r0002', 'r0003']);
    expect(column(world, 'id')).toEqual(['r0004', 'r0001']);
  });

  it('recognise the wording earlier versions wrote: such lines are listed and removed too', () => {
    const world = worldWithRemovedRows();
    const before = '✖ removed on the service (kept here; delete the line if you no longer need it)';
    world.sheet.type(world.sheet.lineOfId('r0002'), '_sync', before);
    world.sheet.type(world.sheet.lineOfId('r0003'), '_sync', before);
    expect(reviewRemovedLines(world.ports(ANN), world.links.get()).count).toBe(2);
    expect(removeRemovedLines(world.ports(ANN), ['r0002', 'r0003'])).toMatchObject({ ok: true, removed: 2 });
    expect(column(world, 'id')).toEqual(['r0001', 'r0004']);
  });

  it('keep a line whose status or id changed since the review', () => {
    const world = worldWithRemovedRows();
    world.sheet.type(world.sheet.lineOfId('r0002'), '_sync', STATUS.pulled);
    world.sheet.type(world.sheet.lineOfId('r0003'), 'id', 'r0001');
    const result = removeRemovedLines(world.ports(ANN), ['r0002', 'r0003']);
    expect(result).toMatchObject({ ok: false, removed: 0, skipped: 2 });
    expect(result.message).toBe(
      'No line was removed. 2 lines kept: they changed since the review (another id or status); review again.',
    );
    expect(column(world, 'id')).toHaveLength(4);
  });

  it('never removes a line not marked removed, whatever ids are asked for', () => {
    const world = worldWithRemovedRows();
    expect(removeRemovedLines(world.ports(ANN), ['r0001', 'r0004']).removed).toBe(0);
    expect(column(world, 'id')).toHaveLength(4);
  });
});
