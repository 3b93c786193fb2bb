// A push of edits and new lines on a sheet too large to re-read whole (issues 25, 26): each write-back
// re-identifies the lines by reading the written rows' ids and pending marks down to the last row with
// content, which says the sheet's size too (no getLastRow of its own), and every line still lands where
// it stands now or nowhere while a person inserts, sorts, retypes an id or deletes lines as the push
// waits (sync-rules.md, "A team shares one spreadsheet").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installSheetCallCensus, startCensus, stopCensus } from '../../bench/sheet-call-census';
import { sheetCallKind } from '../../emulators/apps-script/costs';
import type { RequestLogEntry } from '../../emulators/table-service';
import { rowsWritten, setValuesDuring } from './sheet-writes';
import {
  CRM,
  column,
  headers,
  mismatches,
  pullSheet,
  pushSheet,
  requestsDuring,
  startWorld,
  type World,
} from './world';

const LARGE = 'tbl_push_large';
/** Lines of the seeded table: too many cells for a write-back to re-read the sheet whole. */
const LINES = 1200;
/** Lines edited by each case: scattered from near the header to near the last line. */
const EDITED_ROWS = [3, 300, 600, 900, 1150];
const NEW_LINES = 3;

let w: World;
let sheet: string;

/**
 * The person does `act` once, as the push sends its first `method` request (a PATCH or a POST); the
 * returned count says it happened.
 */
function onceWhileSending(method: 'PATCH' | 'POST', act: () => void): () => number {
  let times = 0;
  w.sim.person.at({ on: 'network', when: (p) => p.requests.some((r) => r.method === method) }, () => {
    act();
    times++;
  });
  return () => times;
}

beforeAll(async () => {
  installSheetCallCensus();
  w = await startWorld();
  await w.emulator.admin.seedTable({ appId: CRM, tableId: LARGE, rows: LINES, columns: 12 });
  w.connect();
  w.linkAndPull(CRM, LARGE);
  sheet = w.sim.spreadsheet.getActiveSheet().getName();
  // The first push makes the Sync log: its waits are not the write-back's.
  expect(pushSheet(w).ok).toBe(true);
}, 120_000);
afterAll(async () => w?.close());

const cellAt = (row: number, header: string): unknown =>
  w.sim.spreadsheet.getActiveSheet().getRange(row, column(w, header)).getValue();

/** Each line's row by its id (1-based sheet rows). */
function rowsById(): Map<string, number> {
  const idIndex = headers(w).indexOf('id');
  const rows = new Map<string, number>();
  w.values().forEach((line, i) => {
    if (i > 0 && String(line[idIndex]) !== '') rows.set(String(line[idIndex]), i + 1);
  });
  return rows;
}

/** The rows holding `title` (1-based). */
function rowsTitled(title: string): number[] {
  const titleIndex = headers(w).indexOf('title');
  return w.values().flatMap((line, i) => (i > 0 && line[titleIndex] === title ? [i + 1] : []));
}

/** Edits the title of the EDITED_ROWS lines and types NEW_LINES new lines under the last one. */
function editAndAdd(tag: string): { edited: Map<string, string>; added: string[] } {
  const edited = new Map<string, string>();
  for (const row of EDITED_ROWS) {
    const id = String(cellAt(row, 'id'));
    const title = `${tag} edit of ${id}`;
    w.sim.person.edit(sheet, row, 'title', title);
    edited.set(id, title);
  }
  const last = w.sim.spreadsheet.getActiveSheet().getLastRow();
  const added = Array.from({ length: NEW_LINES }, (_, i) => `${tag} new line ${i}`);
  for (const [i, title] of added.entries()) w.sim.person.edit(sheet, last + 1 + i, 'title', title);
  return { edited, added };
}

const writesOf = (log: RequestLogEntry[]) => log.filter((entry) => entry.method !== 'GET');

/**
 * Pushes until a push sends nothing (lines a write could not find wait for a later run), then checks:
 * every edit and new line on the service once, each line holding its own row, nothing sent again.
 */
