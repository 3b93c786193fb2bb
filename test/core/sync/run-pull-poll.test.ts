// runPull by poll over the in-memory ports: only the rows changed since are read, merged three-way
// exactly as a whole listing merges them; no row is marked removed on a poll's word; the whole table
// is listed on "Pull everything", a day after the last whole listing, after a pull that did not
// finish, and wherever the poll is missing or ignores since.
import { describe, expect, it } from 'vitest';
import { isConflictStatus, keptLocalStatus, STATUS } from '../../../src/core/status';
import { runPull } from '../../../src/core/sync/pull/run-pull';
import { runPush } from '../../../src/core/sync/push/run-push';
import { ANN, BOB, MemoryWorld } from '../../memory/memory-ports';

const HOUR = 60 * 60 * 1000;

/**
 * A world whose service holds `count` rows made by Bob at midnight, pulled once (a whole listing) an
 * hour later with r0003 changed: the link's cursor is r0003's lMod, every other row older than the
 * overlap before it.
 */
function pulledWorld(count: number, poll: 'on' | 'off' | 'ignore-since' = 'on'): MemoryWorld {
  const world = new MemoryWorld();
  world.service.poll = poll;
  for (let i = 1; i <= count; i++) world.service.insert({ title: `t${i}`, amount: i }, BOB.id);
  world.service.clock += HOUR;
  world.service.update('r0003', { amount: 30 }, BOB.id);
  pull(world);
  world.service.clock += HOUR;
  world.service.requests.length = 0;
  return world;
}

function pull(world: MemoryWorld, everything = false) {
  return runPull(world.ports(ANN), world.links.get(), undefined, { everything });
}

/** The requests of the latest runs that read rows: the poll or the listing. */
function rowReads(world: MemoryWorld): string[] {
  return world.service.requests.filter((r) => r.includes('/rows?') || r.includes('/rows/updates?'));
}

function lineOf(world: MemoryWorld, id: string): Record<string, unknown> {
  const [headers, ...lines] = world.sheet.values() as [unknown[], ...unknown[][]];
  const line = lines.find((cells) => cells[headers.indexOf('id')] === id);
  if (!line) throw new Error(`no line for ${id}`);
  return Object.fromEntries(headers.map((header, i) => [String(header), line[i]]));
}

/** What both sides did between two pulls: local edits, service changes, a conflict, a new row. */
function changeBothSides(world: MemoryWorld): void {
  world.sheet.type(world.sheet.lineOfId('r0001'), 'title', 'mine1');
  world.service.update('r0001', { amount: 100 }, BOB.id);
  world.sheet.type(world.sheet.lineOfId('r0002'), 'title', 'mine2');
  world.service.update('r0002', { title: 'theirs2' }, BOB.id);
  world.sheet.type(world.sheet.lineOfId('r0004'), 'amount', 44);
  world.service.update('r0005', { title: 'five' }, BOB.id);
  world.service.insert({ title: 'new', amount: 9 }, BOB.id);
}

