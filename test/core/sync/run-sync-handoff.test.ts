// A sync (runOperationStep 'sync') over the in-memory ports: its push reads the pull's poll with the
// schema, and the pull takes the push's poll, lines and base instead of reading them again, only
// while nothing can have changed since (no wait, nothing sent). Else the pull reads and polls again.
import { describe, expect, it } from 'vitest';
import type { JobRecord } from '../../../src/core/records';
import { isConflictStatus } from '../../../src/core/status';
import { emptySummary } from '../../../src/core/summary';
import { type OperationPorts, runOperationStep } from '../../../src/core/sync/operation/run-operation';
import { runPull } from '../../../src/core/sync/pull/run-pull';
import { ANN, BOB, MemoryWorld } from '../../memory/memory-ports';

const HOUR = 60 * 60 * 1000;

/** Six rows by Bob, pulled whole an hour after r0003 changed: the link has a cursor, the poll is on. */
function pulledWorld(): MemoryWorld {
  const world = new MemoryWorld();
  world.service.poll = 'on';
  for (let i = 1; i <= 6; i++) world.service.insert({ title: `t${i}`, amount: i }, BOB.id);
  world.service.clock += HOUR;
  world.service.update('r0003', { amount: 30 }, BOB.id);
  runPull(world.ports(ANN), world.links.get());
  world.service.clock += HOUR;
  world.service.requests.length = 0;
  return world;
}

function sync(world: MemoryWorld): void {
  const store: { job: JobRecord | null } = { job: null };
  const ports: OperationPorts = {
    ...world.ports(ANN),
    jobs: {
      load: () => store.job,
      save: (job) => {
        store.job = job;
      },
      clear: () => {
        store.job = null;
      },
    },
    continuations: { create: () => 't1', delete: () => {} },
    ownerEmail: () => 'ann@example.com',
  };
  const outcome = runOperationStep(ports, world.links.get(), 'sync', {
    scheduled: true,
    job: null,
    confirmHeld: false,
    startedAt: world.clock.ms,
    summary: emptySummary('sync'),
  });
  expect(outcome.continuation).toBeFalsy();
}

function lineOf(world: MemoryWorld, id: string): Record<string, unknown> {
  const [headers, ...lines] = world.sheet.values() as [unknown[], ...unknown[][]];
  const line = lines.find((cells) => cells[headers.indexOf('id')] === id);
  if (!line) throw new Error(`no line for ${id}`);
  return Object.fromEntries(headers.map((header, i) => [String(header), line[i]]));
}

const polls = (world: MemoryWorld) => world.service.requests.filter((r) => r.includes('/rows/updates?'));
const count = (world: MemoryWorld, call: string) => world.calls.filter((name) => name === call).length;

describe('a sync whose push sends nothing', () => {
  it('polls once, with the schema, and reads the lines and the base once', () => {
    const world = pulledWorld();
    world.service.update('r0005', { title: 'five' }, BOB.id);
    sync(world);
    expect(polls(world)).toHaveLength(1);
    expect(world.service.requests.filter((r) => r.startsWith('get'))).toHaveLength(2);
    expect(count(world, 'sheet.readLines') + count(world, 'sheet.readLinesForPull')).toBe(1);
    expect(count(world, 'base.read')).toBe(1);
    expect(lineOf(world, 'r0005').title).toBe('five');
    expect(world.base.records().get('r0005')?.lMod).toBe(world.service.find('r0005')?.lMod);
    expect(world.links.get().pollCursor).toBe(world.service.find('r0005')?.lMod);
  });

  it('reads again when a person acted after the push read the lines: their edit meets Bob’s as a conflict', () => {
    const world = pulledWorld();
    world.service.update('r0002', { title: 'theirs' }, BOB.id);
    // After the push's read, before the pull's first call: the person types into the same cell.
    world.actBefore('openSheet', () => world.sheet.type(world.sheet.lineOfId('r0002'), 'title', 'mine'), 2);
    sync(world);
    expect(lineOf(world, 'r0002').title).toBe('mine');
    expect(isConflictStatus(lineOf(world, 'r0002')._sync)).toBe(true);
    expect(world.service.find('r0002')?.title).toBe('theirs');
    expect(count(world, 'sheet.readLinesForPull')).toBe(1);
  });
});

describe('a sync whose push sends', () => {
  it("a change on the service after the push's poll, before its PATCH, is seen: the poll read before the sheet is no check of the row", () => {
    // Interleavings seeds 472, 642 and 788: the push took the poll's rows as the service's, and the
    // sheet read after them left a window in which Bob's change was overwritten unseen.
    const world = pulledWorld();
    world.sheet.type(world.sheet.lineOfId('r0002'), 'title', 'mine');
    world.service.update('r0002', { amount: 20 }, BOB.id);
    // Right after the push's poll (its first service call), as the push reads the sheet.
    world.actBefore('sheet.readLines', () => world.service.update('r0002', { title: 'theirs' }, BOB.id));
    sync(world);
    expect(world.service.find('r0002')?.title).toBe('theirs');
    expect(lineOf(world, 'r0002').title).toBe('mine');
    expect(isConflictStatus(lineOf(world, 'r0002')._sync)).toBe(true);
  });

  it('polls again after sending: the poll read before the PATCH never takes the sent value back', () => {
    const world = pulledWorld();
    world.sheet.type(world.sheet.lineOfId('r0001'), 'title', 'mine');
    world.service.update('r0001', { amount: 100 }, BOB.id);
    sync(world);
    expect(world.service.find('r0001')).toMatchObject({ title: 'mine', amount: 100 });
    expect(lineOf(world, 'r0001')).toMatchObject({ title: 'mine', amount: 100 });
    expect(world.base.records().get('r0001')?.lMod).toBe(world.service.find('r0001')?.lMod);
    expect(polls(world)).toHaveLength(2);
  });

  it('reads the lines again after creating a row: the new line keeps its id and no row is added twice', () => {
    const world = pulledWorld();
    world.sheet.appendLine({ title: 'new', amount: 7 });
    world.service.update('r0004', { title: 'four' }, BOB.id);
    sync(world);
    expect(world.service.rows.filter((row) => row.title === 'new')).toHaveLength(1);
    const lines = (world.sheet.values() as unknown[][]).slice(1);
    expect(lines.filter((cells) => cells.includes('new'))).toHaveLength(1);
    expect(lineOf(world, 'r0007')).toMatchObject({ title: 'new', amount: 7 });
    expect(lineOf(world, 'r0004').title).toBe('four');
    expect(count(world, 'sheet.readLinesForPull')).toBe(1);
  });

  it('a person typing during the push’s requests is read by the pull, never overwritten', () => {
    const world = pulledWorld();
    world.sheet.type(world.sheet.lineOfId('r0001'), 'title', 'mine');
    world.service.update('r0006', { title: 'theirs6' }, BOB.id);
    world.actBefore('service.updateRows', () =>
      world.sheet.type(world.sheet.lineOfId('r0006'), 'title', 'typed6'),
    );
    sync(world);
    expect(lineOf(world, 'r0006').title).toBe('typed6');
    expect(isConflictStatus(lineOf(world, 'r0006')._sync)).toBe(true);
    expect(world.service.find('r0001')?.title).toBe('mine');
  });
});
