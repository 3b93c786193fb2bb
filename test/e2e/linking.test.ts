// Linking (issue 17, point 4): any link of the service that contains the table app id is understood,
// and the add-on's own sheets (Sync log, Members, hidden base sheets) are never linked.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CRM, DEALS, refusal, startWorld, type World } from './world';

let world: World;

beforeAll(async () => {
  world = await startWorld();
  world.connect();
});
afterAll(async () => world?.close());

describe('linking', () => {
  it.each([
    [CRM, 'table app ta_crm', null],
    [`https://tables.example.com/${CRM}`, 'table app ta_crm (from the link)', null],
    [
      `https://tables.example.com/${CRM}/${DEALS}`,
      'table app ta_crm, table tbl_deals (from the link)',
      DEALS,
    ],
    [
      `https://tables.example.com/api/public/tableApps/${CRM}/tables/${DEALS}`,
      'table app ta_crm, table tbl_deals (from the link)',
      DEALS,
    ],
  ])('lists the tables for %s and says what it understood', (text, understood, hint) => {
    const info = world.call<{
      id: string;
      understood: string;
      tableIdHint: string | null;
      tables: unknown[];
    }>('listTables', { tableAppId: text });
    expect(info).toMatchObject({ id: CRM, understood, tableIdHint: hint });
    expect(info.tables.length).toBeGreaterThan(0);
  });

  it('says what to paste for a link without a table app', () => {
    expect(refusal(world, 'listTables', { tableAppId: 'https://tables.example.com/' })).toContain(
      'is the service’s address, not a table app',
    );
  });

  it('refuses to link the Sync log, the Members sheet or a base sheet, and changes none of them', () => {
    world.linkAndPull();
    // A push is logged (a clean pull from the sidebar is not): the Sync log sheet exists.
    world.call('pushActiveSheet');
    const members = world.call<{ sheetName: string }>('importAccountMembers', {});
    const spreadsheet = world.sim.spreadsheet;
    for (const name of ['Sync log', members.sheetName]) {
      const sheet = spreadsheet.getSheetByName(name);
      if (!sheet) throw new Error(`no sheet ${name}`);
      spreadsheet.setActiveSheet(sheet);
      const before = JSON.stringify(world.values(name));
      const message = refusal(world, 'linkActiveSheet', { tableAppId: CRM, tableId: DEALS, replace: true });
      expect(message).toContain(`"${name}"`);
      expect(message).toContain('Choose "A new sheet"');
      expect(JSON.stringify(world.values(name))).toBe(before);
      expect(world.call<{ sheet: { addOnSheet: string | null } }>('getState').sheet.addOnSheet).toContain(
        name,
      );
    }
    const base = spreadsheet.getSheets().find((sheet) => sheet.getName().startsWith('_tas_base_'));
    expect(base?.isSheetHidden()).toBe(true);
    if (base) {
      spreadsheet.setActiveSheet(base);
      expect(refusal(world, 'linkActiveSheet', { tableAppId: CRM, tableId: DEALS, replace: true })).toContain(
        'hidden sheet the add-on keeps',
      );
    }
    // "A new sheet" is still open to a person standing on the log.
    spreadsheet.setActiveSheet(spreadsheet.getSheetByName('Sync log') as never);
    const linked = world.call<{ sheetName: string }>('linkActiveSheet', {
      tableAppId: CRM,
      tableId: DEALS,
      newSheet: true,
    });
    expect(linked.sheetName).not.toBe('Sync log');
  });

  it('answers a sheet that holds data with the code SHEET_HOLDS_DATA when asked to, and changes nothing', () => {
    const spreadsheet = world.sim.spreadsheet;
    const sheet = spreadsheet.insertSheet('My notes');
    sheet.getRange('A1').setValue('my own data');
    spreadsheet.setActiveSheet(sheet);
    const link = { tableAppId: CRM, tableId: DEALS };
    const answer = world.call<{ linked: boolean; code: string; message: string }>('linkActiveSheet', {
      ...link,
      askBeforeReplacing: true,
    });
    expect(answer).toMatchObject({ linked: false, code: 'SHEET_HOLDS_DATA' });
    expect(answer.message).toContain('"My notes"');
    expect(world.values('My notes')).toEqual([['my own data']]);
    expect(world.call<{ link: unknown }>('getState').link).toBeNull();
    // A caller that does not ask gets the refusal as an error, as before.
    expect(refusal(world, 'linkActiveSheet', link)).toBe(answer.message);
  });
});
