// Ids "." and ".." (a tampered id cell or base) never become a request: encodeURIComponent leaves
// them as they are, and as path segments they would turn a row check into GET …/tables/<id>/.
import { afterEach, describe, expect, it } from 'vitest';
import { startWorld, type World } from './world';

interface Summary {
  ok: boolean;
  message: string;
  errors: number;
}

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

describe('dot ids', () => {
  for (const tampered of ['.', '..']) {
    it(`an id "${tampered}" in a tampered base and id cell sends no request for it`, async () => {
      world = await startWorld();
      const w = world;
      w.connect();
      w.linkAndPull();
      const headers = w.values()[0] as string[];
      const sheet = w.sim.spreadsheet.getActiveSheet();
      const name = sheet.getName();
      const id = String(w.values()[1]?.[headers.indexOf('id')]);
      // Someone edits the hidden base and the line's id cell to the same dot id.
      const base = w.sim.spreadsheet.getSheetByName(`_tas_base_${sheet.getSheetId()}`);
      if (!base) throw new Error('no base sheet');
      const baseValues = base.getRange(1, 1, base.getLastRow(), base.getLastColumn()).getValues();
      const at = baseValues.findIndex((row) => row.includes(id));
      expect(at).toBeGreaterThan(0);
      const column = (baseValues[at] as unknown[]).indexOf(id);
      base.getRange(at + 1, column + 1).setValue(tampered);
      w.sim.personEdit(name, 2, headers.indexOf('status') + 1, 'edited');
      w.sim.personEdit(name, 2, headers.indexOf('id') + 1, tampered);
      await w.emulator.admin.clearLog();
      const pushed = w.call<Summary>('pushActiveSheet');
      const pulled = w.call<Summary>('pullActiveSheet');
      const log = await w.emulator.admin.requestLog();
      const paths = log.map((entry) => entry.path);
      expect(paths.filter((path) => /\/$|\/\.\.?(\/|$)/.test(path))).toEqual([]);
      expect(pushed.message.length + pulled.message.length).toBeGreaterThan(0);
    });
  }

  it('a link to the table app ".." is refused with a clear message', async () => {
    world = await startWorld();
    const w = world;
    w.connect();
    for (const id of ['.', '..']) {
      const result = w.sim.callFromClient('listTables', [{ tableAppId: id }]);
      expect(result.ok).toBe(false);
      expect(result.error?.message).toMatch(/not a table app id or link/);
      const linked = w.sim.callFromClient('linkActiveSheet', [{ tableAppId: 'ta_crm', tableId: id }]);
      expect(linked.ok).toBe(false);
      expect(linked.error?.message).toMatch(/Choose a table/);
    }
  });
});
