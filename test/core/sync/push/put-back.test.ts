// "Put the service's values back" over the in-memory ports: the held cells take the service's value
// again, found by row id; a cell changed since the hold is left and said; nothing is sent.
import { describe, expect, it } from 'vitest';
import { keptLocalStatus } from '../../../../src/core/status';
import { runPull } from '../../../../src/core/sync/pull/run-pull';
import { putBackMessage, runPutBack } from '../../../../src/core/sync/push/put-back';
import { runPush } from '../../../../src/core/sync/push/run-push';
import { ANN, BOB, MemoryWorld } from '../../../memory/memory-ports';

const ROWS = 12;

/** Twelve rows pulled by Ann, then her title column shifted by one line alone: a push holds it. */
function heldWorld() {
  const world = new MemoryWorld();
  for (let i = 1; i <= ROWS; i++) world.service.insert({ title: `t${i}`, amount: i }, BOB.id);
  runPull(world.ports(ANN), world.links.get());
  for (let i = 1; i <= ROWS; i++) {
    const id = `r${String(i).padStart(4, '0')}`;
    world.sheet.type(world.sheet.lineOfId(id), 'title', `t${(i % ROWS) + 1}`);
  }
  const pushed = runPush(world.ports(ANN), world.links.get());
  expect(pushed.held?.columns.map((column) => column.columnId)).toEqual(['title']);
  expect(world.service.commits).toEqual([]);
  return { world, cells: pushed.heldCells ?? [] };
}

function titleOf(world: MemoryWorld, id: string): unknown {
  const line = world.sheet.lineOfId(id);
  return world.sheet.values()[line + 1]?.[world.sheet.columnOf('title')];
}

function statusOf(world: MemoryWorld, id: string): unknown {
  const line = world.sheet.lineOfId(id);
  return world.sheet.values()[line + 1]?.[world.sheet.columnOf('_sync')];
}

describe('putting the service values back after a held push', () => {
  it('writes the service value into every held cell, sends nothing, and the next push sends nothing', () => {
    const { world, cells } = heldWorld();
    expect(cells).toHaveLength(ROWS);
    const result = runPutBack(world.ports(ANN), world.links.get(), cells);
    expect(result).toMatchObject({ restored: ROWS, lines: ROWS, left: [] });
    for (let i = 1; i <= ROWS; i++) expect(titleOf(world, `r${String(i).padStart(4, '0')}`)).toBe(`t${i}`);
    expect(statusOf(world, 'r0001')).toMatch(/^✓ title put back to the service's value/);
    expect(world.service.commits).toEqual([]);
    const again = runPush(world.ports(ANN), world.links.get());
    expect(again.held).toBeUndefined();
    expect(world.service.commits).toEqual([]);
    expect(again.counts).toMatchObject({ updated: 0, errors: 0, unchanged: ROWS });
  });

  it('finds each line by its id after a sort, and touches no other cell', () => {
    const { world, cells } = heldWorld();
    world.sheet.type(world.sheet.lineOfId('r0003'), 'amount', 30);
    world.sheet.sort('amount', true);
    runPutBack(world.ports(ANN), world.links.get(), cells);
    for (let i = 1; i <= ROWS; i++) expect(titleOf(world, `r${String(i).padStart(4, '0')}`)).toBe(`t${i}`);
    const line = world.sheet.lineOfId('r0003');
    expect(world.sheet.values()[line + 1]?.[world.sheet.columnOf('amount')]).toBe(30);
    expect(statusOf(world, 'r0003')).toBe(keptLocalStatus(['amount']));
  });

  it('a cell changed since the hold is left, said, and goes with the next push as an ordinary edit', () => {
    const { world, cells } = heldWorld();
    world.sheet.type(world.sheet.lineOfId('r0005'), 'title', 'mine');
    const result = runPutBack(world.ports(ANN), world.links.get(), cells);
    expect(result.restored).toBe(ROWS - 1);
    expect(result.left).toEqual([
      { row: 6, rowId: 'r0005', columnId: 'title', why: 'changed since the push held it' },
    ]);
    expect(putBackMessage(result)).toBe(
      "Put the service's values back into 11 cells on 11 lines; nothing was sent. Left as they are: 1 cell — row 6 title (changed since the push held it). Push to send them, or change them by hand.",
    );
    expect(titleOf(world, 'r0005')).toBe('mine');
    runPush(world.ports(ANN), world.links.get());
    expect(world.service.commits.map(({ rowId, values }) => [rowId, values])).toEqual([
      ['r0005', { title: 'mine' }],
    ]);
  });

  it("a row changed on the service since the hold takes the service's value now", () => {
    const { world, cells } = heldWorld();
    world.service.update('r0002', { title: 'renamed by Bob' }, BOB.id);
    runPutBack(world.ports(ANN), world.links.get(), cells);
    expect(titleOf(world, 'r0002')).toBe('renamed by Bob');
    // The service's value is no edit of the person's: the line says it holds the service's value.
    expect(statusOf(world, 'r0002')).toMatch(/^✓ title put back to the service's value/);
    const pushed = runPush(world.ports(ANN), world.links.get());
    expect(world.service.commits.filter((commit) => commit.by === ANN.id)).toEqual([]);
    expect(pushed.counts).toMatchObject({ updated: 0, conflicts: 0, errors: 0 });
    expect(runPull(world.ports(ANN), world.links.get()).progress.counts).toMatchObject({
      keptLocal: 0,
      conflicts: 0,
    });
  });

  it('a line deleted from the sheet or a row removed on the service is left and said', () => {
    const { world, cells } = heldWorld();
    world.sheet.deleteLine(world.sheet.lineOfId('r0007'));
    world.service.remove('r0008');
    const result = runPutBack(world.ports(ANN), world.links.get(), cells);
    expect(result.left.map(({ rowId, why }) => [rowId, why])).toEqual([
      ['r0007', 'its line is no longer in the sheet'],
      ['r0008', 'the row is no longer on the service'],
    ]);
    expect(result.restored).toBe(ROWS - 2);
  });

  it('a person typing into a held cell while the values are written keeps what they typed', () => {
    const { world, cells } = heldWorld();
    world.actBefore('sheet.writeLines', () =>
      world.sheet.type(world.sheet.lineOfId('r0004'), 'title', 'typed'),
    );
    const result = runPutBack(world.ports(ANN), world.links.get(), cells);
    expect(titleOf(world, 'r0004')).toBe('typed');
    expect(result.left).toEqual([
      { row: 5, rowId: 'r0004', columnId: 'title', why: 'changed while the values were put back' },
    ]);
    expect(result.restored).toBe(ROWS - 1);
  });
});
