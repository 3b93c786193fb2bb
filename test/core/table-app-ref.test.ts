// Reading a table app id from what a person pastes: an id, or any link of the service containing it;
// never a link of Google's own, and never a table the app does not have.
import { describe, expect, it } from 'vitest';
import { checkTableHint, parseTableAppRef } from '../../src/core/table-app-ref';

describe('parseTableAppRef', () => {
  it('takes a bare id', () => {
    expect(parseTableAppRef('ta_crm')).toEqual({
      ok: true,
      tableAppId: 'ta_crm',
      understood: 'table app ta_crm',
    });
    expect(parseTableAppRef('  "ta_crm"  ')).toMatchObject({ ok: true, tableAppId: 'ta_crm' });
  });

  it.each([
    ['https://tables.example.com/ta_crm', 'ta_crm', undefined],
    ['https://tables.example.com/ta_crm/', 'ta_crm', undefined],
    ['tables.example.com/ta_crm?view=grid', 'ta_crm', undefined],
    ['https://tables.example.com/ta_crm/tbl_deals', 'ta_crm', 'tbl_deals'],
    ['https://tables.example.com/api/public/tableApps/ta_crm', 'ta_crm', undefined],
    ['https://tables.example.com/public/tableApps/ta_crm/tables/tbl_deals/rows', 'ta_crm', 'tbl_deals'],
    ['http://127.0.0.1:9000/tableApps/ta%2Dops', 'ta-ops', undefined],
    ['https://tables.example.com/#/apps/ta_crm', 'ta_crm', undefined],
    ['https://tables.example.com/open?appId=ta_crm&tableId=tbl_deals', 'ta_crm', 'tbl_deals'],
    ['<https://tables.example.com/ta_crm>', 'ta_crm', undefined],
  ])('understands %s', (text, appId, tableId) => {
    const ref = parseTableAppRef(text);
    expect(ref).toMatchObject({ ok: true, tableAppId: appId });
    if (!ref.ok) return;
    expect(ref.tableId).toBe(tableId);
    expect(ref.understood).toBe(
      tableId ? `table app ${appId}, table ${tableId} (from the link)` : `table app ${appId} (from the link)`,
    );
  });

  it('says what to paste instead of guessing', () => {
    expect(parseTableAppRef('')).toEqual({
      ok: false,
      reason: 'Paste the table app’s link or id, then choose Show its tables.',
    });
    expect(parseTableAppRef('https://tables.example.com/')).toMatchObject({
      ok: false,
      reason: expect.stringContaining('is the service’s address, not a table app'),
    });
    for (const bad of ['ta crm', 'https://x.test/tableApps/', '..', 'https://x.test/a%20b', 'ta<crm>'])
      expect(parseTableAppRef(bad), bad).toMatchObject({
        ok: false,
        reason: expect.stringContaining('paste'),
      });
  });
});

describe('a link of Google’s own', () => {
  it.each([
    ['https://docs.google.com/spreadsheets/d/1AbC_dEf-123/edit#gid=0', 'a Google Sheets link'],
    ['docs.google.com/spreadsheets/d/1AbC/edit?usp=sharing', 'a Google Sheets link'],
    ['https://docs.google.com/document/d/1AbC/edit', 'a Google Docs link'],
    ['https://drive.google.com/drive/folders/1AbC', 'a Google Drive link'],
    ['HTTPS://DOCS.GOOGLE.COM/spreadsheets/d/x', 'a Google Sheets link'],
    ['https://docs.google.com/forms/d/1AbC', 'a Google link'],
  ])('is refused: %s', (text, kind) => {
    expect(parseTableAppRef(text)).toEqual({
      ok: false,
      reason: `That is ${kind}, not a table app of the service: open the table app on the service, copy the link from the address bar (or its id, such as ta_crm) and paste that here.`,
    });
  });

  it('is told apart from the service’s links whatever their host', () => {
    for (const text of ['https://tables.google-apps.example.com/ta_crm', 'https://notgoogle.com/ta_crm'])
      expect(parseTableAppRef(text), text).toMatchObject({ ok: true, tableAppId: 'ta_crm' });
  });
});

describe('checkTableHint', () => {
  const tables = [
    { id: 'tbl_deals', name: 'Deals' },
    { id: 'tbl_contacts', name: 'Contacts' },
  ];
  const ref = (text: string) => {
    const parsed = parseTableAppRef(text);
    if (!parsed.ok) throw new Error(parsed.reason);
    return parsed;
  };

  it('passes a link without a table through', () => {
    expect(checkTableHint(ref('https://tables.example.com/ta_crm'), tables)).toEqual({
      tableIdHint: null,
      understood: 'table app ta_crm (from the link)',
      problem: null,
    });
  });

  it('preselects a table the app has, by id or by name', () => {
    expect(checkTableHint(ref('https://tables.example.com/ta_crm/tbl_contacts'), tables)).toEqual({
      tableIdHint: 'tbl_contacts',
      understood: 'table app ta_crm, table tbl_contacts (from the link)',
      problem: null,
    });
    expect(checkTableHint(ref('https://tables.example.com/ta_crm/deals'), tables)).toEqual({
      tableIdHint: 'tbl_deals',
      understood: 'table app ta_crm, table “Deals” (from the link)',
      problem: null,
    });
  });

  it('says when the app has no such table, and which it has', () => {
    expect(checkTableHint(ref('https://tables.example.com/ta_crm/tbl_gone'), tables)).toEqual({
      tableIdHint: null,
      understood: 'table app ta_crm (from the link)',
      problem: 'This table app has no table tbl_gone; pick one of “Deals” or “Contacts”.',
    });
    const many = Array.from({ length: 7 }, (_, i) => ({ id: `t${i}`, name: `T${i}` }));
    expect(checkTableHint(ref('ta_x?tableId=nope&appId=ta_x'), many).problem).toBe(
      'This table app has no table nope; pick one of “T0”, “T1”, “T2”, “T3”, “T4” and 2 more.',
    );
    expect(checkTableHint(ref('https://tables.example.com/ta_crm/tbl_gone'), []).problem).toBe(
      'This table app has no table tbl_gone, and no tables yet: add one on the service first.',
    );
  });
});
