// Push end to end: edited lines as PATCH with only the changed columns, new lines as POST, three-way,
// never twice — the built add-on in the Apps Script simulator against the emulator over real HTTP.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RequestLogEntry } from '../../emulators/table-service';
import type { SyncSummary } from '../../src/shared/types';
import {
  activeSheet,
  CRM,
  cell,
  cellOf,
  column,
  DEALS,
  headers,
  lineOf,
  linkFreshSheet,
  mismatches,
  pullSheet,
  pushSheet,
  requestsDuring,
  startWorld,
  typeInto,
  type World,
} from './world';

let world: World;
beforeAll(async () => {
  world = await startWorld();
});
afterAll(async () => world?.close());

function newLine(values: Record<string, unknown>, at?: number): number {
  const target = activeSheet(world);
  let row = target.getLastRow() + 1;
  if (at !== undefined) {
    target.insertRowBefore(at);
    row = at;
  }
  for (const [header, value] of Object.entries(values))
    target.getRange(row, column(world, header)).setValue(value);
  return row;
}

const writes = (log: RequestLogEntry[]) =>
  log.filter((entry) => entry.method === 'PATCH' || entry.method === 'POST');

async function serviceRow(rowId: string): Promise<Record<string, unknown>> {
  return (await world.serviceRows()).find((row) => row.id === rowId) as Record<string, unknown>;
}