describe('runPull by poll over memory', () => {
  it('a whole listing leaves the cursor (the largest lMod seen) and when it finished, on the link', () => {
    const world = pulledWorld(6);
    const link = world.links.get();
    expect(link.pollCursor).toBe(world.service.find('r0003')?.lMod);
    expect(link.fullListingAt).toBe(link.lastSyncAt);
  });

  it('reads only the rows changed since the cursor less the overlap, with the schema in the same round', () => {
    const world = pulledWorld(6);
    world.service.update('r0005', { title: 'five' }, BOB.id);
    const cursor = world.links.get().pollCursor as string;
    pull(world);
    const since = new Date(Date.parse(cursor) - 10 * 60 * 1000).toISOString();
    expect(rowReads(world)).toEqual([
      `get /tableApps/app1/tables/tbl1/rows/updates?since=${encodeURIComponent(since)}&offset=0&limit=100`,
    ]);
    expect(lineOf(world, 'r0005').title).toBe('five');
    // The cursor moves to the newest lMod seen; no whole listing finished.
    expect(world.links.get().pollCursor).toBe(world.service.find('r0005')?.lMod);
    expect(world.links.get().fullListingAt).not.toBe(world.links.get().lastSyncAt);
  });

  it('merges three-way exactly as a whole listing does: the same sheet and base as a twin pulled whole', () => {
    const polled = pulledWorld(6);
    const listed = pulledWorld(6, 'off');
    for (const world of [polled, listed]) {
      changeBothSides(world);
      // A sort between the read and the write: lines are re-identified by id.
      world.actBefore('sheet.writeLines', () => world.sheet.sort('title', true));
      pull(world);
      world.hook = () => {};
    }
    expect(rowReads(polled).every((r) => r.includes('/rows/updates?'))).toBe(true);
    expect(rowReads(listed).some((r) => r.includes('/rows?'))).toBe(true);
    // r0004 was edited here and not on the service: the poll did not bring it, its line says the
    // same as the listing's ("local edits not pushed yet").
    expect(polled.sheet.values()).toEqual(listed.sheet.values());
    expect(polled.base.records().ids().sort()).toEqual(listed.base.records().ids().sort());
    for (const id of polled.base.records().ids())
      expect(polled.base.records().get(id), id).toEqual(listed.base.records().get(id));
    expect(lineOf(polled, 'r0001')).toMatchObject({ title: 'mine1', amount: 100 });
    expect(isConflictStatus(lineOf(polled, 'r0002')._sync)).toBe(true);
    expect(lineOf(polled, 'r0004')).toMatchObject({ amount: 44, _sync: keptLocalStatus(['amount']) });
    expect(lineOf(polled, 'r0007')).toMatchObject({ title: 'new', amount: 9 });
  });

  it('counts the rows it did not bring as unchanged, as a whole listing does (a line already marked removed aside)', () => {
    const polled = pulledWorld(6);
    const listed = pulledWorld(6, 'off');
    const results = [polled, listed].map((world) => {
      world.service.update('r0005', { title: 'five' }, BOB.id);
      return pull(world).progress.counts;
    });
    expect(results[0]).toEqual(results[1]);
    expect(results[0]).toMatchObject({ updated: 1, unchanged: 5 });
  });

  it('counts and words a line edited here, whose row the poll did not bring, as a whole listing does', () => {
    const polled = pulledWorld(6);
    const listed = pulledWorld(6, 'off');
    const results = [polled, listed].map((world) => {
      world.sheet.type(world.sheet.lineOfId('r0001'), 'title', 'mine');
      world.sheet.type(world.sheet.lineOfId('r0002'), 'amount', 'not a number');
      return pull(world).progress.counts;
    });
    expect(rowReads(polled).every((r) => r.includes('/rows/updates?'))).toBe(true);
    expect(results[0]).toEqual(results[1]);
    expect(results[0]).toMatchObject({ keptLocal: 1, errors: 1, unchanged: 4 });
    expect(polled.sheet.values()).toEqual(listed.sheet.values());
  });

  it('adopts a create whose answer was lost, from the poll, never adding its row twice', () => {
    const world = pulledWorld(3);
    world.sheet.appendLine({ title: 'new', amount: 7 });
    world.service.fault('post', 'lost');
    runPush(world.ports(ANN), world.links.get());
    world.service.requests.length = 0;
    pull(world);
    expect(rowReads(world).every((r) => r.includes('/rows/updates?'))).toBe(true);
    const lines = (world.sheet.values() as unknown[][]).slice(1);
    expect(lines.filter((cells) => cells.includes('new'))).toHaveLength(1);
    expect(lineOf(world, 'r0004')).toMatchObject({ title: 'new', amount: 7 });
  });

  it('marks no row removed on a poll\'s word; "Pull everything" lists the whole table and marks it', () => {
    const world = pulledWorld(4);
    world.service.remove('r0004');
    pull(world);
    expect(lineOf(world, 'r0004')._sync).not.toBe(STATUS.removed);
    world.service.requests.length = 0;
    pull(world, true);
    expect(rowReads(world).some((r) => r.includes('/rows?'))).toBe(true);
    expect(lineOf(world, 'r0004')._sync).toBe(STATUS.removed);
    expect(world.links.get().fullListingAt).toBe(world.links.get().lastSyncAt);
  });

  it("a pull that adds a column lists the whole table: every line takes the column's values", () => {
    const world = pulledWorld(4);
    world.service.columns.push({ id: 'note', name: 'Note', type: 'text' });
    // A column added on the service holds values on rows whose lMod did not move.
    for (const row of world.service.rows) row.note = `note of ${row.id}`;
    pull(world);
    expect(rowReads(world)[0]).toContain('/rows/updates?');
    expect(rowReads(world).some((r) => r.includes('/rows?'))).toBe(true);
    for (const row of world.service.rows) expect(lineOf(world, row.id).note).toBe(`note of ${row.id}`);
    expect(world.links.get().freshColumns).toBeUndefined();
  });

  it('lists the whole table again a day after the last whole listing (the script clock)', () => {
    const world = pulledWorld(4);
    world.service.remove('r0004');
    world.clock.ms += 23 * HOUR;
    world.clock.deadline = world.clock.ms + 6 * 60 * 1000;
    pull(world);
    expect(rowReads(world).some((r) => r.includes('/rows?'))).toBe(false);
    world.clock.ms += HOUR;
    world.clock.deadline = world.clock.ms + 6 * 60 * 1000;
    pull(world);
    expect(rowReads(world).some((r) => r.includes('/rows?'))).toBe(true);
    expect(lineOf(world, 'r0004')._sync).toBe(STATUS.removed);
  });

  describe.each([
    ['missing (404)', 'off'],
    ['ignoring since', 'ignore-since'],
  ] as const)('when the poll is %s', (_, mode) => {
    it('lists the whole table (rows removed are marked), and the next pull asks no poll for a day', () => {
      const world = pulledWorld(4, mode);
      world.service.update('r0001', { title: 'one' }, BOB.id);
      world.service.remove('r0004');
      pull(world);
      expect(rowReads(world)[0]).toContain('/rows/updates?');
      expect(
        rowReads(world)
          .slice(1)
          .every((r) => r.includes('/rows?')),
      ).toBe(true);
      expect(lineOf(world, 'r0001').title).toBe('one');
      expect(lineOf(world, 'r0004')._sync).toBe(STATUS.removed);
      // The schema read with the poll is not read again.
      expect(world.service.requests.filter((r) => r === 'get /tableApps/app1/tables/tbl1')).toHaveLength(1);
      expect(world.pollMemory?.supported).toBe(false);
      world.service.requests.length = 0;
      pull(world);
      expect(rowReads(world).some((r) => r.includes('/rows/updates?'))).toBe(false);
    });
  });

  it('a poll that brings more than a tenth of the table gives way to the whole listing, in the same run', () => {
    const world = pulledWorld(1000);
    for (const row of world.service.rows) world.service.update(row.id, { title: `${row.title}!` }, BOB.id);
    world.service.remove('r0500');
    const result = pull(world);
    expect(result.finished).toBe(true);
    const reads = rowReads(world);
    expect(reads[0]).toContain('/rows/updates?');
    // Waves of 1, 2 and 4 pages: 700 rows, past the 100 (a tenth) and the 500 at least a poll takes.
    expect(reads.filter((r) => r.includes('/rows/updates?'))).toHaveLength(7);
    expect(reads.filter((r) => r.includes('/rows?')).length).toBeGreaterThanOrEqual(10);
    for (const row of world.service.rows) expect(lineOf(world, row.id).title).toBe(row.title);
    expect(lineOf(world, 'r0500')._sync).toBe(STATUS.removed);
    expect(world.links.get().fullListingAt).toBe(world.links.get().lastSyncAt);
  });

  it('a poll cut short by time is taken up by a whole listing in the next execution', () => {
    const world = pulledWorld(150);
    for (const row of world.service.rows) world.service.update(row.id, { title: `${row.title}!` }, BOB.id);
    world.service.update('r0001', { title: 'one' }, BOB.id);
    // Less left than a wave's writes need: the run stops at its first check (after the poll's first page).
    world.clock.deadline = world.clock.ms + 10_000;
    const first = pull(world);
    expect(first.finished).toBe(false);
    expect(first.progress.nextOffset).toBe(0);
    world.clock.deadline = world.clock.ms + 6 * 60 * 1000;
    world.service.requests.length = 0;
    const second = runPull(world.ports(ANN), world.links.get(), first.progress);
    expect(second.finished).toBe(true);
    expect(rowReads(world).every((r) => r.includes('/rows?'))).toBe(true);
    expect(lineOf(world, 'r0001').title).toBe('one');
  });
});

