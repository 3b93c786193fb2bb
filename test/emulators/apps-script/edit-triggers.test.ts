// Installable edit triggers as apps-script-facts §13 documents them: a person's change of values fires
// them (script writes never do), each firing an execution of its own as the trigger's creator, with
// the edit event; one per type per user per document for add-ons; firings counted and overlapping.
import { describe, expect, it } from 'vitest';
import { createSimulator, type SimulatorOptions } from '../../../emulators/apps-script/index';

const CODE = [
  'function install() { ScriptApp.newTrigger("seen").forSpreadsheet(SpreadsheetApp.getActive()).onEdit().create(); }',
  'function seen(e) {',
  '  var lock = LockService.getDocumentLock();',
  '  var got = lock.tryLock(0);',
  '  var list = JSON.parse(PropertiesService.getDocumentProperties().getProperty("seen") || "[]");',
  '  list.push({ a1: e.range.getA1Notation(), sheet: e.range.getSheet().getName(), authMode: String(e.authMode),',
  '    user: e.user.getEmail(), uid: e.triggerUid, hasValue: "value" in e, value: e.value,',
  '    hasOld: "oldValue" in e, oldValue: e.oldValue, me: Session.getEffectiveUser().getEmail(), got: got });',
  '  PropertiesService.getDocumentProperties().setProperty("seen", JSON.stringify(list));',
  '  UrlFetchApp; Utilities.sleep(1000);',
  '}',
  'function scriptWrite() { SpreadsheetApp.getActive().getSheets()[0].getRange("C3").setValue("by script"); }',
].join('\n');

interface Seen {
  a1: string;
  sheet: string;
  authMode: string;
  user: string;
  uid: string;
  hasValue: boolean;
  value?: string;
  hasOld: boolean;
  oldValue?: string;
  me: string;
  got: boolean;
}

function simulator(options: SimulatorOptions = {}) {
  const sim = createSimulator({
    code: CODE,
    countRealTime: false,
    startTime: Date.UTC(2024, 0, 1),
    users: [{ email: 'alice@example.com' }, { email: 'bob@example.com' }],
    oauthScopes: null,
    ...options,
  });
  const seen = (): Seen[] => JSON.parse(sim.properties('document').seen ?? '[]');
  return { sim, seen };
}

describe('installable edit triggers (§13)', () => {
  it('fire for a typed cell with value and oldValue, oldValue absent for an empty cell', () => {
    const { sim, seen } = simulator();
    expect(sim.run('install').ok).toBe(true);
    sim.person.edit('Sheet1', 2, 2, 'first');
    sim.person.edit('Sheet1', 2, 2, 'second');
    const [typed, retyped] = seen();
    expect(typed).toMatchObject({ a1: 'B2', authMode: 'FULL', user: 'alice@example.com', value: 'first' });
    expect(typed?.hasOld).toBe(false);
    expect(retyped).toMatchObject({ value: 'second', oldValue: 'first', hasOld: true });
    expect(typed?.uid).toBe(sim.triggers()[0]?.uid);
    expect(sim.editRuns).toHaveLength(2);
    expect(sim.editRuns.every((firing) => firing.result.ok && !firing.overlapped)).toBe(true);
  });

  it('give a pasted block its whole range and no values; script writes fire nothing', () => {
    const { sim, seen } = simulator();
    sim.run('install');
    sim.person.setValues('Sheet1', 2, 1, [
      ['a', 'b'],
      ['c', 'd'],
    ]);
    expect(seen()[0]).toMatchObject({ a1: 'A2:B3', hasValue: false, hasOld: false });
    expect(sim.run('scriptWrite').ok).toBe(true);
    sim.spreadsheet.getSheetByName('Sheet1')?.getRange('D4').setValue('a test writing directly');
    expect(seen()).toHaveLength(1);
  });

  it('run as their creator whoever edits, and each firing counts toward the creator’s trigger runtime', () => {
    const { sim, seen } = simulator();
    sim.run('install', [], { user: 'bob@example.com' });
    sim.person.editor = 'alice@example.com';
    sim.person.edit('Sheet1', 3, 1, 'x');
    expect(seen()[0]).toMatchObject({ user: 'alice@example.com', me: 'bob@example.com' });
    const now = sim.clock.now();
    expect(sim.triggerRuntime.used('bob@example.com', now)).toBe(sim.editRuns[0]?.result.simulatedMs);
    expect(sim.triggerRuntime.used('bob@example.com', now)).toBeGreaterThanOrEqual(1000);
    expect(sim.triggerRuntime.used('alice@example.com', now)).toBe(0);
  });

  it('allow an add-on one edit trigger per user per document (the stricter reading)', () => {
    const { sim } = simulator({ installation: 'addon' });
    expect(sim.run('install').ok).toBe(true);
    const again = sim.run('install');
    expect(again.ok).toBe(false);
    expect(again.error?.message).toMatch(/too many triggers of this type/);
    expect(sim.run('install', [], { user: 'bob@example.com' }).ok).toBe(true);
    sim.person.edit('Sheet1', 2, 1, 'both fire');
    expect(sim.editRuns.map((firing) => firing.owner).sort()).toEqual([
      'alice@example.com',
      'bob@example.com',
    ]);
  });

  it('overlap: an edit while a firing waits starts another that finds the lock held', () => {
    // The first firing holds the lock and waits for the network; the person types meanwhile.
    const code = CODE.replace(
      'UrlFetchApp; Utilities.sleep(1000);',
      'if (e.value === "one") UrlFetchApp.fetchAll([]);',
    );
    const { sim, seen } = simulator({ code });
    sim.run('install');
    let typedMeanwhile = false;
    sim.person.at({ on: 'fetchAll' }, () => {
      typedMeanwhile = true;
      sim.person.edit('Sheet1', 5, 1, 'two');
    });
    sim.person.edit('Sheet1', 4, 1, 'one');
    expect(typedMeanwhile).toBe(true);
    // The second firing ran (and ended) while the first waited, holding the lock.
    expect(seen().map((each) => [each.value, each.got])).toEqual([
      ['one', true],
      ['two', false],
    ]);
    expect(sim.editRuns.map((firing) => [firing.result.ok, firing.overlapped])).toEqual([
      [true, true],
      [true, false],
    ]);
  });

  it('fire for a sort only where the simulator is told a sort fires edit (UNCONFIRMED)', () => {
    for (const sortFiresEdit of [false, true]) {
      const { sim, seen } = simulator({ sortFiresEdit });
      sim.person.setValues('Sheet1', 1, 1, [['h'], ['b'], ['a']]);
      sim.run('install');
      sim.person.sortRange('Sheet1', 'A2:A3', 1);
      expect(seen().map((each) => each.a1)).toEqual(sortFiresEdit ? ['A2:A3'] : []);
    }
  });

  it('stop firing once the creator’s daily trigger runtime is used up', () => {
    const { sim } = simulator({ triggerRuntimeDailyMs: 1500 });
    sim.run('install');
    sim.person.edit('Sheet1', 2, 1, 'a');
    sim.person.edit('Sheet1', 2, 1, 'b');
    sim.person.edit('Sheet1', 2, 1, 'c');
    expect(sim.editRuns[0]?.result.ok).toBe(true);
    // The second starts under the quota and is stopped where it runs out; the third does not run.
    expect(sim.editRuns[1]?.result.killed).toBe(true);
    expect(sim.editRuns[2]?.result.error?.message).toMatch(/too much computer time/);
  });
});