describe('a push', () => {
  let ids: string[];
  beforeEach(async () => {
    await world.emulator.admin.reset('sample');
    await linkFreshSheet(world);
    ids = (await world.serviceRows()).map((row) => String(row.id));
  });

  it('after a pull with no edits sends nothing', async () => {
    const log = await requestsDuring(world, () =>
      expect(pushSheet(world)).toMatchObject({ ok: true, created: 0, updated: 0 }),
    );
    expect(writes(log)).toEqual([]);
  });

  it('creates nothing for a column of unticked checkboxes inserted over empty lines', async () => {
    const sheet = activeSheet(world);
    const first = world.values().length + 1;
    // Insert › Checkbox over 200 empty lines: every cell reads FALSE.
    sheet.getRange(first, column(world, 'won'), 200, 1).setValues(Array.from({ length: 200 }, () => [false]));
    const log = await requestsDuring(world, () => expect(pushSheet(world)).toMatchObject({ created: 0 }));
    expect(writes(log)).toEqual([]);
    // A box ticked on one of them, or a title typed beside one, is a line a person made.
    sheet.getRange(first, column(world, 'won')).setValue(true);
    sheet.getRange(first + 1, column(world, 'title')).setValue('Typed beside a box');
    const made = await requestsDuring(world, () => expect(pushSheet(world)).toMatchObject({ created: 2 }));
    expect(writes(made).map((entry) => JSON.parse(entry.body))).toEqual([
      { won: true },
      { title: 'Typed beside a box', won: false },
    ]);
  });

  it('two id cells swapped, or a few sorted alone, send nothing to either row', async () => {
    const sheet = activeSheet(world);
    const idAt = column(world, 'id');
    const [a, b] = [lineOf(world, ids[0] as string), lineOf(world, ids[1] as string)];
    sheet.getRange(a, idAt).setValue(ids[1]);
    sheet.getRange(b, idAt).setValue(ids[0]);
    // The id cells of the next six lines sorted alone (descending).
    const first = lineOf(world, ids[2] as string);
    const sorted = ids.slice(2, 8).sort().reverse();
    sheet.getRange(first, idAt, sorted.length, 1).setValues(sorted.map((id) => [id]));
    const log = await requestsDuring(world, () => pushSheet(world));
    expect(writes(log)).toEqual([]);
    for (const line of [a, b]) expect(String(cell(world, line, '_sync'))).toMatch(/is not row/);
  });

  it('sends one PATCH naming only the changed column', async () => {
    typeInto(world, ids[0] as string, 'status', 'Won');
    const log = await requestsDuring(world, () => expect(pushSheet(world)).toMatchObject({ updated: 1 }));
    expect(writes(log).map((entry) => [entry.method, JSON.parse(entry.body)])).toEqual([
      ['PATCH', { status: 'Won' }],
    ]);
    expect(writes(log)[0]?.headers['content-type']).toBe('application/json;charset=UTF-8');
    expect((await serviceRow(ids[0] as string)).status).toBe('Won');
    expect(String(cell(world, lineOf(world, ids[0] as string), '_sync'))).toContain('pushed');
    expect(await mismatches(world)).toEqual([]);
  });

  it('sends many cells of many lines, one PATCH per line, in the column’s JSON type', async () => {
    typeInto(world, ids[1] as string, 'title', 12345);
    typeInto(world, ids[1] as string, 'amount', 99.5);
    typeInto(world, ids[2] as string, 'won', true);
    typeInto(world, ids[2] as string, 'tags', '["a","b"]');
    typeInto(world, ids[3] as string, 'meta', '{"k":[1,{"x":null}]}');
    const log = await requestsDuring(world, () =>
      expect(pushSheet(world)).toMatchObject({ updated: 3, errors: 0 }),
    );
    const bodies = Object.fromEntries(
      writes(log).map((entry) => [entry.path.split('/').pop(), JSON.parse(entry.body)]),
    );
    expect(bodies).toEqual({
      [ids[1] as string]: { title: '12345', amount: 99.5 },
      [ids[2] as string]: { won: true, tags: ['a', 'b'] },
      [ids[3] as string]: { meta: { k: [1, { x: null }] } },
    });
    expect(pushSheet(world)).toMatchObject({ updated: 0 });
  });

  it('sends what a person typed literally: formula-like, zero-padded and date-like text', async () => {
    const typed = ['=1+1', '00123', '2024-01-05', 'TRUE', '+cmd', '@SUM(A1)'];
    for (const [i, text] of typed.entries()) typeInto(world, ids[i] as string, 'title', text);
    expect(pushSheet(world)).toMatchObject({ updated: typed.length, errors: 0 });
    for (const [i, text] of typed.entries()) expect((await serviceRow(ids[i] as string)).title).toBe(text);
  });

  it('never sends the person’s own columns', async () => {
    const width = headers(world).length;
    activeSheet(world)
      .getRange(1, width + 1)
      .setValue('my formula');
    activeSheet(world)
      .getRange(2, width + 1)
      .setFormula('=1+2');
    activeSheet(world)
      .getRange(3, width + 1)
      .setValue('scribble');
    const log = await requestsDuring(world, () => pushSheet(world));
    expect(writes(log)).toEqual([]);
  });

  it('creates new lines (at the end, between lines, after a sort) and writes their ids at once', async () => {
    activeSheet(world)
      .getRange(2, 1, 25, headers(world).length)
      .sort({ column: column(world, 'amount'), ascending: true });
    const a = newLine({ title: 'At the end', amount: 5 });
    const b = newLine({ title: 'In between', status: 'new' }, 4);
    const log = await requestsDuring(world, () =>
      expect(pushSheet(world)).toMatchObject({ created: 2, errors: 0 }),
    );
    expect(writes(log).map((entry) => entry.method)).toEqual(['POST', 'POST']);
    for (const row of [a + 1, b]) {
      const id = String(cell(world, row, 'id'));
      expect(id).not.toBe('');
      expect(String(cell(world, row, '_sync'))).toContain('created');
      expect((await serviceRow(id)).createdBy).toBe('u_alice');
    }
    const second = await requestsDuring(world, () => pushSheet(world));
    expect(writes(second)).toEqual([]);
    expect(await mismatches(world)).toEqual([]);
  });

  it('keeps what a person types on a new line below the data literal, like the pulled lines', async () => {
    const row = newLine({ title: '00123', status: '2024-01-05' });
    expect(cell(world, row, 'title')).toBe('00123');
    expect(cell(world, row, 'status')).toBe('2024-01-05');
    const log = await requestsDuring(world, () => expect(pushSheet(world)).toMatchObject({ created: 1 }));
    expect(JSON.parse(writes(log)[0]?.body ?? '{}')).toEqual({ title: '00123', status: '2024-01-05' });
  });

  it('merges an edit of another field made on the service meanwhile', async () => {
    const id = ids[4] as string;
    typeInto(world, id, 'status', 'mine');
    await world.emulator.admin.editRow(CRM, DEALS, id, { amount: 777 }, 'u_bob');
    const log = await requestsDuring(world, () =>
      expect(pushSheet(world)).toMatchObject({ updated: 1, conflicts: 0 }),
    );
    expect(writes(log).map((entry) => JSON.parse(entry.body))).toEqual([{ status: 'mine' }]);
    expect(await serviceRow(id)).toMatchObject({ status: 'mine', amount: 777 });
    world.call('pullActiveSheet');
    expect(cell(world, lineOf(world, id), 'amount')).toBe(777);
    expect(await mismatches(world)).toEqual([]);
  });

  describe('when the same field changed on both sides', () => {
    let id: string;
    beforeEach(async () => {
      id = ids[5] as string;
      typeInto(world, id, 'status', 'mine');
      await world.emulator.admin.editRow(CRM, DEALS, id, { status: 'theirs' }, 'u_bob');
    });

    it('does not send it, marks the line and lists it', async () => {
      let summary: SyncSummary | undefined;
      const log = await requestsDuring(world, () => {
        summary = pushSheet(world);
      });
      expect(writes(log)).toEqual([]);
      expect(summary).toMatchObject({ conflicts: 1 });
      expect(summary?.issues).toEqual([expect.objectContaining({ rowId: id, kind: 'conflict' })]);
      expect((await serviceRow(id)).status).toBe('theirs');
      expect(String(cell(world, lineOf(world, id), '_sync'))).toContain('conflict: status');
    });

    it('keep mine sends the local value', async () => {
      pushSheet(world);
      const log = await requestsDuring(world, () => world.call('resolveConflicts', { keep: 'mine' }));
      expect(writes(log).map((entry) => JSON.parse(entry.body))).toEqual([{ status: 'mine' }]);
      expect((await serviceRow(id)).status).toBe('mine');
      expect(await mismatches(world)).toEqual([]);
    });

    it('settles the row named by id, wherever a sort has moved its line since the list was shown', async () => {
      const other = ids[6] as string;
      typeInto(world, other, 'status', 'mine too');
      await world.emulator.admin.editRow(CRM, DEALS, other, { status: 'theirs too' }, 'u_bob');
      world.call('pullActiveSheet');
      const sheetName = String(world.sim.spreadsheet.getActiveSheet().getName());
      world.sim.person.sortSheet(sheetName, 'title', false);
      const log = await requestsDuring(world, () =>
        world.call('resolveConflicts', { keep: 'mine', rowIds: [id] }),
      );
      expect(writes(log).map((entry) => [entry.path.split('/').at(-1), JSON.parse(entry.body)])).toEqual([
        [id, { status: 'mine' }],
      ]);
      expect((await serviceRow(other)).status).toBe('theirs too');
      expect(String(cell(world, lineOf(world, other), '_sync'))).toContain('conflict');
    });

    it('take theirs puts the service’s value in the cell and sends nothing', async () => {
      world.call('pullActiveSheet');
      const log = await requestsDuring(world, () =>
        world.call('resolveConflicts', { keep: 'theirs', rowIds: [id] }),
      );
      expect(writes(log)).toEqual([]);
      expect(cell(world, lineOf(world, id), 'status')).toBe('theirs');
      expect(writes(await requestsDuring(world, () => pushSheet(world)))).toEqual([]);
      expect(await mismatches(world)).toEqual([]);
    });
  });

  describe('validation before sending', () => {
    it('reports each bad line with its reason and still sends the good ones', async () => {
      typeInto(world, ids[0] as string, 'status', 'x'.repeat(65));
      typeInto(world, ids[1] as string, 'amount', 'lots');
      typeInto(world, ids[2] as string, 'meta', '{broken');
      typeInto(world, ids[3] as string, 'won', 'maybe');
      typeInto(world, ids[4] as string, 'status', 'fine');
      const log = await requestsDuring(world, () =>
        expect(pushSheet(world)).toMatchObject({ updated: 1, errors: 4 }),
      );
      expect(writes(log)).toHaveLength(1);
      expect(String(cell(world, lineOf(world, ids[0] as string), '_sync'))).toContain('at most 64');
      expect(String(cell(world, lineOf(world, ids[1] as string), '_sync'))).toContain('not a number');
      expect(String(cell(world, lineOf(world, ids[2] as string), '_sync'))).toContain('not valid JSON');
      expect(String(cell(world, lineOf(world, ids[3] as string), '_sync'))).toContain('TRUE or FALSE');
    });

    it('refuses two lines with the same row id on both lines', async () => {
      const row = lineOf(world, ids[6] as string);
      activeSheet(world)
        .getRange(row + 1, column(world, 'id'))
        .setValue(ids[6] as string);
      typeInto(world, ids[6] as string, 'status', 'edited');
      const log = await requestsDuring(world, () => pushSheet(world));
      expect(writes(log).filter((entry) => entry.path.endsWith(ids[6] as string))).toEqual([]);
      expect(String(cell(world, row, '_sync'))).toContain(`row id ${ids[6]} is on rows`);
      expect(String(cell(world, row + 1, '_sync'))).toContain(`row id ${ids[6]} is on rows`);
    });

    it('restores an edited read-only field and sends nothing for it', async () => {
      const row = lineOf(world, ids[7] as string);
      const lMod = cell(world, row, 'lMod');
      activeSheet(world).getRange(row, column(world, 'lMod')).setValue('2000-01-01');
      const log = await requestsDuring(world, () => pushSheet(world));
      expect(writes(log)).toEqual([]);
      expect(cell(world, row, 'lMod')).toBe(lMod);
      expect(String(cell(world, row, '_sync'))).toContain('read-only');
    });

    it('an edit in a column deleted on the service does not hold back the line’s other edits', async () => {
      await world.emulator.admin.deleteColumn(CRM, DEALS, 'notes');
      world.call('pullActiveSheet');
      const id = ids[9] as string;
      typeInto(world, id, 'notes', 'too late');
      typeInto(world, id, 'amount', 4321);
      const log = await requestsDuring(world, () => expect(pushSheet(world)).toMatchObject({ updated: 1 }));
      expect(writes(log).map((entry) => [entry.method, JSON.parse(entry.body)])).toEqual([
        ['PATCH', { amount: 4321 }],
      ]);
      expect((await world.serviceRows()).find((row) => row.id === id)?.amount).toBe(4321);
      // What is left is the deleted column's edit alone: the next push says why it was not sent.
      expect(pushSheet(world)).toMatchObject({ errors: 1 });
      expect(String(cell(world, lineOf(world, id), '_sync'))).toContain('no longer exists on the service');
    });

    it('does not send edits to a column deleted on the service, and says why', async () => {
      await world.emulator.admin.deleteColumn(CRM, DEALS, 'notes');
      world.call('pullActiveSheet');
      typeInto(world, ids[8] as string, 'notes', 'too late');
      const log = await requestsDuring(world, () => expect(pushSheet(world)).toMatchObject({ errors: 1 }));
      expect(writes(log)).toEqual([]);
      expect(String(cell(world, lineOf(world, ids[8] as string), '_sync'))).toContain(
        'no longer exists on the service',
      );
    });
  });
});

