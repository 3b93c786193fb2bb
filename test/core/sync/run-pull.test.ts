// runPull over the in-memory ports: a first pull, a three-way re-pull, and a person acting between
// the pull's port calls (sorting, typing, changing the link's options).
import { describe, expect, it } from 'vitest';
import { isConflictStatus, issueKind, STATUS } from '../../../src/core/status';
import { runPull } from '../../../src/core/sync/pull/run-pull';
import { runPush } from '../../../src/core/sync/push/run-push';
import { ANN, BOB, MemoryWorld } from '../../memory/memory-ports';

/** A world whose service holds `count` rows (title tN, amount N) made by Bob. */
function worldWith(count: number): MemoryWorld {
  const world = new MemoryWorld();
  for (let i = 1; i <= count; i++) world.service.insert({ title: `t${i}`, amount: i }, BOB.id);
  return world;
}

function pull(world: MemoryWorld) {
  return runPull(world.ports(ANN), world.links.get());
}

/** The cells of the line holding this row id, by header. */
function lineOf(world: MemoryWorld, id: string): Record<string, unknown> {
  const [headers, ...lines] = world.sheet.values() as [unknown[], ...unknown[][]];
  const line = lines.find((cells) => cells[headers.indexOf('id')] === id);
  if (!line) throw new Error(`no line for ${id}`);
  return Object.fromEntries(headers.map((header, i) => [String(header), line[i]]));
}

describe('runPull over memory', () => {
  it('fills an empty sheet: headers, one line per row, base records and the link marked synced', () => {
    const world = worldWith(3);
    const result = pull(world);
    expect(result.finished).toBe(true);
    expect(world.sheet.values()).toEqual([
      ['id', 'title', 'amount', 'lMod', '_sync'],
      ...world.service.rows.map((row) => [row.id, row.title, row.amount, row.lMod, STATUS.pulled]),
    ]);
    expect(world.base.records().ids().sort()).toEqual(['r0001', 'r0002', 'r0003']);
    expect(world.links.get().lastSyncAt).not.toBeNull();
  });

  it('re-pulls three-way: keeps a local edit, takes a service change, marks a conflict, adds and marks removed rows', () => {
    const world = worldWith(4);
    pull(world);
    world.sheet.type(world.sheet.lineOfId('r0001'), 'title', 'mine1');
    world.service.update('r0001', { amount: 100 }, BOB.id);
    world.sheet.type(world.sheet.lineOfId('r0002'), 'title', 'mine2');
    world.service.update('r0002', { title: 'theirs2' }, BOB.id);
    world.service.insert({ title: 'new', amount: 9 }, BOB.id);
    world.service.remove('r0004');
    pull(world);
    expect(lineOf(world, 'r0001')).toMatchObject({ title: 'mine1', amount: 100 });
    expect(issueKind(lineOf(world, 'r0001')._sync)).toBe('edited');
    expect(lineOf(world, 'r0002').title).toBe('mine2');
    expect(isConflictStatus(lineOf(world, 'r0002')._sync)).toBe(true);
    expect(world.base.records().get('r0002')?.conflict?.theirs).toEqual({ title: 'theirs2' });
    expect(lineOf(world, 'r0005')).toMatchObject({ title: 'new', amount: 9 });
    expect(lineOf(world, 'r0004')._sync).toBe(STATUS.removed);
  });

  describe('when a person acts between its port calls', () => {
    it('a sort between the read and the write of the chunk: every value lands on its own row id', () => {
      const world = worldWith(6);
      pull(world);
      for (const row of world.service.rows)
        world.service.update(row.id, { amount: Number(row.amount) * 10 }, BOB.id);
      world.actBefore('sheet.writeLines', () => world.sheet.sort('title', true));
      pull(world);
      expect(world.sheet.values()[1]?.[0]).toBe('r0006');
      for (const row of world.service.rows)
        expect(lineOf(world, row.id)).toMatchObject({ title: row.title, amount: row.amount });
    });

    it('typing into a cell the pull updates, between its read and its write: the typing stays', () => {
      const world = worldWith(3);
      pull(world);
      world.service.update('r0002', { title: 'theirs' }, BOB.id);
      world.actBefore('sheet.writeLines', () =>
        world.sheet.type(world.sheet.lineOfId('r0002'), 'title', 'typed'),
      );
      pull(world);
      expect(lineOf(world, 'r0002').title).toBe('typed');
      expect(lineOf(world, 'r0001').title).toBe('t1');
    });

    // sync-rules.md: a change on the service that meets typing is a conflict; the base stays at the
    // last agreement, so the next push does not send the typing blindly.
    it('typing into a cell the pull updates, between its read and its write: the line is a conflict', () => {
      const world = worldWith(3);
      pull(world);
      world.service.update('r0002', { title: 'theirs' }, BOB.id);
      world.actBefore('sheet.writeLines', () =>
        world.sheet.type(world.sheet.lineOfId('r0002'), 'title', 'typed'),
      );
      pull(world);
      world.hook = () => {};
      pull(world);
      expect(lineOf(world, 'r0002').title).toBe('typed');
      expect(isConflictStatus(lineOf(world, 'r0002')._sync)).toBe(true);
    });

    it('inserting a line above between the read and the write: the pull writes below it, the new line kept', () => {
      const world = worldWith(3);
      pull(world);
      world.service.update('r0001', { title: 'changed' }, BOB.id);
      world.actBefore('sheet.writeLines', () => world.sheet.insertLine(0, { title: 'typed new' }));
      pull(world);
      expect(world.sheet.values()[1]?.slice(0, 3)).toEqual(['', 'typed new', '']);
      expect(lineOf(world, 'r0001').title).toBe('changed');
    });

    it('a header renamed between the read and the write: nothing is written into the renamed column', () => {
      const world = worldWith(3);
      pull(world);
      world.service.update('r0002', { amount: 200 }, BOB.id);
      world.sheet.type(world.sheet.lineOfId('r0003'), 'amount', 30);
      world.actBefore('sheet.writeLines', () => world.sheet.renameHeader('amount', 'my amounts'));
      pull(world);
      expect(world.sheet.values().map((cells) => cells[2])).toEqual(['my amounts', 1, 2, 30]);
    });

    // A line the write could not find keeps its base: renamed back, the next push meets the service's
    // change as a change, not as an old agreement.
    it('a header renamed between the read and the write, then renamed back: the service change is not overwritten', () => {
      const world = worldWith(3);
      pull(world);
      world.service.update('r0002', { amount: 200 }, BOB.id);
      world.actBefore('sheet.writeLines', () => world.sheet.renameHeader('amount', 'my amounts'));
      pull(world);
      world.hook = () => {};
      world.sheet.renameHeader('my amounts', 'amount');
      runPush(world.ports(ANN), world.links.get());
      expect(world.service.find('r0002')?.amount).toBe(200);
    });

    // sync-rules.md: a run never writes back settings it read when it started.
    it('link options changed while the pull runs stand after it', () => {
      const world = worldWith(2);
      world.actBefore('service.listTableAndRows', () => {
        const link = world.links.get();
        link.showEmails = true;
        world.links.save(link);
      });
      pull(world);
      expect(world.links.get().showEmails).toBe(true);
    });
  });
});

