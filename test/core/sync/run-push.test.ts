// runPush over the in-memory ports: edits and creates, a create whose answer is lost (sent once,
// adopted by the next push), faults after the service committed, and a person acting between the
// push's port calls.
import { describe, expect, it } from 'vitest';
import { valueDigest } from '../../../src/core/codec';
import { issueKind, STATUS } from '../../../src/core/status';
import { runPull } from '../../../src/core/sync/pull/run-pull';
import { runPush } from '../../../src/core/sync/push/run-push';
import { ANN, BOB, MemoryWorld } from '../../memory/memory-ports';

/** A world whose service holds `count` rows (title tN, amount N) made by Bob, pulled by Ann. */
function pulledWorld(count: number): MemoryWorld {
  const world = new MemoryWorld();
  for (let i = 1; i <= count; i++) world.service.insert({ title: `t${i}`, amount: i }, BOB.id);
  runPull(world.ports(ANN), world.links.get());
  return world;
}

/** As pulledWorld, the first `sharing` rows written in one batch (one lMod: a coarse or batch stamp). */
function pulledSharingLMod(count: number, sharing: number): MemoryWorld {
  const world = new MemoryWorld();
  for (let i = 1; i <= count; i++) world.service.insert({ title: `t${i}`, amount: i }, BOB.id);
  const shared = world.service.rows[0]?.lMod as string;
  for (const row of world.service.rows.slice(0, sharing)) row.lMod = shared;
  runPull(world.ports(ANN), world.links.get());
  return world;
}

function push(world: MemoryWorld, user = ANN) {
  return runPush(world.ports(user), world.links.get());
}

function lineOf(
  world: MemoryWorld,
  find: (cells: Record<string, unknown>) => boolean,
): Record<string, unknown> {
  const [headers, ...lines] = world.sheet.values() as [unknown[], ...unknown[][]];
  const all = lines.map((line) => Object.fromEntries(headers.map((header, i) => [String(header), line[i]])));
  const found = all.filter(find);
  if (found.length !== 1) throw new Error(`${found.length} lines match`);
  return found[0] as Record<string, unknown>;
}

const titled = (title: string) => (cells: Record<string, unknown>) => cells.title === title;