describe('a push under faults', () => {
  beforeEach(async () => {
    await world.emulator.admin.reset('sample');
    await linkFreshSheet(world);
  });

  it('rides out 429 and 5xx storms: the service ends equal to the sheet', async () => {
    const ids = (await world.serviceRows()).map((row) => String(row.id));
    for (const [i, id] of ids.entries()) typeInto(world, id, 'amount', 1000 + i);
    await world.emulator.admin.setFaults({ errorRate: 0.2 });
    await world.emulator.admin.queueAnswers(
      Array.from({ length: 6 }, () => ({
        match: { method: 'PATCH' },
        status: 429,
        headers: { 'Retry-After': '1' },
        body: '{}',
      })),
    );
    // Every line's amount at once is held as a likely accident: the person confirms (Push anyway).
    const summary = world.call<SyncSummary>('pushActiveSheet', { confirmHeld: true });
    await world.emulator.admin.clearFaults();
    expect(summary.issues).toEqual([]);
    expect(summary).toMatchObject({ ok: true, updated: 25, errors: 0 });
    expect(await mismatches(world)).toEqual([]);
  });

  it('creates 200 new lines exactly once when writes are committed and the answer dropped', async () => {
    const target = activeSheet(world);
    const start = target.getLastRow() + 1;
    const values = Array.from({ length: 200 }, (_, i) => [`Lost answer ${i}`]);
    target.getRange(start, column(world, 'title'), 200, 1).setValues(values);
    await world.emulator.admin.setFaults({ dropAfterCommitRate: 0.1 });
    let rounds = 0;
    for (; rounds < 6; rounds++) {
      const summary = pushSheet(world);
      if (summary.ok && summary.errors === 0) break;
    }
    await world.emulator.admin.clearFaults();
    const rows = await world.serviceRows();
    const created = rows.filter((row) => String(row.title).startsWith('Lost answer'));
    expect(created).toHaveLength(200);
    expect(new Set(created.map((row) => row.title)).size).toBe(200);
    expect(writes(await requestsDuring(world, () => pushSheet(world)))).toEqual([]);
    expect(await mismatches(world)).toEqual([]);
  });

  it('out of time between create waves: the lines not sent lose their pending mark, and the next push creates each once', async () => {
    const first = activeSheet(world).getLastRow() + 1;
    const count = 30;
    activeSheet(world)
      .getRange(first, column(world, 'title'), count, 1)
      .setValues(Array.from({ length: count }, (_, i) => [`Late line ${i}`]));
    // Every create is marked pending before the first wave; during the 2nd wave of POSTs the clock
    // jumps to near the end of the budget, so the 3rd wave is not sent.
    let postWaves = 0;
    world.sim.person.at(
      { on: 'fetchAll', when: (point) => point.requests.some((r) => r.method === 'POST'), times: 2 },
      () => {
        postWaves += 1;
        if (postWaves === 2) world.sim.clock.advance(255_000);
      },
    );
    world.call<SyncSummary>('pushActiveSheet');
    world.sim.person.reset();
    const statusAt = (row: number): string => String(cell(world, row, '_sync'));
    const idAt = (row: number): string => String(cell(world, row, 'id'));
    const sent = Array.from({ length: count }, (_, i) => first + i).filter((row) => idAt(row) !== '');
    expect(sent).toHaveLength(20);
    for (let row = first + 20; row < first + count; row++) {
      expect(idAt(row), `row ${row} not created`).toBe('');
      expect(statusAt(row), `row ${row} not pending`).not.toMatch(/pending/i);
    }
    const created = (await world.serviceRows()).filter((row) => String(row.title).startsWith('Late line'));
    expect(created).toHaveLength(20);
    // The second push finishes the operation the first one began (its summary counts both).
    expect(pushSheet(world)).toMatchObject({ ok: true, continuing: false, created: count });
    const all = (await world.serviceRows()).filter((row) => String(row.title).startsWith('Late line'));
    expect(new Set(all.map((row) => row.title)).size).toBe(count);
    expect(all).toHaveLength(count);
    expect(await mismatches(world)).toEqual([]);
  });

  it('patches once more, harmlessly, when a PATCH answer is dropped after commit', async () => {
    const ids = (await world.serviceRows()).map((row) => String(row.id));
    for (const id of ids.slice(0, 10)) typeInto(world, id, 'status', `dropped ${id}`);
    await world.emulator.admin.queueAnswers([
      { match: { method: 'PATCH' }, status: 200, dropConnection: true, commitFirst: true },
    ]);
    expect(pushSheet(world)).toMatchObject({ ok: true, updated: 10 });
    expect(await mismatches(world)).toEqual([]);
  });

  it('an execution stopped at random points, then pushed again: equal, no duplicates, no lost edit', async () => {
    const ids = (await world.serviceRows()).map((row) => String(row.id));
    for (const [i, id] of ids.slice(0, 12).entries()) typeInto(world, id, 'status', `edit ${i}`);
    const start = activeSheet(world).getLastRow() + 1;
    activeSheet(world)
      .getRange(start, column(world, 'title'), 12, 1)
      .setValues(Array.from({ length: 12 }, (_, i) => [`Killed run ${i}`]));
    for (const afterServiceCalls of [15, 40, 90, 160, 260]) {
      world.run('pushActiveSheet', [], { kill: { afterServiceCalls } });
    }
    const final = pushSheet(world);
    expect(final.ok).toBe(true);
    const rows = await world.serviceRows();
    const created = rows.filter((row) => String(row.title).startsWith('Killed run'));
    expect(created).toHaveLength(12);
    for (const [i, id] of ids.slice(0, 12).entries())
      expect(rows.find((row) => row.id === id)?.status).toBe(`edit ${i}`);
    expect(await mismatches(world)).toEqual([]);
  });
});

