// What the team chaos of issue 24 found (docs/chaos.md, "With the team of issue 24"), each reduced to
// a few lines, each a rule of sync-rules.md the product now keeps.
// Simulator (dist/Code.js) + table-service emulator over real HTTP.
import { afterEach, describe, expect, it } from 'vitest';
import type { SyncSummary } from '../../src/shared/types';
import { activeSheet, column, requestsDuring, startWorld, type World } from './world';

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

async function linked(): Promise<World> {
  world = await startWorld();
  world.connect();
  world.linkAndPull();
  return world;
}

function ids(w: World): string[] {
  const idAt = column(w, 'id') - 1;
  return w
    .values()
    .slice(1)
    .map((line) => String(line[idAt]));
}

const writes = (log: Array<{ method: string; path: string }>) =>
  log.filter((entry) => entry.method !== 'GET');

describe('ids are the service’s (chaos seeds 20240120, 20240119, 20240179)', () => {
  it('the id cells of a few lines sorted alone, then a pull and a sync: nothing is sent', async () => {
    const w = await linked();
    const idAt = column(w, 'id');
    // Data › Sort range on the id cells of lines 16-21 alone (ascending).
    activeSheet(w).getRange(16, idAt, 6, 1).sort({ column: idAt, ascending: true });
    w.call<SyncSummary>('pullActiveSheet');
    const log = await requestsDuring(w, () => w.call<SyncSummary>('syncActiveSheet'));
    expect(writes(log).map((entry) => `${entry.method} ${entry.path}`)).toEqual([]);
  });
});

describe('an id typed over with another row’s id (chaos seeds 20240209, 20240181, 20240282, 20240287)', () => {
  it('a pull adds no second line for the row whose id was overwritten', async () => {
    const w = await linked();
    const before = ids(w);
    const idAt = column(w, 'id');
    activeSheet(w).getRange(4, idAt).setValue(before[9]);
    const pulled = w.call<SyncSummary>('pullActiveSheet');
    expect(pulled.added).toBe(0);
    // The person puts the id back, as the line asks: every row is on one line.
    activeSheet(w).getRange(4, idAt).setValue(before[2]);
    expect(ids(w).filter((id) => id === before[2])).toHaveLength(1);
  });
});

describe('the hidden base sheet tampered with (chaos seeds 20240110, 20240114, 20240153, 20240254)', () => {
  it('an id cell of the base edited: the run stops with a clear message, and no line takes the typed id', async () => {
    const w = await linked();
    const sheet = activeSheet(w);
    const base = w.sim.spreadsheet.getSheetByName(`_tas_base_${sheet.getSheetId()}`);
    expect(base).not.toBeNull();
    base?.getRange(5, 1).setValue('typed by hand');
    const before = w.values();
    const synced = w.call<SyncSummary>('syncActiveSheet');
    // The run stops and says so; nothing of the sheet changed.
    expect(synced.ok).toBe(false);
    expect(synced.message).toMatch(/hidden base sheet was changed by hand/);
    expect(ids(w)).not.toContain('typed by hand');
    expect(w.values()).toEqual(before);
  });
});
