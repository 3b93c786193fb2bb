// Dates in number columns: a person types a date into a number cell; Sheets gives the cell a date
// format and reads it back as a Date from then on. The push marks the line "a date in a number
// column" and sends nothing for it; a pull gives the cell its number format back, so a number typed
// in next is a number again and is pushed as one.
import { afterEach, describe, expect, it } from 'vitest';
import { startWorld, type World } from './world';

interface Summary {
  ok: boolean;
  errors: number;
  issues: Array<{ row: number; kind: string; message: string }>;
}

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

describe('a date in a number column', () => {
  it('is marked, never sent, and a pull restores the number format', async () => {
    world = await startWorld();
    const w = world;
    w.connect();
    w.linkAndPull();
    const sheet = w.sim.spreadsheet.getActiveSheet();
    const name = sheet.getName();
    const headers = w.values()[0] as string[];
    const amount = headers.indexOf('amount') + 1;
    const id = String(w.values()[1]?.[headers.indexOf('id')]);
    const before = (await w.serviceRows()).find((row) => row.id === id)?.amount;
    expect(typeof before).toBe('number');

    // The simulator models Sheets: the number cell takes a date format and reads back as a Date.
    w.sim.personEdit(name, 2, amount, '2024-01-05');
    const cell = sheet.getRange(2, amount);
    expect(cell.getNumberFormat()).toBe('yyyy-mm-dd');
    expect(Object.prototype.toString.call(cell.getValue())).toBe('[object Date]');
    // Typing a number into it now still reads back as a Date (the date format stays).
    w.sim.personEdit(name, 2, amount, '42');
    expect(Object.prototype.toString.call(cell.getValue())).toBe('[object Date]');
    w.sim.personEdit(name, 2, amount, '2024-01-05');

    const pushed = w.call<Summary>('pushActiveSheet');
    expect(pushed.errors).toBe(1);
    expect(pushed.issues.find((issue) => issue.row === 2)?.message).toMatch(
      /amount: a date in a number column \("2024-01-05"\)/,
    );
    expect((await w.serviceRows()).find((row) => row.id === id)?.amount).toBe(before);

    // A pull restores the number format; what was typed stays visible as text and stays marked.
    w.call('pullActiveSheet');
    expect(cell.getNumberFormat()).toBe('0.###############');
    expect(cell.getValue()).toBe('2024-01-05');
    const again = w.call<Summary>('pushActiveSheet');
    expect(again.issues.find((issue) => issue.row === 2)?.message).toMatch(/a date in a number column/);
    expect((await w.serviceRows()).find((row) => row.id === id)?.amount).toBe(before);

    // A number typed in now is a number again, and the push sends it.
    w.sim.personEdit(name, 2, amount, '42');
    expect(cell.getValue()).toBe(42);
    const fixed = w.call<Summary>('pushActiveSheet');
    expect(fixed.errors).toBe(0);
    expect((await w.serviceRows()).find((row) => row.id === id)?.amount).toBe(42);
  });
});