describe('the cost of a push', () => {
  it('reads the schema with the first page wave; an edited row that wave brought needs no GET', async () => {
    await world.emulator.admin.reset('sample');
    await world.emulator.admin.seedTable({
      appId: CRM,
      tableId: 'tbl_reads',
      name: 'Reads',
      rows: 2000,
      columns: 4,
      hostile: false,
    });
    await linkFreshSheet(world, 'tbl_reads');
    const rowIds = (await world.serviceRows(CRM, 'tbl_reads')).map((row) => String(row.id));
    const text = (await world.emulator.admin.state()).apps
      .find((app) => app.id === CRM)
      ?.tables.find((table) => table.id === 'tbl_reads')
      ?.columns.find((each) => !each.deleted && each.type === 'text')?.id as string;
    // Line 5 lies in the first wave's pages (rows 0-899), line 1,500 beyond them.
    const early = rowIds[5] as string;
    const late = rowIds[1500] as string;
    typeInto(world, early, text, 'early edit');
    typeInto(world, late, text, 'late edit');
    const log = await requestsDuring(world, () =>
      expect(pushSheet(world)).toMatchObject({ ok: true, updated: 2, errors: 0 }),
    );
    const reads = log.filter((entry) => entry.method === 'GET').map((entry) => entry.path);
    const pages = reads.filter((path) => path.endsWith('/rows'));
    expect(reads[0]).toMatch(/\/tables\/tbl_reads$/);
    expect(pages).toHaveLength(9);
    expect(reads.filter((path) => /\/rows\/[^/]+$/.test(path))).toEqual([expect.stringContaining(late)]);
    expect(
      writes(log)
        .map((entry) => entry.path.split('/').pop())
        .sort(),
    ).toEqual([early, late].sort());
    expect(await mismatches(world, undefined, CRM, 'tbl_reads')).toEqual([]);
  });

  it('a page of that first wave the service cannot answer does not stop the push: it GETs its edited rows', async () => {
    await world.emulator.admin.reset('sample');
    await world.emulator.admin.seedTable({
      appId: CRM,
      tableId: 'tbl_wave',
      name: 'Wave',
      rows: 2000,
      columns: 4,
      hostile: false,
    });
    await linkFreshSheet(world, 'tbl_wave');
    const rowIds = (await world.serviceRows(CRM, 'tbl_wave')).map((row) => String(row.id));
    const text = (await world.emulator.admin.state()).apps
      .find((app) => app.id === CRM)
      ?.tables.find((table) => table.id === 'tbl_wave')
      ?.columns.find((each) => !each.deleted && each.type === 'text')?.id as string;
    const edited = rowIds[5] as string;
    typeInto(world, edited, text, 'edited while a page fails');
    // Every listing page answers an unreadable page (retries included): only the schema arrives.
    const broken = {
      match: { method: 'GET', path: '/tables/tbl_wave/rows$' },
      status: 200,
      headers: { 'content-type': 'text/html' },
      body: '<html>maintenance</html>',
    };
    await world.emulator.admin.queueAnswers(Array.from({ length: 40 }, () => broken));
    try {
      const log = await requestsDuring(world, () =>
        expect(pushSheet(world)).toMatchObject({ ok: true, updated: 1, errors: 0 }),
      );
      const reads = log.filter((entry) => entry.method === 'GET').map((entry) => entry.path);
      expect(reads.filter((path) => /\/rows\/[^/]+$/.test(path))).toEqual([expect.stringContaining(edited)]);
      expect(writes(log).map((entry) => entry.path.split('/').pop())).toEqual([edited]);
    } finally {
      await world.emulator.admin.clearFaults();
    }
    expect(await mismatches(world, undefined, CRM, 'tbl_wave')).toEqual([]);
  });

  it('2,000 rows, 150 lines edited in 3 cells and 50 new lines: 150 PATCH, 50 POST, at most 22 reads', async () => {
    await world.emulator.admin.reset('sample');
    await world.emulator.admin.seedTable({
      appId: CRM,
      tableId: 'tbl_push',
      name: 'Push',
      rows: 2000,
      columns: 8,
      hostile: false,
    });
    await linkFreshSheet(world, 'tbl_push');
    const target = activeSheet(world);
    const h = headers(world);
    const columns = (await world.emulator.admin.state()).apps
      .find((app) => app.id === CRM)
      ?.tables.find((table) => table.id === 'tbl_push')
      ?.columns.filter((each) => !each.deleted && each.type === 'text')
      .map((each) => each.id) as string[];
    const three = [...columns, ...columns, ...columns].slice(0, 3);
    expect(new Set(three).size).toBe(3);
    const values = world.values();
    for (let line = 0; line < 150; line++) {
      const row = 2 + line * 13;
      for (const id of three)
        target.getRange(row, h.indexOf(id) + 1).setValue(`edited ${line} ${id} ${values[row - 1]?.[0]}`);
    }
    const start = target.getLastRow() + 1;
    target
      .getRange(start, h.indexOf('title') + 1, 50, 1)
      .setValues(Array.from({ length: 50 }, (_, i) => [`New ${i}`]));
    const log = await requestsDuring(world, () =>
      expect(pushSheet(world)).toMatchObject({ ok: true, updated: 150, created: 50, errors: 0 }),
    );
    const patches = log.filter((entry) => entry.method === 'PATCH');
    expect(patches).toHaveLength(150);
    expect(patches.every((entry) => Object.keys(JSON.parse(entry.body)).length === 3)).toBe(true);
    expect(log.filter((entry) => entry.method === 'POST')).toHaveLength(50);
    expect(log.filter((entry) => entry.method === 'GET').length).toBeLessThanOrEqual(22);
  });
});

