// Tests of the person's hands (sim.person): sheet actions as in the Sheets UI, and hooks that act while an execution waits.
import { beforeEach, describe, expect, it } from 'vitest';
import { type AppsScriptSimulator, createSimulator } from '../../../emulators/apps-script/index';

const T0 = Date.UTC(2024, 0, 1);
const DEAD = 'http://127.0.0.1:1/';

/** A script that reads column A, waits on the network twice (fetchAll, fetch, fetchAll) and reads again. */
const CODE = `
function colA_() {
  var s = SpreadsheetApp.getActiveSheet();
  return s.getRange(1, 1, s.getLastRow(), 1).getValues().map(function (r) { return r[0]; });
}
function waves() {
  var seen = [colA_()];
  try { UrlFetchApp.fetchAll(['${DEAD}a', '${DEAD}b']); } catch (e) {}
  seen.push(colA_());
  try { UrlFetchApp.fetch('${DEAD}c', { method: 'post', payload: 'x' }); } catch (e) {}
  seen.push(colA_());
  try { UrlFetchApp.fetchAll(['${DEAD}d']); } catch (e) {}
  seen.push(colA_());
  return seen;
}
function locked() {
  var lock = LockService.getDocumentLock();
  lock.waitLock(1000);
  var v = colA_();
  lock.releaseLock();
  return v;
}
function width() { return SpreadsheetApp.getActiveSheet().getLastColumn(); }
`;

function fill(sim: AppsScriptSimulator): void {
  const sheet = sim.spreadsheet.getActiveSheet();
  sheet.getRange(1, 1, 5, 3).setValues([
    ['id', 'title', 'notes'],
    ['r3', 'c', 'n3'],
    ['r1', 'a', 'n1'],
    ['r4', 'd', 'n4'],
    ['r2', 'b', 'n2'],
  ]);
  sheet.setFrozenRows(1);
}

const rows = (sim: AppsScriptSimulator): unknown[][] => {
  const sheet = sim.spreadsheet.getActiveSheet();
  return sheet.getRange(1, 1, sheet.getLastRow(), Math.max(1, sheet.getLastColumn())).getValues();
};

describe('sim.person hooks: acting while an execution waits', () => {
  let sim: AppsScriptSimulator;
  beforeEach(() => {
    sim = createSimulator({ code: CODE, startTime: T0, timeZone: 'Etc/UTC', countRealTime: false });
    fill(sim);
  });

  it('acts at the 2nd fetchAll of the execution, between the script calls around it', () => {
    sim.person.at({ on: 'fetchAll', nth: 2 }, () => sim.person.sortSheet('Sheet1', 'id'));
    const seen = sim.run('waves').value as unknown[][];
    expect(seen[0]).toEqual(['id', 'r3', 'r1', 'r4', 'r2']);
    expect(seen[2]).toEqual(['id', 'r3', 'r1', 'r4', 'r2']);
    expect(seen[3]).toEqual(['id', 'r1', 'r2', 'r3', 'r4']);
    expect(sim.person.pendingHooks).toBe(0);
  });

  it('counts network waits together with on: network, and filters by request', () => {
    const points: string[] = [];
    sim.person.at({ on: 'network', when: (p) => p.requests.some((r) => r.method === 'POST') }, (p) => {
      points.push(`${p.kind}#${p.nth} net#${p.networkNth}`);
      sim.person.deleteRows('Sheet1', 2);
    });
    const seen = sim.run('waves').value as unknown[][];
    expect(points).toEqual(['fetch#1 net#2']);
    expect(seen[1]).toHaveLength(5);
    expect(seen[2]).toEqual(['id', 'r1', 'r4', 'r2']);
  });

  it('acts once by default, times: n acts n times, and counts restart per execution', () => {
    let fired = 0;
    sim.person.at({ on: 'fetchAll', nth: 1, times: Number.POSITIVE_INFINITY }, () => fired++);
    sim.run('waves');
    sim.run('waves');
    expect(fired).toBe(2);
    const once = sim.person.at({ on: 'fetch' }, () => fired++);
    sim.run('waves');
    sim.run('waves');
    expect(fired).toBe(5);
    once();
  });

  it('the removal function cancels a hook', () => {
    const cancel = sim.person.at({}, () => sim.person.clearCells('Sheet1', 'A2:A5'));
    cancel();
    expect((sim.run('waves').value as unknown[][])[3]).toEqual(['id', 'r3', 'r1', 'r4', 'r2']);
  });

  it('acts at a lock wait', () => {
    sim.person.at({ on: 'lock' }, (p) => {
      expect(p.lockKey).toMatch(/^document:/);
      expect(p.contended).toBe(false);
      sim.person.insertRows('Sheet1', 2, 1);
      sim.person.edit('Sheet1', 2, 'id', 'typed');
    });
    expect(sim.run('locked').value).toEqual(['id', 'typed', 'r3', 'r1', 'r4', 'r2']);
  });

  it('person actions are not script calls: no stats, no simulated time', () => {
    const plain = sim.run('waves');
    sim.person.reset();
    fill(sim);
    sim.person.at({ on: 'fetchAll', nth: 1 }, () => {
      sim.person.sortRange('Sheet1', 'B2:B5', 'title', false);
      sim.person.renameHeader('Sheet1', 'notes', 'My notes');
      sim.person.moveColumn('Sheet1', 'id', 3);
      sim.person.moveColumn('Sheet1', 'id', 1);
    });
    const acted = sim.run('waves');
    expect(acted.stats).toEqual(plain.stats);
    expect(acted.simulatedMs).toBe(plain.simulatedMs);
    expect(sim.person.waits.map((p) => p.kind)).toEqual(['fetchAll', 'fetch', 'fetchAll']);
  });

  it('a hook may start a nested execution, which sees the person’s edit', () => {
    let nested: unknown;
    sim.person.at({ on: 'fetch' }, () => {
      sim.person.insertColumn('Sheet1', 1);
      nested = sim.run('width').value;
    });
    sim.run('waves');
    expect(nested).toBe(4);
  });
});

