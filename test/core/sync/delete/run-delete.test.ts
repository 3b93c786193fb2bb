// "Deleting rows" (sync-rules.md) over the in-memory ports: a line deleted in the sheet is held for
// review (never added back by a pull, never sent by a push), deleted on the service only as approved,
// or brought back; lines that merely moved are never missing.
import { describe, expect, it } from 'vitest';
import { clearedIdStatus, STATUS } from '../../../../src/core/status';
import {
  deleteApprovedRows,
  releaseMissingRows,
  reviewMissingRows,
} from '../../../../src/core/sync/delete/run-delete';
import { deleteConfirmation } from '../../../../src/core/sync/delete/wording';
import { runPull } from '../../../../src/core/sync/pull/run-pull';
import { runPush } from '../../../../src/core/sync/push/run-push';
import type { MissingRowsReview } from '../../../../src/shared/types';
import { ANN, BOB, MemoryWorld } from '../../../memory/memory-ports';

/** A world whose service holds `count` rows (title tN, amount N) made by Bob, pulled by Ann. */
function pulledWorld(count: number): MemoryWorld {
  const world = new MemoryWorld();
  for (let i = 1; i <= count; i++) world.service.insert({ title: `t${i}`, amount: i }, BOB.id);
  pull(world);
  return world;
}

function pull(world: MemoryWorld) {
  return runPull(world.ports(ANN), world.links.get());
}

function review(world: MemoryWorld): MissingRowsReview {
  return reviewMissingRows(world.ports(ANN), world.links.get());
}

/** Approves every row of a review, as reviewed. */
function approveAll(reviewed: MissingRowsReview) {
  return { rows: reviewed.rows.map((row) => ({ rowId: row.rowId, lMod: row.lMod })) };
}

function deleteLineOf(world: MemoryWorld, id: string): unknown[] {
  const at = world.sheet.lineOfId(id);
  const cells = [...((world.sheet.sheet.cells[at + 1] as unknown[]) ?? [])];
  world.sheet.deleteLine(at);
  return cells;
}

function sheetIds(world: MemoryWorld): string[] {
  const [headers, ...lines] = world.sheet.values() as [unknown[], ...unknown[][]];
  const idColumn = headers.indexOf('id');
  return lines.map((line) => String(line[idColumn])).filter((id) => id !== '');
}

