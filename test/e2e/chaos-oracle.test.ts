// The chaos oracle's "0 unintended writes" check: person actions record intents by diff; writes are judged against them.
import { describe, expect, it } from 'vitest';
import { createSimulator } from '../../emulators/apps-script';
import type { RequestLogEntry } from '../../emulators/table-service';
import { createRng } from '../../emulators/table-service/rng';
import { ChaosPerson, newPersonFigures } from './chaos/person-actions';
import { unintendedWrites } from './chaos/scenario';

function setup() {
  const sim = createSimulator({ code: 'function noop() {}', countRealTime: false });
  const sheet = sim.spreadsheet.getActiveSheet();
  sheet.getRange(1, 1, 4, 5).setValues([
    ['id', 'title', 'status', 'amount', '_sync'],
    ['r1', 'One', 'open', 10, '✓ pulled'],
    ['r2', 'Two', 'won', 20, '✓ pulled'],
    ['r3', 'Three', 'lost', 30, '✓ pulled'],
  ]);
  const person = new ChaosPerson(
    sim,
    sheet,
    createRng(1),
    1,
    ['title', 'status', 'amount'],
    newPersonFigures(),
    () => {},
  );
  return { sim, sheet, person };
}

const write = (method: string, path: string, body: unknown, status = 200): RequestLogEntry => ({
  seq: 1,
  at: '',
  method,
  path,
  query: {},
  rawQuery: '',
  headers: {},
  body: JSON.stringify(body),
  bodyBytes: 0,
  status,
  dropped: false,
  durationMs: 0,
});
const rows = [
  { id: 'r1', title: 'One' },
  { id: 'r2', title: 'Two' },
  { id: 'r3', title: 'Three' },
  { id: 'r9', title: 'chaos-1-L1' },
];
const ROWS = '/v1/tableApps/ta_crm/tables/tbl_deals/rows';

describe('0 unintended writes', () => {
  it('a typed cell may be sent; other rows, columns and values may not', () => {
    const { sheet, person } = setup();
    person.act('type', () => sheet.getRange(2, 3).setValue('mine'));
    expect(unintendedWrites([write('PATCH', `${ROWS}/r1`, { status: 'mine' })], person, rows)).toEqual([]);
    expect(unintendedWrites([write('PATCH', `${ROWS}/r1`, { amount: null })], person, rows)).toHaveLength(1);
    expect(unintendedWrites([write('PATCH', `${ROWS}/r2`, { status: 'mine' })], person, rows)).toHaveLength(
      1,
    );
    expect(unintendedWrites([write('PATCH', `${ROWS}/r1`, { status: 'other' })], person, rows)).toHaveLength(
      1,
    );
    expect(unintendedWrites([write('DELETE', `${ROWS}/r1`, {})], person, rows)).toHaveLength(1);
    // A refused request changed nothing.
    expect(unintendedWrites([write('PATCH', `${ROWS}/r2`, { status: 'x' }, 409)], person, rows)).toEqual([]);
  });

  it('a header rename, a whole-line sort and a status clear intend no write; a range sort does', () => {
    const { sim, sheet, person } = setup();
    person.act('rename', () => sheet.getRange(1, 3).setValue('My status'));
    person.act('sort lines', () => sheet.getRange(2, 1, 3, 5).sort({ column: 4, ascending: false }));
    person.act('clear', () => sheet.getRange(2, 5).clearContent());
    expect(unintendedWrites([write('PATCH', `${ROWS}/r1`, { status: null })], person, rows)).toHaveLength(1);
    person.act('restore', () => sheet.getRange(1, 3).setValue('status'));
    person.act('range sort', () => sim.person.sortRange(sheet, 'D2:D4', 4, true));
    // Amounts were 30, 20, 10 top to bottom (r3, r2, r1); sorted ascending, r3 now holds 10 and r1 30.
    expect(
      unintendedWrites(
        [write('PATCH', `${ROWS}/r3`, { amount: 10 }), write('PATCH', `${ROWS}/r1`, { amount: 30 })],
        person,
        rows,
      ),
    ).toEqual([]);
    expect(unintendedWrites([write('PATCH', `${ROWS}/r2`, { amount: 10 })], person, rows)).toHaveLength(1);
  });

  it('a new line may be created once it is the person’s, and edits before it had an id follow it', () => {
    const { sheet, person } = setup();
    person.act('add', () => sheet.getRange(5, 2, 1, 3).setValues([['chaos-1-L1', 'new', 5]]));
    person.createdMarkers.add('chaos-1-L1');
    expect(
      unintendedWrites([write('POST', ROWS, { title: 'chaos-1-L1', status: 'new' })], person, rows),
    ).toEqual([]);
    expect(unintendedWrites([write('POST', ROWS, { status: 'new' })], person, rows)).toHaveLength(1);
    person.act('correct', () => sheet.getRange(5, 4).setValue(42));
    expect(unintendedWrites([write('PATCH', `${ROWS}/r9`, { amount: 42 })], person, rows)).toEqual([]);
  });
});