describe('sim.person actions', () => {
  let sim: AppsScriptSimulator;
  beforeEach(() => {
    sim = createSimulator({ code: CODE, startTime: T0, timeZone: 'Etc/UTC', countRealTime: false });
    fill(sim);
  });

  it('sortRange on one column’s cells moves only those cells', () => {
    sim.person.sortRange('Sheet1', 'B2:B5', 'title', true);
    expect(rows(sim)).toEqual([
      ['id', 'title', 'notes'],
      ['r3', 'a', 'n3'],
      ['r1', 'b', 'n1'],
      ['r4', 'c', 'n4'],
      ['r2', 'd', 'n2'],
    ]);
  });

  it('copyCells and putCells carry values, notes and formats (Undo); putCells and setValues grow the sheet', () => {
    const sheet = sim.spreadsheet.getActiveSheet();
    sheet.getRange('B2').setNote('kept note');
    sheet.getRange('B2').setNumberFormat('@');
    const copied = sim.person.copyCells('Sheet1', 2, 2, 1, 2);
    sim.person.clearCells('Sheet1', 'B2:C2');
    sheet.getRange('B2').setNote(null);
    sheet.getRange('B2').setNumberFormat('0.00');
    sim.person.putCells('Sheet1', 2, 2, copied);
    expect(rows(sim)[1]).toEqual(['r3', 'c', 'n3']);
    expect(sheet.getRange('B2').getNote()).toBe('kept note');
    expect(sheet.getRange('B2').getNumberFormat()).toBe('@');

    const columns = sheet.getMaxColumns();
    sim.person.setValues('Sheet1', 1, columns, [['x', 'y', 'z'], ['short']]);
    expect(sheet.getMaxColumns()).toBe(columns + 2);
    expect(sheet.getRange(1, columns + 2).getValue()).toBe('z');
    expect(sheet.getRange(2, columns + 1).getValue()).toBe('');
    sim.person.insertColumnsAt('Sheet1', sheet.getMaxColumns() + 1, 1);
    expect(sheet.getMaxColumns()).toBe(columns + 3);
  });

  it('sortSheet keeps the frozen header and moves whole lines', () => {
    sim.person.sortSheet('Sheet1', 3, false);
    expect(rows(sim).map((r) => r[0])).toEqual(['id', 'r4', 'r3', 'r2', 'r1']);
  });

  it('renames, clears and deletes headers and columns; moves a column with its notes', () => {
    sim.spreadsheet.getActiveSheet().getRange('A3').setNote('id note');
    sim.person.renameHeader('Sheet1', 'title', 'My title');
    expect(sim.person.headers('Sheet1')).toEqual(['id', 'My title', 'notes']);
    sim.person.moveColumn('Sheet1', 'id', 3);
    expect(rows(sim)[2]).toEqual(['a', 'n1', 'r1']);
    expect(sim.spreadsheet.getActiveSheet().getRange('C3').getNote()).toBe('id note');
    sim.person.moveColumn('Sheet1', 3, 1);
    expect(rows(sim)[2]).toEqual(['r1', 'a', 'n1']);
    sim.person.clearHeader('Sheet1', 'notes');
    expect(rows(sim)[0]).toEqual(['id', 'My title', '']);
    expect(rows(sim)[1]).toEqual(['r3', 'c', 'n3']);
    sim.person.deleteColumn('Sheet1', 'My title');
    expect(rows(sim)[1]).toEqual(['r3', 'n3']);
    expect(() => sim.person.column('Sheet1', 'nope')).toThrow(/no header "nope"/);
  });

  it('inserts and deletes lines, clears cells, pastes a shifted block and fills down', () => {
    sim.person.insertRows('Sheet1', 2, 2);
    expect(rows(sim).map((r) => r[0])).toEqual(['id', '', '', 'r3', 'r1', 'r4', 'r2']);
    sim.person.deleteRows('Sheet1', 2, 2);
    sim.person.clearCells('Sheet1', 'C2:C3');
    expect(rows(sim).map((r) => r[2])).toEqual(['notes', '', '', 'n4', 'n2']);
    // Column B's block B3:B5 pasted one line up: every title moves to the line above.
    sim.person.paste('Sheet1', 'B3:B5', 'B2');
    expect(rows(sim).map((r) => r[1])).toEqual(['title', 'a', 'd', 'b', 'b']);
    sim.person.fillDown('Sheet1', 'C3:C5');
    expect(rows(sim).map((r) => r[2])).toEqual(['notes', '', '', '', '']);
    sim.person.edit('Sheet1', 2, 'notes', '42');
    expect(rows(sim)[1]?.[2]).toBe(42);
    sim.person.fillDown('Sheet1', 'C2:C4');
    expect(rows(sim).map((r) => r[2])).toEqual(['notes', 42, 42, 42, '']);
    sim.person.setValues('Sheet1', 6, 1, [['r9', 'z', 'n9']]);
    expect(rows(sim)[5]).toEqual(['r9', 'z', 'n9']);
  });
});
