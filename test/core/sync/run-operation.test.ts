// runOperationStep over the in-memory ports: how a push that cannot finish in one execution goes on.
import { describe, expect, it } from 'vitest';
import type { JobRecord } from '../../../src/core/records';
import { emptySummary } from '../../../src/core/summary';
import { type OperationPorts, runOperationStep } from '../../../src/core/sync/operation/run-operation';
import { runPull } from '../../../src/core/sync/pull/run-pull';
import { runPush } from '../../../src/core/sync/push/run-push';
import { ANN, BOB, MemoryWorld } from '../../memory/memory-ports';

/** The operation's ports over a world: one stored job, continuation triggers counted. */
function operationPorts(
  world: MemoryWorld,
  store: { job: JobRecord | null; triggers: number },
): OperationPorts {
  return {
    ...world.ports(ANN),
    jobs: {
      load: () => (store.job ? (JSON.parse(JSON.stringify(store.job)) as JobRecord) : null),
      save: (job) => {
        store.job = JSON.parse(JSON.stringify(job)) as JobRecord;
      },
      clear: () => {
        store.job = null;
      },
    },
    continuations: {
      create: () => `t${++store.triggers}`,
      delete: () => {},
    },
    ownerEmail: () => 'ann@example.com',
  };
}

describe('a push whose listing does not fit one execution', () => {
  it('saves where the listing stopped in its job, and its continuations go on from there and adopt the lost create once', () => {
    const world = new MemoryWorld();
    for (let i = 1; i <= 20; i++) world.service.insert({ title: `t${i}`, amount: i }, BOB.id);
    runPull(world.ports(ANN), world.links.get());
    world.sheet.appendLine({ title: 'new', amount: 7 });
    world.service.fault('post', 'lost');
    runPush(world.ports(ANN), world.links.get());
    for (let i = 0; i < 2600; i++) world.service.insert({ title: `bob ${i}`, amount: i }, BOB.id);
    world.service.rows.splice(150, 0, ...world.service.rows.splice(20, 1));
    const store: { job: JobRecord | null; triggers: number } = { job: null, triggers: 0 };
    world.hook = (name) => {
      if (name === 'service.listAllRows') world.clock.deadline = world.clock.ms;
    };
    const first = runOperationStep(operationPorts(world, store), world.links.get(), 'push', {
      scheduled: true,
      job: null,
      confirmHeld: false,
      startedAt: world.clock.ms,
      summary: emptySummary('push'),
    });
    expect(first.continuation).toBe('trigger');
    expect(store.job?.pushListing?.candidates.map((candidate) => candidate.row.id)).toEqual(['r0021']);
    // Small enough for a document property (9 KB a value).
    expect(JSON.stringify(store.job).length).toBeLessThan(2000);
    // Every execution lists one wave of pages only: each goes on where the last stopped.
    let executions = 1;
    let next = first;
    while (next.continuation !== null && executions < 40) {
      world.clock.deadline = world.clock.ms + 6 * 60 * 1000;
      next = runOperationStep(operationPorts(world, store), world.links.get(), 'push', {
        scheduled: true,
        job: store.job,
        confirmHeld: false,
        startedAt: world.clock.ms,
        summary: emptySummary('push'),
      });
      executions++;
    }
    expect(executions).toBeLessThan(40);
    expect(next.continuation).toBeNull();
    expect(store.job).toBeNull();
    expect(world.service.commits.filter((commit) => commit.method === 'post')).toHaveLength(1);
  });
});

describe('a sync of a linked sheet that holds nothing yet', () => {
  const step = (world: MemoryWorld, operation: 'sync' | 'push') =>
    runOperationStep(operationPorts(world, { job: null, triggers: 0 }), world.links.get(), operation, {
      scheduled: false,
      job: null,
      confirmHeld: false,
      startedAt: world.clock.ms,
      summary: emptySummary(operation),
    });

  it('is its first pull (nothing to push), not "pull the table first"', () => {
    const world = new MemoryWorld();
    for (let i = 1; i <= 3; i++) world.service.insert({ title: `t${i}`, amount: i }, BOB.id);
    const writes = () => world.service.requests.filter((request) => !/^get /i.test(request)).length;
    const before = writes();
    const outcome = step(world, 'sync');
    expect(outcome.continuation).toBeNull();
    expect(world.sheet.lineOfId('r0003')).toBeGreaterThanOrEqual(0);
    expect(writes()).toBe(before);
  });

  it('a push of it still says to pull first', () => {
    const world = new MemoryWorld();
    world.service.insert({ title: 't1', amount: 1 }, BOB.id);
    expect(() => step(world, 'push')).toThrow(/no id or _sync column: pull the table first/);
  });
});