describe('a list column (multi-select) in the sheet', () => {
  let rows: Array<Record<string, unknown>>;
  beforeEach(async () => {
    await world.emulator.admin.reset('sample');
    await linkFreshSheet(world);
    rows = await world.serviceRows();
  });

  it('shows choices separated by commas, [] for none; a pull of the unchanged table reports nothing', async () => {
    for (const row of rows) {
      const tags = row.tags as string[];
      expect(cellOf(world, String(row.id), 'tags')).toBe(tags.length === 0 ? '[]' : tags.join(', '));
    }
    const log = await requestsDuring(world, () =>
      expect(pullSheet(world)).toMatchObject({ ok: true, updated: 0, keptLocal: 0, added: 0, errors: 0 }),
    );
    expect(writes(log)).toEqual([]);
  });

  it('sends choices typed with commas as a list of texts, and the pull after reports nothing', async () => {
    const [first, second] = rows.map((row) => String(row.id));
    typeInto(world, first as string, 'tags', 'enterprise, smb');
    typeInto(world, second as string, 'tags', 'partner');
    const log = await requestsDuring(world, () =>
      expect(pushSheet(world)).toMatchObject({ updated: 2, errors: 0 }),
    );
    expect(writes(log).map((entry) => JSON.parse(entry.body))).toEqual([
      { tags: ['enterprise', 'smb'] },
      { tags: ['partner'] },
    ]);
    expect((await serviceRow(first as string)).tags).toEqual(['enterprise', 'smb']);
    expect(pullSheet(world)).toMatchObject({ ok: true, updated: 0, keptLocal: 0, errors: 0 });
    expect(cellOf(world, first as string, 'tags')).toBe('enterprise, smb');
  });

  it('the same choices written another way (no spaces, JSON) are no edit: nothing is sent', async () => {
    const withTwo = rows.find((row) => (row.tags as string[]).length === 2) as Record<string, unknown>;
    const tags = withTwo.tags as string[];
    typeInto(world, String(withTwo.id), 'tags', tags.join(','));
    const other = rows.find((row) => row !== withTwo && (row.tags as string[]).length > 0) as Record<
      string,
      unknown
    >;
    typeInto(world, String(other.id), 'tags', JSON.stringify(other.tags, null, 1));
    const log = await requestsDuring(world, () =>
      expect(pushSheet(world)).toMatchObject({ updated: 0, errors: 0 }),
    );
    expect(writes(log)).toEqual([]);
    expect(pullSheet(world)).toMatchObject({ updated: 0, keptLocal: 0, conflicts: 0 });
    // The pull shows them the service's way, without counting it as a change.
    expect(cellOf(world, String(withTwo.id), 'tags')).toBe(tags.join(', '));
    expect(cellOf(world, String(other.id), 'tags')).toBe((other.tags as string[]).join(', '));
  });

  it('a sheet pulled when lists showed as JSON reads no edit, and its next pull shows them with commas, reporting nothing', async () => {
    // As a pull before this change left it: every list cell JSON text (the base agreed on that).
    const tagsAt = column(world, 'tags');
    for (const row of rows)
      activeSheet(world)
        .getRange(lineOf(world, String(row.id)), tagsAt)
        .setValue(JSON.stringify(row.tags));
    const pushed = await requestsDuring(world, () =>
      expect(pushSheet(world)).toMatchObject({ updated: 0, errors: 0 }),
    );
    expect(writes(pushed)).toEqual([]);
    expect(pullSheet(world)).toMatchObject({ ok: true, updated: 0, keptLocal: 0, conflicts: 0, errors: 0 });
    for (const row of rows) {
      const tags = row.tags as string[];
      expect(cellOf(world, String(row.id), 'tags')).toBe(tags.length === 0 ? '[]' : tags.join(', '));
    }
    expect(await mismatches(world)).toEqual([]);
  });

  it('a choice holding a comma or spaces goes typed as JSON and comes back as JSON, unchanged', async () => {
    const [typed, changed] = rows.map((row) => String(row.id));
    typeInto(world, typed as string, 'tags', '["Smith, Jones", " padded"]');
    expect(pushSheet(world)).toMatchObject({ updated: 1, errors: 0 });
    expect((await serviceRow(typed as string)).tags).toEqual(['Smith, Jones', ' padded']);
    await world.emulator.admin.editRow(CRM, DEALS, changed as string, { tags: ['Smith, Jones', ' padded'] });
    expect(pullSheet(world)).toMatchObject({ ok: true, updated: 1, keptLocal: 0 });
    expect(cellOf(world, changed as string, 'tags')).toBe('["Smith, Jones"," padded"]');
    const log = await requestsDuring(world, () => expect(pushSheet(world)).toMatchObject({ updated: 0 }));
    expect(writes(log)).toEqual([]);
  });

  it('JSON-looking choices mixed into a comma list are refused with what to write, and nothing of the line is sent', async () => {
    const id = String(rows[0]?.id);
    typeInto(world, id, 'tags', 'enterprise, "smb"');
    const log = await requestsDuring(world, () => expect(pushSheet(world)).toMatchObject({ errors: 1 }));
    expect(writes(log)).toEqual([]);
    expect(String(cellOf(world, id, '_sync'))).toMatch(
      /tags: "enterprise, "smb"" mixes choices with JSON: write the choices separated by commas/,
    );
  });
});