describe('what a pull by poll could not write is owed', () => {
  it('a change to a column whose header is renamed: the first pull that finds the header back lists the whole table', () => {
    const world = pulledWorld(6);
    world.sheet.renameHeader('amount', 'my amount');
    world.service.update('r0005', { amount: 55 }, BOB.id);
    pull(world);
    expect(world.links.get().owedColumns).toEqual(['amount']);
    // An hour later another row changes: the cursor moves past r0005's change, which no poll names again.
    world.service.clock += HOUR;
    world.service.update('r0006', { title: 'six' }, BOB.id);
    pull(world);
    expect(rowReads(world).every((read) => read.includes('/rows/updates?'))).toBe(true);
    expect(world.links.get().owedColumns).toEqual(['amount']);
    world.sheet.renameHeader('my amount', 'amount');
    world.service.requests.length = 0;
    pull(world);
    expect(rowReads(world).some((read) => read.includes('/rows?'))).toBe(true);
    expect(lineOf(world, 'r0005').amount).toBe(55);
    expect(world.links.get().owedColumns).toBeUndefined();
    world.service.requests.length = 0;
    pull(world);
    expect(rowReads(world).every((read) => read.includes('/rows/updates?'))).toBe(true);
  });

  it('a column deleted on the service owes nothing more: the check goes back to its one request', () => {
    const world = pulledWorld(6);
    world.sheet.renameHeader('amount', 'my amount');
    world.service.update('r0005', { amount: 55 }, BOB.id);
    pull(world);
    expect(world.links.get().owedColumns).toEqual(['amount']);
    // Deleted on the service (a copy: the columns array is shared by every memory world).
    world.service.columns = world.service.columns.map((column) =>
      column.id === 'amount' ? { ...column, deleted: true } : column,
    );
    pull(world);
    expect(world.links.get().owedColumns).toBeUndefined();
  });

  it('a whole listing in two executions, the header renamed in the first: the column stays owed', () => {
    const world = pulledWorld(1500);
    world.sheet.renameHeader('amount', 'my amount');
    for (const row of world.service.rows) world.service.update(row.id, { amount: 1000 }, BOB.id);
    world.clock.deadline = world.clock.ms + 10_000;
    const first = runPull(world.ports(ANN), world.links.get(), undefined, { everything: true });
    expect(first.finished).toBe(false);
    world.sheet.renameHeader('my amount', 'amount');
    world.clock.deadline = world.clock.ms + 6 * 60 * 1000;
    expect(runPull(world.ports(ANN), world.links.get(), first.progress).finished).toBe(true);
    // The rows of the first execution took no amount: the next pull lists them again.
    expect(world.links.get().owedColumns).toEqual(['amount']);
    world.service.requests.length = 0;
    pull(world);
    expect(rowReads(world).some((read) => read.includes('/rows?'))).toBe(true);
    for (const row of world.service.rows) expect(lineOf(world, row.id).amount).toBe(1000);
    expect(world.links.get().owedColumns).toBeUndefined();
  });

  it('a whole listing in two executions, a fixed field turned on between them: the next pull lists the whole table', () => {
    const world = pulledWorld(1500);
    world.clock.deadline = world.clock.ms + 10_000;
    const first = runPull(world.ports(ANN), world.links.get(), undefined, { everything: true });
    expect(first.finished).toBe(false);
    world.links.update((stored) => {
      stored.fixedFields = [...stored.fixedFields, 'cOn'];
    });
    world.clock.deadline = world.clock.ms + 6 * 60 * 1000;
    expect(runPull(world.ports(ANN), world.links.get(), first.progress).finished).toBe(true);
    world.service.requests.length = 0;
    pull(world);
    expect(rowReads(world).some((read) => read.includes('/rows?'))).toBe(true);
    for (const row of world.service.rows) expect(lineOf(world, row.id).cOn).toBe(row.cOn);
    world.service.requests.length = 0;
    pull(world);
    expect(rowReads(world).every((read) => read.includes('/rows/updates?'))).toBe(true);
  });
});

