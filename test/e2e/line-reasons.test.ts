// Issue 17, points 1 and 5: a reason why a line cannot be sent stays on the line until it is fixed or
// pushed (a pull keeps it and adds what it learned), the summary's counts match "Lines to check", and
// values of every column type are checked before anything goes to the service.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CRM, DEALS, headers, startWorld, type World } from './world';

interface Summary {
  ok: boolean;
  message: string;
  errors: number;
  conflicts: number;
  issues: Array<{ row: number; kind: string; message: string }>;
}

let world: World;
let sheetName: string;

beforeAll(async () => {
  world = await startWorld();
  world.connect();
  world.linkAndPull();
  sheetName = world.sim.spreadsheet.getActiveSheet().getName();
});
afterAll(async () => world?.close());

function rowIdAt(row: number): string {
  return String(world.values()[row - 1]?.[headers(world).indexOf('id')]);
}
function status(row: number): string {
  return String(world.values()[row - 1]?.[headers(world).indexOf('_sync')]);
}
function type(row: number, columnId: string, text: string): void {
  world.sim.personEdit(sheetName, row, headers(world).indexOf(columnId) + 1, text);
}
function errorRows(summary: Summary): number[] {
  return summary.issues.filter((issue) => issue.kind === 'error').map((issue) => issue.row);
}

describe('reasons that stay', () => {
  const bad: Array<[number, string, string, string]> = [
    [2, 'amount', 'abc', 'amount: "abc" is not a number.'],
    [3, 'amount', '12,5', 'write decimals with a point (12.5)'],
    [
      4,
      'closeDate',
      '31/02/2024',
      'closeDate: "31/02/2024" is not a date the service takes: write it as YYYY-MM-DD',
    ],
    [5, 'closeDate', '2024-02-31', 'February 2024 has 29 days'],
    [6, 'tags', '[1, 2]', 'is not a list of choices'],
    [7, 'meta', '[1]', 'is not a JSON object'],
  ];

  it('a push refuses each bad value with a reason and sends none of them', async () => {
    const before = await world.serviceRows();
    for (const [row, column, text] of bad) type(row, column, text);
    const summary = world.call<Summary>('pushActiveSheet');
    for (const [row, , , reason] of bad) expect(status(row)).toContain(reason);
    expect(errorRows(summary)).toEqual(bad.map(([row]) => row));
    expect(summary.errors).toBe(bad.length);
    expect(summary.message).toContain(`${bad.length} with errors`);
    // Nothing of the bad values reached the service.
    expect(await world.serviceRows()).toEqual(before);
  });

  it('a pull keeps every reason, adds what it learned, and its counts match the list', async () => {
    const rowId = rowIdAt(2);
    await world.emulator.admin.editRow(CRM, DEALS, rowId, { status: 'won' }, 'u_bob');
    const summary = world.call<Summary>('pullActiveSheet');
    for (const [row, , , reason] of bad) expect(status(row)).toContain(reason);
    expect(status(2)).toBe('✖ not pushed: amount: "abc" is not a number. (status updated from the service)');
    expect(errorRows(summary)).toEqual(bad.map(([row]) => row));
    expect(summary.errors).toBe(bad.length);
    expect(summary.message).toContain(`${bad.length} with errors`);
  });

  it('a sync keeps them too and does not count a line twice', () => {
    const summary = world.call<Summary>('syncActiveSheet');
    expect(errorRows(summary)).toEqual(bad.map(([row]) => row));
    expect(summary.errors).toBe(bad.length);
  });

  it('a fixed line loses its reason at the next pull and goes up at the next push', async () => {
    type(2, 'amount', '12.5');
    type(4, 'closeDate', '2024-02-29');
    const pulled = world.call<Summary>('pullActiveSheet');
    expect(status(2)).toBe('✎ local edits not pushed yet: amount');
    expect(errorRows(pulled)).toEqual([3, 5, 6, 7]);
    expect(pulled.errors).toBe(4);
    const pushed = world.call<Summary>('pushActiveSheet');
    expect(status(2)).toBe('✓ pushed');
    expect(status(4)).toBe('✓ pushed');
    expect(pushed.errors).toBe(4);
    const rows = await world.serviceRows();
    expect(rows.find((row) => row.id === rowIdAt(2))?.amount).toBe(12.5);
    expect(rows.find((row) => row.id === rowIdAt(4))?.closeDate).toBe('2024-02-29');
  });
});

describe('an error outlives no fix (issue 26, point 2)', () => {
  it('a JSON cell put back to its original value loses "not valid JSON" at the next push; nothing is sent', async () => {
    const row = 8;
    const original = String(world.values()[row - 1]?.[headers(world).indexOf('meta')]);
    type(row, 'meta', '{"source": web}');
    const refused = world.call<Summary>('pushActiveSheet');
    expect(status(row)).toMatch(/^✖ not pushed: meta: ".*" is not valid JSON/);
    expect(errorRows(refused)).toContain(row);
    const before = await world.serviceRows();
    type(row, 'meta', original);
    const pushed = world.call<Summary>('pushActiveSheet');
    expect(status(row)).toBe('✓ in sync');
    expect(errorRows(pushed)).not.toContain(row);
    expect(await world.serviceRows()).toEqual(before);
  });

  it('a list cell refused earlier ([1, 2]) and retyped as choices with commas is sent, and its reason goes', async () => {
    const row = 6;
    type(row, 'tags', 'enterprise, smb');
    world.call<Summary>('pushActiveSheet');
    expect(status(row)).toBe('✓ pushed');
    const rows = await world.serviceRows();
    expect(rows.find((each) => each.id === rowIdAt(row))?.tags).toEqual(['enterprise', 'smb']);
  });
});