describe("a column the service adds under a header of a person's own column", () => {
  it('stays theirs: nothing of it is marked, sent or overwritten, until they rename it', () => {
    const world = worldWith(3);
    pull(world);
    const notesAt = (world.sheet.values()[0] as unknown[]).length;
    world.sheet.sheet.set(0, notesAt, 'notes');
    for (const id of ['r0001', 'r0002', 'r0003'])
      world.sheet.type(world.sheet.lineOfId(id), 'notes', `mine ${id}`);
    world.service.columns = [...world.service.columns, { id: 'notes', name: 'Notes', type: 'text' }];
    world.service.update('r0001', { notes: 'theirs' }, BOB.id);
    const result = pull(world);
    expect(result.headerWarnings.join(' ')).toMatch(/already has a column of its own named notes/);
    for (const id of ['r0001', 'r0002', 'r0003']) {
      expect(lineOf(world, id).notes).toBe(`mine ${id}`);
      expect(isConflictStatus(lineOf(world, id)._sync)).toBe(false);
    }
    const commits = world.service.commits.length;
    runPush(world.ports(ANN), world.links.get());
    expect(world.service.commits.length).toBe(commits);
    expect(world.links.get().ownColumns).toEqual(['notes']);
    // Renamed: the next pull adds the service's column beside it.
    world.sheet.renameHeader('notes', 'my notes');
    pull(world);
    expect(lineOf(world, 'r0001')).toMatchObject({ 'my notes': 'mine r0001', notes: 'theirs' });
    expect(lineOf(world, 'r0002')).toMatchObject({ 'my notes': 'mine r0002', notes: '' });
    expect(world.links.get().ownColumns).toBeUndefined();
    runPush(world.ports(ANN), world.links.get());
    expect(world.service.commits.length).toBe(commits);
  });
});