async function settlesOnce(edited: Map<string, string>, added: readonly string[]): Promise<void> {
  for (let run = 0; run < 3; run++) {
    if (writesOf(await requestsDuring(w, () => expect(pushSheet(w).ok).toBe(true))).length === 0) break;
  }
  const service = await w.serviceRows(CRM, LARGE);
  for (const [id, title] of edited) expect(service.find((row) => String(row.id) === id)?.title).toBe(title);
  for (const title of added) {
    const rows = service.filter((row) => row.title === title);
    expect(rows, title).toHaveLength(1);
    const lines = rowsTitled(title);
    expect(lines, title).toHaveLength(1);
    expect(cellAt(lines[0] as number, 'id')).toBe(rows[0]?.id);
  }
  expect(pullSheet(w).ok).toBe(true);
  expect(await mismatches(w, undefined, CRM, LARGE)).toEqual([]);
  expect(writesOf(await requestsDuring(w, () => pushSheet(w)))).toEqual([]);
}

/** Every edited line holds its row's lMod now and says it was pushed. */
async function editedLinesSettled(
  edited: Map<string, string>,
  except: readonly string[] = [],
): Promise<void> {
  const service = new Map((await w.serviceRows(CRM, LARGE)).map((row) => [String(row.id), row]));
  const rows = rowsById();
  for (const id of edited.keys()) {
    if (except.includes(id)) continue;
    const row = rows.get(id) as number;
    expect([id, String(cellAt(row, 'lMod')), cellAt(row, '_sync')]).toEqual([
      id,
      String(service.get(id)?.lMod),
      '✓ pushed',
    ]);
  }
}

