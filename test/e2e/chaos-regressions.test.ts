// Deterministic replays of what the chaos suite found: each failure reduced to the few steps that cause it.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CRM, DEALS, startWorld, type World } from './world';

interface Summary {
  ok: boolean;
  message: string;
  created: number;
}

/** The person types a new line (title and amount) below the last one. */
function addLine(world: World, title: string, amount: number): void {
  const sheet = world.sim.spreadsheet.getActiveSheet();
  const headers = (sheet.getRange(1, 1, 1, sheet.getLastColumn()).getValues()[0] as unknown[]).map(String);
  const row = sheet.getLastRow() + 1;
  sheet.getRange(row, headers.indexOf('title') + 1).setValue(title);
  sheet.getRange(row, headers.indexOf('amount') + 1).setValue(amount);
}

function linesTitled(world: World, title: string): unknown[][] {
  const sheet = world.sim.spreadsheet.getActiveSheet();
  const values = sheet.getRange(1, 1, sheet.getLastRow(), sheet.getLastColumn()).getValues() as unknown[][];
  const titleColumn = (values[0] as unknown[]).indexOf('title');
  return values.slice(1).filter((line) => line[titleColumn] === title);
}

/** The next POST .../rows is saved by the service, then its connection drops (no answer arrives). */
async function dropNextCreateAfterCommit(world: World): Promise<void> {
  await world.emulator.admin.queueAnswers([
    { match: { method: 'POST', path: '/rows$' }, status: 201, commitFirst: true, dropConnection: true },
  ]);
}

describe('chaos regressions: a create whose answer was lost', () => {
  let world: World;
  beforeEach(async () => {
    world = await startWorld();
    world.connect();
    world.linkAndPull();
  });
  afterEach(async () => world?.close());

  it('push, push: the second push adopts the row instead of creating it again', async () => {
    addLine(world, 'lost-create-1', 5);
    await dropNextCreateAfterCommit(world);
    world.call<Summary>('pushActiveSheet');
    const second = world.call<Summary>('pushActiveSheet');
    expect(second.ok, second.message).toBe(true);
    const rows = (await world.serviceRows(CRM, DEALS)).filter((row) => row.title === 'lost-create-1');
    expect(rows).toHaveLength(1);
    expect(linesTitled(world, 'lost-create-1')).toHaveLength(1);
  });

  // Found by chaos seeds 20240147, 20240215 and 20240233: a pull while a line's create is pending
  // (committed, answer lost) must put the service's row on that line, not add a second line.
  it('push, pull, push: the pull matches the row to the pending line; nothing is created twice', async () => {
    addLine(world, 'lost-create-2', 7);
    await dropNextCreateAfterCommit(world);
    world.call<Summary>('pushActiveSheet');
    const pulled = world.call<Summary>('pullActiveSheet');
    expect(pulled.ok, pulled.message).toBe(true);
    const pushed = world.call<Summary>('pushActiveSheet');
    expect(pushed.ok, pushed.message).toBe(true);
    const rows = (await world.serviceRows(CRM, DEALS)).filter((row) => row.title === 'lost-create-2');
    expect(rows).toHaveLength(1);
    expect(linesTitled(world, 'lost-create-2')).toHaveLength(1);
  });

  it('sync whose push lost the answer: its own pull must not add the row as a second line', async () => {
    addLine(world, 'lost-create-3', 9);
    await dropNextCreateAfterCommit(world);
    world.call<Summary>('syncActiveSheet');
    expect(linesTitled(world, 'lost-create-3')).toHaveLength(1);
    world.call<Summary>('syncActiveSheet');
    const rows = (await world.serviceRows(CRM, DEALS)).filter((row) => row.title === 'lost-create-3');
    expect(rows).toHaveLength(1);
  });
});
