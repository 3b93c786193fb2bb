// Numbers the platform may round: with a sheet that keeps 15 significant digits (as Sheets is
// reported to), a pulled number the sheet rounded is not an edit, so a push sends nothing for it —
// not once, and not again on every run.
import { afterEach, describe, expect, it } from 'vitest';
import { CRM, DEALS, startWorld, type World } from './world';

interface Summary {
  ok: boolean;
  updated: number;
  created: number;
  errors: number;
}

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

const PRECISE = [0.1 + 0.2, 2 ** 53, 1e21, 12345678901234568, 1 / 3];

describe('numbers the sheet keeps with fewer digits', () => {
  it('are not pushed back after a pull, run after run', async () => {
    world = await startWorld({ simulator: { cellSignificantDigits: 15 } });
    const w = world;
    w.connect();
    w.linkAndPull();
    const rows = await w.serviceRows();
    const ids = rows.slice(0, PRECISE.length).map((row) => String(row.id));
    for (const [i, amount] of PRECISE.entries())
      await w.emulator.admin.editRow(CRM, DEALS, ids[i] as string, { amount }, 'u_bob');
    expect(w.call<Summary>('pullActiveSheet').ok).toBe(true);
    // The sheet kept 15 digits: 0.1 + 0.2 reads back as 0.3.
    const headers = w.values()[0] as string[];
    const amountColumn = headers.indexOf('amount');
    const idColumn = headers.indexOf('id');
    const cellOf = (id: string) => w.values().find((line) => String(line[idColumn]) === id)?.[amountColumn];
    expect(cellOf(ids[0] as string)).toBe(0.3);
    const lModBefore = (await w.serviceRows()).map((row) => row.lMod);
    for (let run = 0; run < 3; run++) {
      const pushed = w.call<Summary>('pushActiveSheet');
      expect(pushed).toMatchObject({ ok: true, updated: 0, created: 0, errors: 0 });
      const synced = w.call<Summary>('syncActiveSheet');
      expect(synced.ok).toBe(true);
    }
    const after = await w.serviceRows();
    expect(after.map((row) => row.lMod)).toEqual(lModBefore);
    for (const [i, amount] of PRECISE.entries())
      expect(after.find((row) => row.id === ids[i])?.amount).toBe(amount);
  });

  it('a person’s real edit of such a number is still pushed', async () => {
    world = await startWorld({ simulator: { cellSignificantDigits: 15 } });
    const w = world;
    w.connect();
    w.linkAndPull();
    const id = String((await w.serviceRows())[0]?.id);
    await w.emulator.admin.editRow(CRM, DEALS, id, { amount: 0.1 + 0.2 }, 'u_bob');
    w.call('pullActiveSheet');
    const headers = w.values()[0] as string[];
    const row = w.values().findIndex((line) => String(line[headers.indexOf('id')]) === id) + 1;
    w.sim.personEdit(w.sim.spreadsheet.getActiveSheet().getName(), row, headers.indexOf('amount') + 1, '0.4');
    const pushed = w.call<Summary>('pushActiveSheet');
    expect(pushed.updated).toBe(1);
    expect((await w.serviceRows()).find((each) => each.id === id)?.amount).toBe(0.4);
  });
});