describe('a push of edits and new lines on a large sheet', () => {
  it('re-identifies its lines before each write without asking the size: 12 waits in all', async () => {
    const { edited, added } = editAndAdd('quiet');
    startCensus();
    const summary = pushSheet(w);
    const calls = stopCensus();
    expect(summary).toMatchObject({ ok: true, updated: EDITED_ROWS.length, created: NEW_LINES });
    const waits = Object.entries(calls)
      .filter(([key]) => sheetCallKind(...(key.split('.') as [string, string])) === 'wait')
      .reduce((sum, [, count]) => sum + count, 0);
    // The sheet's size is told by the ids read to the last row with content, in both write-backs: the
    // one size asked is the Sync log's next row.
    expect(calls['Sheet.getLastRow']).toBe(1);
    // Open (3), the base found and read (2), the sheet read (1); before the creates the header, ids,
    // new lines' cells (which tell two lines without an id or a mark apart) and marks from row 1 to
    // the last row in one read (1); after them the ids and marks to the last row and the header (2);
    // the lock's flush (1); the Sync log found and its size (2). Asking the sheet's size apart took
    // 16; the ids, marks and header apart 14 (without the new lines' cells, read on their own: 15).
    expect(waits).toBe(12);
    await editedLinesSettled(edited);
    await settlesOnce(edited, added);
  });

  it('writes its edited lines far apart without the rows between them', async () => {
    const { edited, added } = editAndAdd('apart');
    const writes = setValuesDuring(sheet, () =>
      expect(pushSheet(w)).toMatchObject({ ok: true, updated: EDITED_ROWS.length, created: NEW_LINES }),
    );
    // Above the last edited line (the new lines and the rows just above them may be written together),
    // only the edited lines' rows.
    const last = EDITED_ROWS[EDITED_ROWS.length - 1] as number;
    expect(rowsWritten(writes).filter((row) => row < last)).toEqual(EDITED_ROWS.slice(0, -1));
    await editedLinesSettled(edited);
    await settlesOnce(edited, added);
  });

  it('a line inserted at the top while the edits are sent: nothing lands on it or on another line', async () => {
    const { edited, added } = editAndAdd('inserted');
    const inserted = onceWhileSending('PATCH', () => {
      w.sim.person.insertRows(sheet, 2, 1);
    });
    expect(pushSheet(w)).toMatchObject({ ok: true, updated: EDITED_ROWS.length });
    expect(inserted()).toBe(1);
    expect(w.values()[1]?.every((value) => value === '')).toBe(true);
    await editedLinesSettled(edited);
    w.sim.person.deleteRows(sheet, 2);
    await settlesOnce(edited, added);
  });

  it('a row inserted among the new lines while the edits are sent: no pending mark lands on it', async () => {
    const { edited, added } = editAndAdd('among');
    const second = rowsTitled(added[1] as string)[0] as number;
    const inserted = onceWhileSending('PATCH', () => {
      // Only the size tells: the id and mark cells of the rows the push writes read as before.
      w.sim.person.insertRows(sheet, second, 1);
    });
    expect(pushSheet(w)).toMatchObject({ ok: true, updated: EDITED_ROWS.length });
    expect(inserted()).toBe(1);
    expect(w.values()[second - 1]?.every((value) => value === '')).toBe(true);
    await editedLinesSettled(edited);
    w.sim.person.deleteRows(sheet, second);
    await settlesOnce(edited, added);
  });

  it('the sheet sorted while the edits are sent: statuses and lMods follow their lines', async () => {
    const { edited, added } = editAndAdd('sorted');
    const sorted = onceWhileSending('PATCH', () => {
      w.sim.person.sortSheet(sheet, 'title', false);
    });
    expect(pushSheet(w)).toMatchObject({ ok: true, updated: EDITED_ROWS.length });
    expect(sorted()).toBe(1);
    await editedLinesSettled(edited);
    await settlesOnce(edited, added);
  });

  it('the sheet sorted while the creates are sent: each new id lands on its own line', async () => {
    const { edited, added } = editAndAdd('created sorted');
    const sorted = onceWhileSending('POST', () => {
      w.sim.person.sortSheet(sheet, 'title', true);
    });
    expect(pushSheet(w)).toMatchObject({ ok: true, updated: EDITED_ROWS.length, created: NEW_LINES });
    expect(sorted()).toBe(1);
    const service = await w.serviceRows(CRM, LARGE);
    for (const title of added) {
      const lines = rowsTitled(title);
      expect(lines).toHaveLength(1);
      expect(cellAt(lines[0] as number, 'id')).toBe(service.find((row) => row.title === title)?.id);
    }
    await editedLinesSettled(edited);
    await settlesOnce(edited, added);
  });

  it('an id cell retyped while the edits are sent: that line gets nothing of the push, the others do', async () => {
    const { edited, added } = editAndAdd('retyped');
    const [retypedId] = [...edited.keys()] as [string];
    const row = rowsById().get(retypedId) as number;
    const before = [cellAt(row, 'lMod'), cellAt(row, '_sync')];
    onceWhileSending('PATCH', () => w.sim.person.edit(sheet, row, 'id', 'r_typed_over'));
    expect(pushSheet(w)).toMatchObject({ ok: true, updated: EDITED_ROWS.length });
    expect([cellAt(row, 'id'), cellAt(row, 'lMod'), cellAt(row, '_sync')]).toEqual([
      'r_typed_over',
      ...before,
    ]);
    await editedLinesSettled(edited, [retypedId]);
    // The pull puts the id back (an id cell is the service's).
    expect(pullSheet(w).ok).toBe(true);
    expect(cellAt(row, 'id')).toBe(retypedId);
    await settlesOnce(edited, added);
  });

  it('the new lines deleted while they are created: the push ends well and each row comes back once', async () => {
    const { edited, added } = editAndAdd('deleted');
    const first = rowsTitled(added[0] as string)[0] as number;
    const deleted = onceWhileSending('POST', () => {
      // The sheet now ends above the rows the write-back reads from.
      w.sim.person.deleteRows(sheet, first, NEW_LINES);
    });
    expect(pushSheet(w)).toMatchObject({ ok: true, updated: EDITED_ROWS.length });
    expect(deleted()).toBe(1);
    const service = await w.serviceRows(CRM, LARGE);
    for (const title of added) {
      expect(service.filter((row) => row.title === title)).toHaveLength(1);
      expect(rowsTitled(title)).toEqual([]);
    }
    await editedLinesSettled(edited);
    // The pull brings the created rows in as lines, each once.
    expect(pullSheet(w).ok).toBe(true);
    await settlesOnce(edited, added);
  });
});
