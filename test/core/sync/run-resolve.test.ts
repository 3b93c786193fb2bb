// runResolve and conflictDetails over the in-memory ports: keep mine, take theirs, and a sort between
// the resolve's read and its write.
import { describe, expect, it } from 'vitest';
import { isConflictStatus } from '../../../src/core/status';
import { runPull } from '../../../src/core/sync/pull/run-pull';
import { runPush } from '../../../src/core/sync/push/run-push';
import { conflictDetails, runResolve } from '../../../src/core/sync/resolve/run-resolve';
import { ANN, BOB, MemoryWorld } from '../../memory/memory-ports';

/** Three rows pulled by Ann; rows r0001 and r0003 then changed in both places (a conflict each). */
function conflicted(): MemoryWorld {
  const world = new MemoryWorld();
  for (let i = 1; i <= 3; i++) world.service.insert({ title: `t${i}`, amount: i }, BOB.id);
  runPull(world.ports(ANN), world.links.get());
  for (const id of ['r0001', 'r0003']) {
    world.sheet.type(world.sheet.lineOfId(id), 'title', `mine-${id}`);
    world.service.update(id, { title: `theirs-${id}` }, BOB.id);
  }
  runPull(world.ports(ANN), world.links.get());
  world.hook = () => {};
  return world;
}

function titleOf(world: MemoryWorld, id: string): unknown {
  return world.sheet.values()[world.sheet.lineOfId(id) + 1]?.[world.sheet.columnOf('title')];
}

function statusOf(world: MemoryWorld, id: string): unknown {
  return world.sheet.values()[world.sheet.lineOfId(id) + 1]?.[world.sheet.columnOf('_sync')];
}

describe('runResolve over memory', () => {
  it('lists each line in conflict with both values and who changed the row', () => {
    const world = conflicted();
    const lines = conflictDetails(world.ports(ANN), world.links.get());
    expect(lines.map((line) => [line.rowId, line.cells])).toEqual([
      ['r0001', [{ columnId: 'title', columnName: 'Title', mine: 'mine-r0001', theirs: 'theirs-r0001' }]],
      ['r0003', [{ columnId: 'title', columnName: 'Title', mine: 'mine-r0003', theirs: 'theirs-r0003' }]],
    ]);
    expect(lines[0]?.changedBy).toBe('Bob B <bob@example.com>');
  });

  it('names each line in conflict by its title as the sheet shows it', () => {
    const world = conflicted();
    const lines = conflictDetails(world.ports(ANN), world.links.get());
    expect(lines.map((line) => line.title)).toEqual(['mine-r0001', 'mine-r0003']);
  });

  it('keep mine: the next push sends the local value over the service', () => {
    const world = conflicted();
    const result = runResolve(world.ports(ANN), world.links.get(), 'mine', new Set(['r0001']));
    expect(result.lines).toBe(1);
    expect(isConflictStatus(statusOf(world, 'r0001'))).toBe(false);
    expect(isConflictStatus(statusOf(world, 'r0003'))).toBe(true);
    runPush(world.ports(ANN), world.links.get());
    expect(world.service.find('r0001')?.title).toBe('mine-r0001');
    expect(world.service.find('r0003')?.title).toBe('theirs-r0003');
  });

  it('take theirs: the line takes the service value and a push sends nothing', () => {
    const world = conflicted();
    runResolve(world.ports(ANN), world.links.get(), 'theirs', null);
    expect(titleOf(world, 'r0001')).toBe('theirs-r0001');
    expect(titleOf(world, 'r0003')).toBe('theirs-r0003');
    const commits = world.service.commits.length;
    runPush(world.ports(ANN), world.links.get());
    expect(world.service.commits.length).toBe(commits);
  });

  it('a sort between the read and the write: each service value lands on its own row id', () => {
    const world = conflicted();
    world.actBefore('sheet.writeLines', () => world.sheet.sort('amount', true));
    runResolve(world.ports(ANN), world.links.get(), 'theirs', null);
    expect(world.sheet.lineOfId('r0003')).toBe(0);
    expect(titleOf(world, 'r0001')).toBe('theirs-r0001');
    expect(titleOf(world, 'r0002')).toBe('t2');
    expect(titleOf(world, 'r0003')).toBe('theirs-r0003');
  });

  it('leaves a line in conflict alone when its id cell was swapped with another line: no value lands on another row', () => {
    const world = conflicted();
    const one = world.sheet.lineOfId('r0001');
    const two = world.sheet.lineOfId('r0002');
    world.sheet.type(one, 'id', 'r0002');
    world.sheet.type(two, 'id', 'r0001');
    runResolve(world.ports(ANN), world.links.get(), 'theirs', null);
    // r0001's line now shows r0002's id, and r0002's line r0001's: neither took theirs-r0001.
    expect(world.sheet.values().flat()).not.toContain('theirs-r0001');
    expect(titleOf(world, 'r0003')).toBe('theirs-r0003');
  });

  it('keeps a conflict whose column has no header in the sheet until the header is back', () => {
    const world = conflicted();
    world.sheet.renameHeader('title', 'My title');
    runResolve(world.ports(ANN), world.links.get(), 'theirs', null);
    world.sheet.renameHeader('My title', 'title');
    expect(isConflictStatus(statusOf(world, 'r0001'))).toBe(true);
    expect(titleOf(world, 'r0001')).toBe('mine-r0001');
    runResolve(world.ports(ANN), world.links.get(), 'theirs', null);
    expect(titleOf(world, 'r0001')).toBe('theirs-r0001');
  });
});