describe('runPush over memory', () => {
  it('sends edited columns as PATCH and new lines as POST, and writes ids and statuses back', () => {
    const world = pulledWorld(3);
    world.sheet.type(world.sheet.lineOfId('r0002'), 'amount', 20);
    world.sheet.appendLine({ title: 'new', amount: 7 });
    const result = push(world);
    expect(result.counts).toMatchObject({ updated: 1, created: 1, conflicts: 0, errors: 0 });
    expect(world.service.commits.map(({ method, values }) => [method, values])).toEqual([
      ['patch', { amount: 20 }],
      ['post', { title: 'new', amount: 7 }],
    ]);
    const created = lineOf(world, titled('new'));
    expect(created).toMatchObject({ id: 'r0004', _sync: STATUS.created });
    expect(world.service.find('r0004')).toMatchObject({ title: 'new', amount: 7, createdBy: ANN.id });
    // Nothing more to send: a second push sends nothing.
    const before = world.service.commits.length;
    push(world);
    expect(world.service.commits.length).toBe(before);
  });

  it('a create whose answer is lost is sent once, left pending, and adopted by the next push', () => {
    const world = pulledWorld(2);
    world.sheet.appendLine({ title: 'new', amount: 7 });
    world.service.fault('post', 'lost');
    push(world);
    expect(world.service.rows).toHaveLength(3);
    expect(issueKind(lineOf(world, titled('new'))._sync)).toBe('pending');
    push(world);
    expect(world.service.commits.filter((commit) => commit.method === 'post')).toHaveLength(1);
    expect(lineOf(world, titled('new'))).toMatchObject({ id: 'r0003', _sync: STATUS.created });
  });

  it('a create whose answer is lost under one key is adopted, not sent again, by a push under another key', () => {
    const world = pulledWorld(2);
    world.sheet.appendLine({ title: 'new', amount: 7 });
    world.service.fault('post', 'lost');
    push(world, ANN);
    push(world, BOB);
    expect(world.service.commits.filter((commit) => commit.method === 'post')).toHaveLength(1);
  });

  it('a lost create whose mark was cleared and one of its values retyped is adopted, not sent again', () => {
    const world = pulledWorld(2);
    world.sheet.appendLine({ title: 'new', amount: 7 });
    world.service.fault('post', 'lost');
    push(world);
    const line = world.sheet.lineOfId('');
    // The person clears the status (the pending mark goes) and retypes the amount.
    world.sheet.type(line, '_sync', '');
    world.sheet.type(line, 'amount', 8);
    push(world);
    expect(world.service.commits.filter((commit) => commit.method === 'post')).toHaveLength(1);
    push(world);
    expect(world.service.rows).toHaveLength(3);
    expect(world.service.find('r0003')).toMatchObject({ title: 'new', amount: 8 });
  });

  it('a PATCH answered 503 after the service committed it is retried harmlessly', () => {
    const world = pulledWorld(2);
    world.sheet.type(world.sheet.lineOfId('r0001'), 'title', 'mine');
    world.service.fault('patch', '503-after-commit');
    const result = push(world);
    expect(result.counts.updated).toBe(1);
    expect(world.service.find('r0001')?.title).toBe('mine');
    expect(lineOf(world, titled('mine'))._sync).toBe(STATUS.pushed);
  });

  it('a create answered 503 after the service committed it makes one row', () => {
    const world = pulledWorld(1);
    world.sheet.appendLine({ title: 'new', amount: 7 });
    world.service.fault('post', '503-after-commit');
    push(world);
    push(world);
    expect(world.service.rows.filter((row) => row.title === 'new')).toHaveLength(1);
  });

  it('a create answered 2xx with an error body after the service committed it makes one row', () => {
    const world = pulledWorld(1);
    world.sheet.appendLine({ title: 'new', amount: 7 });
    world.service.fault('post', 'error-body');
    push(world);
    push(world);
    expect(world.service.rows.filter((row) => row.title === 'new')).toHaveLength(1);
  });

  it('a new line waits while a synced header is missing: no row is created without that column', () => {
    const world = pulledWorld(3);
    world.sheet.appendLine({ title: 'new', amount: 7 });
    // Renamed, and most titles edited too, so it is not recognised as the title column.
    world.sheet.renameHeader('title', 'my title');
    for (const id of ['r0001', 'r0002']) world.sheet.type(world.sheet.lineOfId(id), 'my title', `x-${id}`);
    push(world);
    expect(world.service.commits.filter((commit) => commit.method === 'post')).toEqual([]);
    expect(lineOf(world, (cells) => cells['my title'] === 'new')._sync).toMatch(
      /not created: the header title is missing/,
    );
    world.sheet.renameHeader('my title', 'title');
    push(world);
    expect(world.service.commits.filter((commit) => commit.method === 'post').map((c) => c.values)).toEqual([
      { title: 'new', amount: 7 },
    ]);
  });

  it('a lost create the service changed in half its columns before recovery is adopted, not made again', () => {
    const world = pulledWorld(2);
    world.sheet.appendLine({ title: 'new', amount: 7 });
    world.service.fault('post', 'error-body');
    push(world, BOB);
    world.service.update('r0003', { amount: 70 }, BOB.id);
    runPull(world.ports(ANN), world.links.get());
    push(world, ANN);
    expect(world.service.commits.filter((commit) => commit.method === 'post')).toHaveLength(1);
    expect(lineOf(world, titled('new'))).toMatchObject({ id: 'r0003', amount: 70 });
  });

  it('reads the edited rows on the service and patches them with no Spreadsheet call between', () => {
    const world = pulledWorld(3);
    world.sheet.type(world.sheet.lineOfId('r0002'), 'amount', 20);
    push(world);
    const calls = world.calls;
    const patch = calls.indexOf('service.updateRows');
    const read = calls.lastIndexOf('service.tableAndFirstRows', patch);
    expect(read).toBeGreaterThanOrEqual(0);
    const between = calls.slice(read + 1, patch).filter((name) => !/^(run|service)\./.test(name));
    expect(between).toEqual([]);
  });

  it('a listing that does not fit one execution goes on in the next: the lost create is adopted, never sent twice', () => {
    const world = pulledWorld(20);
    world.sheet.appendLine({ title: 'new', amount: 7 });
    world.service.fault('post', 'lost');
    push(world);
    // Others added rows since: the table no longer lists in one execution's first waves.
    for (let i = 0; i < 2600; i++) world.service.insert({ title: `bob ${i}`, amount: i }, BOB.id);
    expect(issueKind(lineOf(world, titled('new'))._sync)).toBe('pending');
    // The lost create's row now lists among pages only the first execution reads.
    world.service.rows.splice(150, 0, ...world.service.rows.splice(20, 1));
    // The service slows down: the listing's first wave is all that fits this execution.
    world.hook = (name) => {
      if (name === 'service.listAllRows') world.clock.deadline = world.clock.ms;
    };
    const first = push(world);
    expect(first.finished).toBe(false);
    expect(first.listing?.nextOffset).toBeGreaterThan(0);
    expect(first.listing?.nextOffset).toBeLessThan(2600);
    expect(first.listing?.candidates.map((candidate) => candidate.row.id)).toEqual(['r0021']);
    expect(issueKind(lineOf(world, titled('new'))._sync)).toBe('pending');
    world.hook = () => {};
    world.clock.deadline = world.clock.ms + 6 * 60 * 1000;
    const next = runPush(
      world.ports(ANN),
      world.links.get(),
      first.listing ? { listing: first.listing } : {},
    );
    expect(next.finished).toBe(true);
    expect(world.service.commits.filter((commit) => commit.method === 'post')).toHaveLength(1);
    expect(lineOf(world, titled('new'))).toMatchObject({ id: 'r0021', _sync: STATUS.created });
  });

  it('edits of rows changed on the service wait for a pull when the listing does not fit: nothing is overwritten', () => {
    const world = pulledWorld(100);
    // Rows added above the synced ones since the last pull: the edited rows are beyond the first waves.
    for (let i = 0; i < 2600; i++) world.service.insert({ title: `bob ${i}`, amount: i }, BOB.id);
    world.service.rows.unshift(...world.service.rows.splice(100));
    for (let i = 1; i <= 9; i++)
      world.sheet.type(world.sheet.lineOfId(`r${String(i).padStart(4, '0')}`), 'amount', 1000 + i);
    world.service.update('r0002', { amount: 2 }, BOB.id);
    let listed = false;
    world.hook = (name) => {
      // Time runs out in the listing (a slow page); the row checks that follow still have time (the
      // listing reads the run's clock between its waves: time comes back when the checks begin).
      if (name === 'service.listAllRows') {
        world.clock.deadline = world.clock.ms;
        listed = true;
      } else if (listed && name === 'run.report') {
        world.clock.deadline = world.clock.ms + 6 * 60 * 1000;
        listed = false;
      }
    };
    const result = push(world);
    expect(world.service.find('r0002')?.amount).toBe(2);
    expect(String(lineOf(world, (cells) => cells.id === 'r0002')._sync)).toMatch(
      /changed on the service since the last pull/,
    );
    expect(result.counts.updated).toBe(8);
    world.hook = () => {};
    world.clock.deadline = world.clock.ms + 6 * 60 * 1000;
    runPull(world.ports(ANN), world.links.get());
    push(world);
    expect(world.service.find('r0002')?.amount).toBe(1002);
  });

  it('title cells sorted alone over synced and new lines: held, neither patched nor created', () => {
    const world = pulledWorld(15);
    for (let i = 1; i <= 15; i++) world.sheet.appendLine({ title: `n${i}`, amount: 100 + i });
    const titleAt = world.sheet.columnOf('title');
    const titles = Array.from({ length: 30 }, (_, line) => String(world.sheet.sheet.get(line + 1, titleAt)));
    titles.sort();
    for (const [line, title] of titles.entries()) world.sheet.sheet.set(line + 1, titleAt, title);
    const result = push(world);
    expect(result.held?.columns.map((column) => column.columnId)).toEqual(['title']);
    expect(world.service.commits).toEqual([]);
    // Confirmed by the key the person saw: what was held goes.
    runPush(world.ports(ANN), world.links.get(), { confirmHeld: result.held?.key ?? '' });
    expect(world.service.commits.filter((commit) => commit.method === 'post')).toHaveLength(15);
  });

  describe('when a line shows an error from an earlier run', () => {
    it('a value put back to what the service holds clears the error on the next push', () => {
      const world = pulledWorld(3);
      world.sheet.type(world.sheet.lineOfId('r0002'), 'amount', 'lots');
      push(world);
      expect(lineOf(world, titled('t2'))._sync).toMatch(/^✖ not pushed: amount: "lots" is not a number/);
      world.sheet.type(world.sheet.lineOfId('r0002'), 'amount', 2);
      const result = push(world);
      expect(lineOf(world, titled('t2'))._sync).toBe(STATUS.inSync);
      expect(result.tally.error).toBe(0);
      expect(result.counts).toMatchObject({ updated: 0, errors: 0, unchanged: 3 });
      expect(world.service.commits).toEqual([]);
    });

    it('a value corrected to another valid one is sent and the line says pushed', () => {
      const world = pulledWorld(2);
      world.sheet.type(world.sheet.lineOfId('r0001'), 'amount', 'lots');
      push(world);
      world.sheet.type(world.sheet.lineOfId('r0001'), 'amount', 12);
      push(world);
      expect(lineOf(world, titled('t1'))._sync).toBe(STATUS.pushed);
      expect(world.service.find('r0001')?.amount).toBe(12);
    });

    it('a new line refused and then emptied loses its "not created" status, and nothing is created', () => {
      const world = pulledWorld(1);
      world.sheet.appendLine({ amount: 'lots' });
      push(world);
      const line = world.sheet.values().length - 2;
      expect(String(world.sheet.values()[line + 1]?.[world.sheet.columnOf('_sync')])).toMatch(
        /^✖ not created/,
      );
      world.sheet.type(line, 'amount', '');
      push(world);
      // The line is blank again (values() trims blank lines at the end): its status is gone too.
      expect(world.sheet.values()).toHaveLength(2);
      expect(world.service.rows).toHaveLength(1);
    });

    it('"local edits not pushed yet" left on a line whose edit was undone becomes in sync', () => {
      const world = pulledWorld(2);
      world.sheet.type(world.sheet.lineOfId('r0001'), 'title', 'mine');
      runPull(world.ports(ANN), world.links.get());
      expect(lineOf(world, titled('mine'))._sync).toMatch(/^✎ local edits not pushed yet/);
      world.sheet.type(world.sheet.lineOfId('r0001'), 'title', 't1');
      push(world);
      expect(lineOf(world, titled('t1'))._sync).toBe(STATUS.inSync);
    });

    it('a removed-on-the-service mark stays: nothing to send does not bring the row back', () => {
      const world = pulledWorld(2);
      world.service.remove('r0002');
      runPull(world.ports(ANN), world.links.get());
      expect(lineOf(world, titled('t2'))._sync).toBe(STATUS.removed);
      push(world);
      expect(lineOf(world, titled('t2'))._sync).toBe(STATUS.removed);
    });
  });

  it('two id cells swapped on a line in conflict that a later push met again: nothing is sent', () => {
    const world = pulledWorld(6);
    world.service.update('r0002', { amount: 20 }, BOB.id);
    world.sheet.type(world.sheet.lineOfId('r0002'), 'amount', 200);
    // A pull marks the conflict (the line shows the service's lMod), then a push meets it again.
    runPull(world.ports(ANN), world.links.get());
    push(world, BOB);
    const a = world.sheet.lineOfId('r0002');
    const b = world.sheet.lineOfId('r0005');
    world.sheet.type(a, 'id', 'r0005');
    world.sheet.type(b, 'id', 'r0002');
    const before = world.service.commits.length;
    push(world);
    expect(world.service.commits.slice(before)).toEqual([]);
  });

  it('two id cells swapped of rows that share an lMod (one batch wrote them): nothing is sent', () => {
    // A service stamps rows written together with one time (or stamps coarsely): the lMod cells then
    // name neither row, and only the lines' values tell that the ids were swapped (chaos seed 20240132).
    const world = pulledSharingLMod(4, 2);
    const a = world.sheet.lineOfId('r0001');
    const b = world.sheet.lineOfId('r0002');
    world.sheet.type(a, 'id', 'r0002');
    world.sheet.type(b, 'id', 'r0001');
    const before = world.service.commits.length;
    push(world);
    expect(world.service.commits.slice(before)).toEqual([]);
    expect(String(lineOf(world, titled('t1'))._sync)).toMatch(/shows another row's lMod/);
    // A real edit of a row sharing its lMod still goes.
    world.sheet.type(a, 'id', 'r0001');
    world.sheet.type(b, 'id', 'r0002');
    world.sheet.type(a, 'title', 'edited');
    push(world);
    expect(world.service.find('r0001')?.title).toBe('edited');
    expect(world.service.find('r0002')?.title).toBe('t2');
  });

  it('a line typed to hold the values of a row sharing its lMod is still its own row, and is sent', () => {
    const world = pulledSharingLMod(3, 2);
    // A deal closed like its neighbour: r0001's line typed to r0002's values; r0002's line unchanged.
    const one = world.sheet.lineOfId('r0001');
    world.sheet.type(one, 'title', 't2');
    world.sheet.type(one, 'amount', 2);
    push(world);
    expect(world.service.find('r0001')).toMatchObject({ title: 't2', amount: 2 });
    expect(world.service.find('r0002')).toMatchObject({ title: 't2', amount: 2 });
  });

  it('never sends a value the service already holds, even where the base says the row has not moved', () => {
    // The base agreed an empty title for r0002 at the row's lMod (as a pull that could not write a
    // line agrees a column it adds: team chaos seed 20240157); its line holds the service's title.
    const world = pulledWorld(3);
    const base = world.base.read();
    const record = base.get('r0002');
    if (!record) throw new Error('no record');
    base.set({ ...record, digests: { ...record.digests, title: valueDigest('', 'text') } });
    world.base.write(base);
    const before = world.service.commits.length;
    const result = push(world);
    expect(world.service.commits.slice(before)).toEqual([]);
    expect(result.counts).toMatchObject({ updated: 0, conflicts: 0, errors: 0 });
    expect(lineOf(world, titled('t2'))._sync).toBe(STATUS.inSync);
    // The base agrees with the service again: the next push has nothing to send either.
    push(world);
    expect(world.service.commits.slice(before)).toEqual([]);
  });

  describe('when a person acts between its port calls', () => {
    it('typing into the pushed cell between the read and the status write: the new value goes with the next push', () => {
      const world = pulledWorld(3);
      const line = world.sheet.lineOfId('r0002');
      world.sheet.type(line, 'title', 'first');
      world.actBefore('service.updateRows', () =>
        world.sheet.type(world.sheet.lineOfId('r0002'), 'title', 'second'),
      );
      push(world);
      expect(world.service.find('r0002')?.title).toBe('first');
      expect(lineOf(world, (cells) => cells.id === 'r0002').title).toBe('second');
      world.hook = () => {};
      push(world);
      expect(world.service.find('r0002')?.title).toBe('second');
    });

    it('a sort between the read and the create: each created id lands on its own line', () => {
      const world = pulledWorld(3);
      world.sheet.appendLine({ title: 'b-new', amount: 1 });
      world.sheet.appendLine({ title: 'a-new', amount: 2 });
      world.actBefore('service.createRows', () => world.sheet.sort('title'));
      push(world);
      for (const title of ['a-new', 'b-new']) {
        const id = String(lineOf(world, titled(title)).id);
        expect(world.service.find(id)?.title).toBe(title);
      }
      expect(world.service.rows).toHaveLength(5);
    });

    it('a line deleted before the statuses are written: nothing lands on the line that moved up', () => {
      const world = pulledWorld(3);
      world.sheet.type(world.sheet.lineOfId('r0001'), 'amount', 10);
      world.actBefore('service.updateRows', () => world.sheet.deleteLine(world.sheet.lineOfId('r0001')));
      push(world);
      expect(world.service.find('r0001')?.amount).toBe(10);
      const next = lineOf(world, (cells) => cells.id === 'r0002');
      expect(next).toMatchObject({ title: 't2', amount: 2, _sync: STATUS.pulled });
    });
  });
});

describe('a live push of typed lines', () => {
  /** Ann types `value` into `header` of the line of `rowId`; the live push of that line, as the firing names it. */
  function typeAndPush(world: MemoryWorld, rowId: string, header: string, value: unknown) {
    const line = world.sheet.lineOfId(rowId);
    world.sheet.type(line, header, value);
    const column = world.sheet.columnOf(header);
    return runPush(world.ports(ANN), world.links.get(), {
      lines: [line],
      typed: { lines: [line], firstColumn: column, lastColumn: column },
    });
  }

  it('checks the typed row in the schema read, then patches it: no GET after the schema', () => {
    const world = pulledWorld(3);
    const result = typeAndPush(world, 'r0002', 'amount', 20);
    expect(result.counts).toMatchObject({ updated: 1, conflicts: 0, errors: 0 });
    expect(world.service.find('r0002')).toMatchObject({ amount: 20 });
    const service = world.calls.filter((call) => call.startsWith('service.'));
    expect(service).toEqual(['service.tableAndRowsByIds', 'service.updateRows']);
  });

  it('a row changed on the service since the base: the check read with the schema finds it, and a column changed on both sides is a conflict', () => {
    const world = pulledWorld(3);
    world.service.update('r0002', { amount: 99 }, BOB.id);
    const result = typeAndPush(world, 'r0002', 'amount', 20);
    expect(result.counts).toMatchObject({ updated: 0, conflicts: 1 });
    expect(world.service.find('r0002')).toMatchObject({ amount: 99 });
    expect(world.calls).toContain('service.tableAndRowsByIds');
  });

  it('on a sheet read in part, a typed line whose lMod other rows share is judged by their lines too, read for it', () => {
    // More lines than a live push reads whole: only the typed lines are loaded at first. Rows one batch
    // wrote share an lMod, and the id-swap check compares the typed line with those rows' lines.
    const world = pulledSharingLMod(260, 3);
    const result = typeAndPush(world, 'r0001', 'amount', 10);
    expect(result.counts).toMatchObject({ updated: 1, errors: 0 });
    expect(world.service.find('r0001')).toMatchObject({ title: 't1', amount: 10 });
    // Two id cells swapped among those rows still send nothing, as in a whole push.
    const a = world.sheet.lineOfId('r0002');
    const b = world.sheet.lineOfId('r0003');
    world.sheet.type(a, 'id', 'r0003');
    world.sheet.type(b, 'id', 'r0002');
    const before = world.service.commits.length;
    const column = world.sheet.columnOf('id');
    runPush(world.ports(ANN), world.links.get(), {
      lines: [a, b],
      typed: { lines: [a, b], firstColumn: column, lastColumn: column },
    });
    expect(world.service.commits.slice(before)).toEqual([]);
  });

  it('on a sheet read in part, a line typed to hold the values of a row sharing its lMod, whose line was not read, is sent', () => {
    const world = pulledSharingLMod(260, 3);
    world.sheet.type(world.sheet.lineOfId('r0001'), 'title', 't3');
    const typed = typeAndPush(world, 'r0001', 'amount', 3);
    expect(typed.counts).toMatchObject({ updated: 1, errors: 0 });
    expect(world.service.find('r0001')).toMatchObject({ title: 't3', amount: 3 });
    expect(world.service.find('r0003')).toMatchObject({ title: 't3', amount: 3 });
  });

  it("a cell typed in a person's own column reads no row: the schema alone, nothing sent", () => {
    const world = pulledWorld(3);
    // The column right of the headers: one without a header, the person's own.
    const own = world.sheet.values()[0]?.length ?? 0;
    const line = world.sheet.lineOfId('r0001');
    const result = runPush(world.ports(ANN), world.links.get(), {
      lines: [line],
      typed: { lines: [line], firstColumn: own, lastColumn: own },
    });
    expect(result.counts).toMatchObject({ updated: 0, created: 0 });
    expect(world.calls.filter((call) => call.startsWith('service.'))).toEqual(['service.table']);
  });
});