describe('a line deleted in the sheet', () => {
  it('is not added back by a pull: its row is held for review, its base record stays', () => {
    const world = pulledWorld(3);
    deleteLineOf(world, 'r0002');
    const result = pull(world);
    expect(result.progress.counts.awaitingReview).toBe(1);
    expect(sheetIds(world)).toEqual(['r0001', 'r0003']);
    expect(world.base.records().has('r0002')).toBe(true);
    // Still held at the next pull, even after the row changed on the service.
    world.service.update('r0002', { amount: 50 }, BOB.id);
    pull(world);
    expect(sheetIds(world)).toEqual(['r0001', 'r0003']);
  });

  it('is not sent by a push: no PATCH, no DELETE, nothing', () => {
    const world = pulledWorld(3);
    deleteLineOf(world, 'r0002');
    const before = world.service.requests.length;
    runPush(world.ports(ANN), world.links.get());
    const sent = world.service.requests.slice(before);
    expect(sent.filter((request) => !request.startsWith('get'))).toEqual([]);
    expect(world.service.find('r0002')).toBeDefined();
  });

  it('is not missing when the sheet was only sorted or the line moved', () => {
    const world = pulledWorld(4);
    world.sheet.sort('amount', true);
    const cells = deleteLineOf(world, 'r0001');
    world.sheet.sheet.cells.splice(2, 0, cells);
    const result = pull(world);
    expect(result.progress.counts.awaitingReview).toBe(0);
    expect(review(world).count).toBe(0);
    expect(sheetIds(world).sort()).toEqual(['r0001', 'r0002', 'r0003', 'r0004']);
  });

  it('cut while a pull lists and pasted back after: no second line, nothing held', () => {
    const world = pulledWorld(3);
    let cut: unknown[] = [];
    // While the pull waits for its first answer (a poll, or the listing with the schema).
    world.hook = (name) => {
      if (cut.length > 0 || !name.startsWith('service.')) return;
      cut = deleteLineOf(world, 'r0002');
    };
    pull(world);
    expect(sheetIds(world)).toEqual(['r0001', 'r0003']);
    world.hook = () => {};
    world.sheet.sheet.cells.push(cut);
    pull(world);
    expect(sheetIds(world).sort()).toEqual(['r0001', 'r0002', 'r0003']);
    expect(review(world).count).toBe(0);
  });

  it('whose id cell was edited is still its row’s line (the pull puts the id back), not missing', () => {
    const world = pulledWorld(2);
    world.sheet.type(world.sheet.lineOfId('r0002'), 'id', 'r0002x');
    expect(review(world).count).toBe(0);
  });

  it('whose id cell was cleared, or typed over with another row’s id, is not missing, and an approval deletes nothing (issue 33 cases 1, 8)', () => {
    const world = pulledWorld(3);
    world.sheet.type(world.sheet.lineOfId('r0002'), 'id', '');
    world.sheet.type(world.sheet.lineOfId('r0003'), 'id', 'r0001');
    expect(review(world).count).toBe(0);
    const before = world.service.requests.length;
    const approval = ['r0002', 'r0003'].map((rowId) => ({
      rowId,
      lMod: String(world.service.find(rowId)?.lMod),
    }));
    const result = deleteApprovedRows(world.ports(ANN), world.links.get(), { rows: approval });
    expect(result).toMatchObject({ deleted: 0, back: ['r0002', 'r0003'] });
    expect(world.service.requests.length).toBe(before);
    // The next pull puts both ids back.
    expect(pull(world).progress.counts.awaitingReview).toBe(0);
    expect(sheetIds(world)).toEqual(['r0001', 'r0002', 'r0003']);
  });
});

describe('a row’s id typed over another line while its own line was deleted (issue 33 case 8)', () => {
  it('the row whose id was typed over is not deleted nor let go, and a pull puts its id back', () => {
    const world = pulledWorld(3);
    deleteLineOf(world, 'r0002');
    world.sheet.type(world.sheet.lineOfId('r0003'), 'id', 'r0002');
    const before = world.service.requests.length;
    const lMod = (rowId: string) => String(world.service.find(rowId)?.lMod);
    const result = deleteApprovedRows(world.ports(ANN), world.links.get(), {
      rows: [{ rowId: 'r0003', lMod: lMod('r0003') }],
    });
    expect(result).toMatchObject({ deleted: 0, back: ['r0003'] });
    expect(world.service.requests.slice(before).filter((request) => request.startsWith('delete'))).toEqual(
      [],
    );
    expect(releaseMissingRows(world.ports(ANN), world.links.get(), ['r0003'])).toBe(0);
    expect(pull(world).progress.counts.awaitingReview).toBe(1);
    expect(sheetIds(world)).toEqual(['r0001', 'r0003']);
    expect(review(world).rows.map((row) => row.rowId)).toEqual(['r0002']);
  });
});