describe('a continued pull, its lines read in part', () => {
  it('a line holding the values of another row sharing its lMod, whose line an earlier page holds, is compared with that line', () => {
    const world = new MemoryWorld();
    for (let i = 1; i <= 1500; i++) world.service.insert({ title: `t${i}`, amount: i }, BOB.id);
    // One batch wrote r0001 and r1500 (one lMod); the listing gives them in different page waves.
    const shared = world.service.find('r0001')?.lMod as string;
    (world.service.find('r1500') as { lMod: string }).lMod = shared;
    pull(world);
    // A deal closed like r0001: r1500's line typed to hold r0001's values (r0001's line unchanged).
    const [headers, ...lines] = world.sheet.values() as [unknown[], ...unknown[][]];
    const last = lines.findIndex((cells) => cells[headers.indexOf('id')] === 'r1500');
    world.sheet.type(last, 'title', 't1');
    world.sheet.type(last, 'amount', 1);
    world.service.update('r1499', { title: 'changed' }, BOB.id);
    // Stopped at its first check: the next execution continues the whole listing, reading lines in part.
    world.clock.deadline = world.clock.ms + 10_000;
    const first = runPull(world.ports(ANN), world.links.get(), undefined, { everything: true });
    expect(first.finished).toBe(false);
    world.clock.deadline = world.clock.ms + 6 * 60 * 1000;
    const second = runPull(world.ports(ANN), world.links.get(), first.progress);
    expect(second.finished).toBe(true);
    expect(lineOf(world, 'r1499').title).toBe('changed');
    // r0001's own line still holds its values: r1500's line is r1500's, its edits kept to be pushed.
    expect(lineOf(world, 'r1500')).toMatchObject({ title: 't1', amount: 1 });
    expect(String(lineOf(world, 'r1500')._sync)).not.toMatch(/another row/);
  });
});
