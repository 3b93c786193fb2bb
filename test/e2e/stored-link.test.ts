// A link stored by an earlier version (deleted columns under their old name "goneColumnIds") keeps
// working: its deleted columns stay unsynced and the record is rewritten under the new name.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorld, type World } from './world';

let world: World;

beforeAll(async () => {
  world = await startWorld();
  world.connect();
  world.linkAndPull();
});

afterAll(async () => {
  await world.close();
});

describe('a link stored by an earlier version', () => {
  it('reads its deleted columns from the old field name and saves them under the new one', () => {
    const sheetId = world.sim.spreadsheet.getActiveSheet().getSheetId();
    const key = `tas.link.${sheetId}`;
    const stored = JSON.parse(world.sim.properties('document')[key] as string) as Record<string, unknown>;
    // The sample table has a column deleted on the service.
    expect(stored.deletedColumnIds).toEqual(['old_stage']);
    const { deletedColumnIds: _, ...legacy } = stored;
    world.sim.writeProperty(
      'document',
      key,
      JSON.stringify({ ...legacy, goneColumnIds: ['old_stage', 'c_retired'] }),
    );

    // A person typed into the retired column's sheet column: it is not a table column any more.
    const sheet = world.sim.spreadsheet.getActiveSheet();
    const lastColumn = sheet.getLastColumn();
    sheet.getRange(1, lastColumn + 1).setValue('c_retired');
    sheet.getRange(2, lastColumn + 1).setValue('note kept in the sheet');

    const summary = world.call<{ ok: boolean; message: string }>('pullActiveSheet');
    expect(summary.ok).toBe(true);
    const saved = JSON.parse(world.sim.properties('document')[key] as string) as Record<string, unknown>;
    expect(saved.deletedColumnIds).toEqual(['old_stage', 'c_retired']);
    expect(saved).not.toHaveProperty('goneColumnIds');
    expect(sheet.getRange(2, lastColumn + 1).getValue()).toBe('note kept in the sheet');
  });
});