describe('lines whose id cells were cleared, of rows one batch wrote (issue 33 case 1)', () => {
  /** Two rows sharing an lMod, both id cells cleared and both lines typed alike: they cannot be told apart. */
  function clearedAlike(): MemoryWorld {
    const world = new MemoryWorld();
    for (let i = 1; i <= 3; i++) world.service.insert({ title: `t${i}`, amount: i }, BOB.id);
    const lMod = String(world.service.find('r0001')?.lMod);
    (world.service.find('r0002') as { lMod: string }).lMod = lMod;
    pull(world);
    for (const id of ['r0001', 'r0002']) {
      const at = world.sheet.lineOfId(id);
      world.sheet.type(at, 'title', 'same');
      world.sheet.type(at, 'amount', 7);
      world.sheet.type(at, 'id', '');
    }
    return world;
  }

  it('lists neither row for review, a pull puts back neither id and adds neither row, a push creates nothing', () => {
    const world = clearedAlike();
    expect(review(world).count).toBe(0);
    const pulled = pull(world);
    expect(pulled.progress.counts).toMatchObject({ awaitingReview: 0, added: 0 });
    expect(sheetIds(world)).toEqual(['r0003']);
    const before = world.service.requests.length;
    runPush(world.ports(ANN), world.links.get());
    expect(world.service.requests.slice(before).filter((request) => !request.startsWith('get '))).toEqual([]);
    expect(String(world.sheet.values()[1]?.[4])).toBe(clearedIdStatus(['r0001', 'r0002'], false));
    expect(world.service.rows.map((row) => row.id)).toEqual(['r0001', 'r0002', 'r0003']);
  });
});

describe('the review of missing lines', () => {
  it('costs no request when no line is missing', () => {
    const world = pulledWorld(3);
    const before = world.service.requests.length;
    expect(review(world)).toMatchObject({ count: 0, rows: [], deleteSupported: true });
    expect(world.service.requests.length).toBe(before);
  });

  it('lists each missing row with its title: as synced, changed on the service (what), or gone', () => {
    const world = pulledWorld(4);
    for (const id of ['r0001', 'r0002', 'r0003']) deleteLineOf(world, id);
    world.service.update('r0002', { amount: 20 }, BOB.id);
    world.service.remove('r0003');
    const reviewed = review(world);
    expect(reviewed.count).toBe(3);
    expect(reviewed.rows).toEqual([
      {
        rowId: 'r0001',
        title: 't1',
        state: 'unchanged',
        lMod: world.service.find('r0001')?.lMod,
        changes: [],
      },
      {
        rowId: 'r0002',
        title: 't2',
        state: 'changed',
        lMod: world.service.find('r0002')?.lMod,
        changes: [{ columnId: 'amount', value: '20' }],
      },
      { rowId: 'r0003', title: 'row r0003', state: 'gone', lMod: '', changes: [] },
    ]);
    expect(reviewed.message).toMatch(
      /^3 rows whose lines were deleted from this sheet \(“t1”, “t2” and “row r0003”\)/,
    );
    expect(reviewed.message).toContain('1 row changed on the service since your last sync');
    expect(reviewed.message).toContain('1 row no longer on the service');
  });

  it('names the count and a few titles when many lines went at once (an accident is held, not deleted)', () => {
    const world = pulledWorld(320);
    // 300 lines deleted at once by mistake.
    world.sheet.sheet.cells.splice(1, 300);
    const pulled = pull(world);
    expect(pulled.progress.counts.awaitingReview).toBe(300);
    expect(world.service.rows).toHaveLength(320);
    expect(world.service.deletes).toEqual([]);
    expect(sheetIds(world)).toHaveLength(20);
    const reviewed = review(world);
    expect(reviewed.count).toBe(300);
    expect(reviewed.message).toMatch(
      /^300 rows whose lines were deleted from this sheet \(“t1”, “t2”, “t3” and 297 more\)/,
    );
    expect(deleteConfirmation(reviewed).split('\n')[0]).toBe(
      'Delete 300 rows on the service: “t1”, “t2”, “t3” and 297 more?',
    );
  });
});

