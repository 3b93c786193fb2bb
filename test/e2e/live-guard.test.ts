// The accident guard with live sync on (issue 33 cases 2 and 14, sync-rules.md "Live sync": "under the
// same rules as a push (three-way check, accident guard ...)"). Whether a sort fires an edit is
// UNCONFIRMED (apps-script-facts §13, §14), so both readings run:
// - a column sorted alone, then a note typed on 3 lines: each firing pushes its line, and must still
//   see that the line's title moved with the whole column: no row takes another row's title, the notes
//   go, and the hold waits for the person's choice (no keystroke clears or replaces it);
// - the same on a sheet too large to be read whole by a firing (its typed lines are read apart);
// - a held push's examples show the value the service holds for that row ("before"), not "(empty)"
//   (the GET of a row carries fixed fields only, table-api 4.5) nor another row's value.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { heldValueText } from '../../src/core/sync/push/guard';
import type { HeldChoice, HeldPush, SyncSummary } from '../../src/shared/types';
import { CRM, column, DEALS, freshSheet, startWorld, type World } from './world';

const ALICE = 'alice@example.com';

function asAlice<T>(w: World, fn: string, ...args: unknown[]): T {
  const result = w.sim.callFromClient(fn, args, { user: ALICE });
  if (!result.ok) throw new Error(result.error?.message ?? `${fn} failed`);
  return result.value as T;
}

function columnLetter(at: number): string {
  let letters = '';
  for (let n = at; n > 0; n = Math.floor((n - 1) / 26))
    letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  return letters;
}

/** Data › Sort range on one column's cells alone, rows 2 to the last. */
function sortColumnAlone(w: World, header: string, ascending = true): void {
  const sheet = w.sim.spreadsheet.getActiveSheet();
  const at = column(w, header);
  const letter = columnLetter(at);
  w.sim.person.sortRange(sheet.getName(), `${letter}2:${letter}${sheet.getLastRow()}`, at, ascending);
}

function idOnRow(w: World, row: number): string {
  return String(w.sim.spreadsheet.getActiveSheet().getRange(row, column(w, 'id')).getValue());
}

function heldNow(w: World): HeldChoice | null {
  return asAlice<{ held: HeldChoice | null }>(w, 'getState').held;
}

/** Every example of a hold shows, as "before", what the service holds in that row's cell now. */
async function expectBeforeIsServices(w: World, held: HeldPush, tableId = DEALS): Promise<void> {
  const rows = new Map((await w.serviceRows(CRM, tableId)).map((row) => [String(row.id), row]));
  const examples = held.columns.flatMap((each) =>
    each.examples.map((example) => ({ ...example, columnId: each.columnId })),
  );
  expect(examples.length).toBeGreaterThan(0);
  for (const example of examples) {
    const row = rows.get(example.rowId);
    expect(example.before, `${example.rowId} ${example.columnId}`).toBe(
      heldValueText(row?.[example.columnId]),
    );
  }
}

describe('a held push shows the service’s value as "before"', () => {
  let w: World;
  beforeAll(async () => {
    w = await startWorld({ simulator: { costs: 'central', countRealTime: false } });
    w.connect('u_alice');
  });
  afterAll(async () => w?.close());

  it('Amount sorted alone: each example is "the service’s amount → the amount sent"', async () => {
    freshSheet(w);
    w.linkAndPull();
    sortColumnAlone(w, 'amount', false);
    const pushed = w.call<SyncSummary>('pushActiveSheet');
    expect(pushed.held?.columns.map((each) => each.columnId)).toEqual(['amount']);
    await expectBeforeIsServices(w, pushed.held as HeldPush);
    // The sidebar's stored choice says the same.
    await expectBeforeIsServices(w, (w.call<{ held: HeldChoice }>('getState').held as HeldChoice).held);
  });
});
