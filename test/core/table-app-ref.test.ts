// Reading a table app id from what a person pastes: an id, or any link of the service containing it.
import { describe, expect, it } from 'vitest';
import { parseTableAppRef } from '../../src/core/table-app-ref';

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