describe('deleting approved rows', () => {
  it('deletes exactly the approved rows, forgets their base records, and a pull then has nothing held', () => {
    const world = pulledWorld(4);
    deleteLineOf(world, 'r0001');
    deleteLineOf(world, 'r0002');
    const reviewed = review(world);
    const approved = {
      rows: reviewed.rows.filter((row) => row.rowId === 'r0001').map(({ rowId, lMod }) => ({ rowId, lMod })),
    };
    const result = deleteApprovedRows(world.ports(ANN), world.links.get(), approved);
    expect(result).toMatchObject({ ok: true, deleted: 1, changed: [], back: [], remaining: [] });
    expect(result.message).toBe('Deleted 1 row on the service.');
    expect(world.service.deletes.map((each) => each.rowId)).toEqual(['r0001']);
    expect(world.service.find('r0001')).toBeUndefined();
    expect(world.base.records().has('r0001')).toBe(false);
    // The other row stays held: nothing approved it.
    expect(world.service.find('r0002')).toBeDefined();
    expect(review(world).rows.map((row) => row.rowId)).toEqual(['r0002']);
    expect(pull(world).progress.counts).toMatchObject({ awaitingReview: 1, removedOnService: 0 });
  });

  it('does not delete a row changed on the service after the review, and says so', () => {
    const world = pulledWorld(2);
    deleteLineOf(world, 'r0001');
    const reviewed = review(world);
    world.service.update('r0001', { title: 'renamed by Bob' }, BOB.id);
    const result = deleteApprovedRows(world.ports(ANN), world.links.get(), approveAll(reviewed));
    expect(result).toMatchObject({ ok: true, deleted: 0, changed: ['r0001'] });
    expect(result.message).toContain(
      '1 row not deleted: changed on the service after your review; review again.',
    );
    expect(world.service.deletes).toEqual([]);
    // Reviewed again, it shows what changed; approved as it is now, it goes.
    const again = review(world);
    expect(again.rows[0]).toMatchObject({
      state: 'changed',
      changes: [{ columnId: 'title', value: 'renamed by Bob' }],
    });
    expect(deleteApprovedRows(world.ports(ANN), world.links.get(), approveAll(again)).deleted).toBe(1);
  });

  it('does not delete a row whose line was pasted back, even while its check was out', () => {
    const world = pulledWorld(2);
    const cut = deleteLineOf(world, 'r0001');
    const reviewed = review(world);
    world.actBefore('service.rowsByIds', () => world.sheet.sheet.cells.push(cut));
    const result = deleteApprovedRows(world.ports(ANN), world.links.get(), approveAll(reviewed));
    expect(result).toMatchObject({ deleted: 0, back: ['r0001'] });
    expect(world.service.deletes).toEqual([]);
    expect(world.base.records().has('r0001')).toBe(true);
  });

  it('checks many rows by one listing (reading one by one only the rows it did not show)', () => {
    const world = pulledWorld(10);
    for (let i = 1; i <= 10; i++) deleteLineOf(world, `r${String(i).padStart(4, '0')}`);
    const reviewed = review(world);
    world.service.update('r0003', { amount: 33 }, BOB.id);
    world.service.remove('r0004');
    const before = world.service.requests.length;
    const result = deleteApprovedRows(world.ports(ANN), world.links.get(), approveAll(reviewed));
    expect(result).toMatchObject({ deleted: 8, alreadyGone: 1, changed: ['r0003'] });
    const reads = world.service.requests.slice(before).filter((request) => request.startsWith('get'));
    expect(reads).toEqual([
      'get /tableApps/app1/tables/tbl1/rows?offset=0&limit=100',
      'get /tableApps/app1/tables/tbl1/rows/r0004',
    ]);
    expect(world.service.rows.map((row) => row.id)).toEqual(['r0003']);
  });

  it('takes a row already gone from the service as done', () => {
    const world = pulledWorld(2);
    deleteLineOf(world, 'r0001');
    const reviewed = review(world);
    world.service.remove('r0001');
    const result = deleteApprovedRows(world.ports(ANN), world.links.get(), approveAll(reviewed));
    expect(result).toMatchObject({ ok: true, deleted: 0, alreadyGone: 1 });
    expect(world.base.records().has('r0001')).toBe(false);
  });

  it('sends nothing for an approval of rows that are not missing', () => {
    const world = pulledWorld(2);
    const before = world.service.requests.length;
    const result = deleteApprovedRows(world.ports(ANN), world.links.get(), {
      rows: [{ rowId: 'r0001', lMod: String(world.service.find('r0001')?.lMod) }],
    });
    expect(result).toMatchObject({ deleted: 0, back: ['r0001'] });
    expect(world.service.requests.length).toBe(before);
    expect(world.service.find('r0001')).toBeDefined();
  });

  it('goes on where it stopped when the execution’s time runs out', () => {
    const world = pulledWorld(25);
    for (let i = 1; i <= 25; i++) deleteLineOf(world, `r${String(i).padStart(4, '0')}`);
    const reviewed = review(world);
    // After the first delete, less time is left than the reserve: the rest waits for the next call.
    world.actBefore(
      'service.deleteRows',
      () => {
        world.clock.deadline = world.clock.now() + 10_000;
      },
      2,
    );
    const first = deleteApprovedRows(world.ports(ANN), world.links.get(), approveAll(reviewed));
    expect(first.deleted).toBe(1);
    expect(first.remaining).toHaveLength(24);
    expect(first.message).toContain('24 rows not sent yet');
    world.hook = () => {};
    world.clock.deadline = world.clock.now() + 6 * 60 * 1000;
    const second = deleteApprovedRows(world.ports(ANN), world.links.get(), { rows: first.remaining });
    expect(second).toMatchObject({ deleted: 24, remaining: [] });
    expect(world.service.rows).toHaveLength(0);
    expect(world.service.deletes).toHaveLength(25);
  });

  describe('when the service does not serve deleting', () => {
    it('deletes nothing, sends one request, and the review then offers only bringing them back', () => {
      const world = pulledWorld(3);
      world.service.servesDelete = false;
      for (const id of ['r0001', 'r0002', 'r0003']) deleteLineOf(world, id);
      const reviewed = review(world);
      expect(reviewed.deleteSupported).toBe(true);
      const before = world.service.requests.length;
      const result = deleteApprovedRows(world.ports(ANN), world.links.get(), approveAll(reviewed));
      expect(result).toMatchObject({ ok: false, unsupported: true, deleted: 0, remaining: [] });
      expect(result.message).toMatch(/does not allow deleting rows through its API/);
      expect(world.service.requests.slice(before).filter((r) => r.startsWith('delete'))).toHaveLength(1);
      expect(world.service.rows).toHaveLength(3);
      expect(world.base.records().ids().sort()).toEqual(['r0001', 'r0002', 'r0003']);
      const after = review(world);
      expect(after.deleteSupported).toBe(false);
      expect(after.message).toContain(
        'The service does not allow deleting rows through its API: bring them back',
      );
    });

    it('is asked again a day later', () => {
      const world = pulledWorld(1);
      world.service.servesDelete = false;
      deleteLineOf(world, 'r0001');
      deleteApprovedRows(world.ports(ANN), world.links.get(), approveAll(review(world)));
      world.clock.ms += 24 * 60 * 60 * 1000;
      world.clock.deadline = world.clock.ms + 6 * 60 * 1000;
      expect(review(world).deleteSupported).toBe(true);
    });
  });
});

describe('bringing missing rows back', () => {
  it('lets the next pull add them again with the service’s values', () => {
    const world = pulledWorld(3);
    deleteLineOf(world, 'r0002');
    world.service.update('r0002', { amount: 22 }, BOB.id);
    expect(releaseMissingRows(world.ports(ANN), world.links.get(), ['r0002'])).toBe(1);
    pull(world);
    const [headers, ...lines] = world.sheet.values() as [unknown[], ...unknown[][]];
    const back = lines.find((line) => line[headers.indexOf('id')] === 'r0002') as unknown[];
    expect(back[headers.indexOf('amount')]).toBe(22);
    expect(back[headers.indexOf('_sync')]).toBe(STATUS.pulled);
    expect(review(world).count).toBe(0);
    expect(world.service.deletes).toEqual([]);
  });

  it('leaves alone a row whose line is in the sheet', () => {
    const world = pulledWorld(2);
    expect(releaseMissingRows(world.ports(ANN), world.links.get(), ['r0001'])).toBe(0);
    expect(world.base.records().has('r0001')).toBe(true);
  });
});