describe('two id cells swapped', () => {
  it('a pull writes neither row onto the other line, and says so; put back, the lines sync again', () => {
    const world = worldWith(4);
    pull(world);
    const one = world.sheet.lineOfId('r0001');
    const two = world.sheet.lineOfId('r0002');
    world.sheet.type(one, 'id', 'r0002');
    world.sheet.type(two, 'id', 'r0001');
    world.service.update('r0001', { title: 'bob' }, BOB.id);
    pull(world);
    const [headers, ...lines] = world.sheet.values() as [unknown[], ...unknown[][]];
    const cellsOf = (line: number) =>
      Object.fromEntries(headers.map((header, i) => [String(header), lines[line]?.[i]]));
    expect(cellsOf(one)).toMatchObject({ id: 'r0002', title: 't1' });
    expect(cellsOf(two)).toMatchObject({ id: 'r0001', title: 't2' });
    for (const line of [one, two]) expect(String(cellsOf(line)._sync)).toMatch(/shows another row's lMod/);
    expect(lines).toHaveLength(4);
    const commits = world.service.commits.length;
    runPush(world.ports(ANN), world.links.get());
    expect(world.service.commits.length).toBe(commits);
    world.sheet.type(one, 'id', 'r0001');
    world.sheet.type(two, 'id', 'r0002');
    pull(world);
    expect(lineOf(world, 'r0001')).toMatchObject({ title: 'bob', _sync: STATUS.updated });
    expect(lineOf(world, 'r0002').title).toBe('t2');
  });
});

describe('two id cells swapped of rows that share an lMod', () => {
  it('a pull merges neither row into the other line: the values tell which row a line is', () => {
    const world = worldWith(4);
    const shared = world.service.rows[0]?.lMod as string;
    for (const row of world.service.rows.slice(0, 2)) row.lMod = shared;
    pull(world);
    const one = world.sheet.lineOfId('r0001');
    const two = world.sheet.lineOfId('r0002');
    world.sheet.type(one, 'id', 'r0002');
    world.sheet.type(two, 'id', 'r0001');
    world.service.update('r0001', { amount: 100 }, BOB.id);
    pull(world);
    const [headers, ...lines] = world.sheet.values() as [unknown[], ...unknown[][]];
    const cellsOf = (line: number) =>
      Object.fromEntries(headers.map((header, i) => [String(header), lines[line]?.[i]]));
    // Line two shows r0001's id but holds t2: r0001's change is not written onto it.
    expect(cellsOf(two)).toMatchObject({ id: 'r0001', title: 't2', amount: 2 });
    expect(String(cellsOf(two)._sync)).toMatch(/shows another row's lMod/);
    const commits = world.service.commits.length;
    runPush(world.ports(ANN), world.links.get());
    expect(world.service.commits.length).toBe(commits);
  });
});

describe('a pull of a line with nothing changed on either side', () => {
  it('clears a hold whose edits were undone by hand: the line is in sync', () => {
    const world = worldWith(12);
    pull(world);
    const ids = Array.from({ length: 12 }, (_, i) => `r${String(i + 1).padStart(4, '0')}`);
    // The titles shifted by one line alone: the push holds them.
    for (const [i, id] of ids.entries())
      world.sheet.type(world.sheet.lineOfId(id), 'title', `t${((i + 1) % 12) + 1}`);
    expect(runPush(world.ports(ANN), world.links.get()).held).toBeDefined();
    expect(String(lineOf(world, 'r0001')._sync)).toMatch(/^⏸ not pushed: title held/);
    // Undone by hand (Edit › Undo): every title back as it was.
    for (const [i, id] of ids.entries()) world.sheet.type(world.sheet.lineOfId(id), 'title', `t${i + 1}`);
    const pulled = pull(world);
    expect(lineOf(world, 'r0001')._sync).toBe(STATUS.inSync);
    expect(pulled.progress.counts).toMatchObject({ keptLocal: 0, updated: 0 });
  });
});

describe('a column the pull adds back while a row awaits review', () => {
  it('is no edit on that row when its line comes back: nothing is sent for it', () => {
    const world = worldWith(3);
    pull(world);
    world.sheet.deleteLine(world.sheet.lineOfId('r0002'));
    world.sheet.renameHeader('amount', '');
    pull(world);
    // The line pasted back, from before the column came back (its new amount cell is empty).
    world.sheet.appendLine({ id: 'r0002', title: 't2' });
    const commits = world.service.commits.length;
    runPush(world.ports(ANN), world.links.get());
    expect(world.service.commits.slice(commits)).toEqual([]);
  });
});
