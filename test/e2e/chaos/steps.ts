// The random steps of a chaos scenario under faults: the person's edits, bob's edits on the service,
// syncs and scheduled runs, and (with `shared`) the shared-sheet steps of issue 14.
import type { JsonValue } from '../../../emulators/table-service';
import { CELL_LIMIT, EDITABLE, type Line } from './person-actions';
import { resolve, runSync, scheduledRuns, typeOverServiceChange, visibleConflicts } from './runs';
import { APP, type Chaos, serviceTable, TABLE, trace } from './setup';
import { changeSettings, queueCreateAnswer, relink, touchBaseSheet, undoBaseTouch } from './team';

const STEPS_MIN = 16;
const STEPS_MAX = 34;

/** Turns the faults on and runs 16 to 34 steps. */
export async function runSteps(chaos: Chaos): Promise<void> {
  const { admin, r } = chaos;
  await admin.clearLog();
  await admin.setFaults({ errorRate: 0.1, dropAfterCommitRate: 0.02, latencyMs: 0, jitterMs: 25 });
  const steps = STEPS_MIN + r.int(STEPS_MAX - STEPS_MIN + 1);
  if (chaos.options.shared) await teamOpening(chaos);
  for (let step = 0; step < steps; step++) {
    chaos.figures.operations++;
    // An unlinked sheet is linked again a few steps later.
    if (!chaos.team.expected.linked && r.next() < 0.35) await relink(chaos);
    if (chaos.options.shared && r.next() < 0.25) await sharedStep(chaos, step);
    else if (chaos.options.shared && r.next() < 0.12) await teamStep(chaos, step);
    else await plainStep(chaos, step);
  }
}

/** A step of any scenario: a person's edit, bob's edit, a run, or resolving what shows a conflict. */
async function plainStep(chaos: Chaos, step: number): Promise<void> {
  const { r, person } = chaos;
  const roll = r.next();
  const current = person.lines();
  if (r.next() < 0.1) await queueRateLimit(chaos);
  if (chaos.options.platform && r.next() < 0.15) await otherClientBurst(chaos);
  const kill = r.next() < 0.3 ? 1 + r.int(140) : undefined;
  if (roll < 0.3 && current.length > 0) person.editCell(step);
  else if (roll < 0.38) person.addLine(step);
  else if (roll < 0.43 && current.length > 1) person.sortLines();
  else if (roll < 0.47 && person.ownColumns < 3) person.addOwnColumn();
  else if (roll < 0.5 && current.length > 1) person.deleteLine();
  else if (roll < 0.55 && current.some((line) => line.id !== '')) await bothChange(chaos, current, step);
  else if (roll < 0.62) await bobEdits(chaos, step);
  else if (roll < 0.72) runSync(chaos, 'pullActiveSheet', step, kill);
  else if (roll < 0.82) runSync(chaos, 'pushActiveSheet', step, kill);
  else if (roll < 0.9) runSync(chaos, 'syncActiveSheet', step, kill);
  else if (roll < 0.95) scheduledRuns(chaos, step);
  else if (visibleConflicts(person).size > 0) resolve(chaos, step, kill);
}

/** Marks the requests of another client of the person's key in the emulator's log. */
export const OTHER_CLIENT_HEADER = 'x-chaos-other-client';

/**
 * Platform mode: another client of the person's key (another spreadsheet, a script) sends 30 to 60
 * requests now, filling the service's minute window where the add-on's pace cannot see it.
 */
async function otherClientBurst(chaos: Chaos): Promise<void> {
  const count = 30 + chaos.r.int(31);
  const { url, key } = chaos.service;
  for (let i = 0; i < count; i++) {
    const answer = await fetch(`${url}/api/public/user/me`, {
      headers: { auth: key, [OTHER_CLIENT_HEADER]: '1' },
    });
    await answer.arrayBuffer();
  }
  chaos.figures.otherClientBursts++;
  trace(chaos, `another client of the key sent ${count} requests`);
}

/** About 5% of requests are answered 429 with Retry-After: 1 (queued at a random kind of request). */
async function queueRateLimit(chaos: Chaos): Promise<void> {
  await chaos.admin.queueAnswers([
    {
      match: { method: chaos.r.pick(['GET', 'GET', 'PATCH', 'POST']) },
      status: 429,
      headers: { 'retry-after': '1', 'content-type': 'application/json' },
      body: '{"error":{"code":"rate_limited","message":"Too many requests; retry after 1 s."}}',
    },
  ]);
}

/** The same cell changed here and on the service before any sync: both-changed is a conflict. */
async function bothChange(chaos: Chaos, current: Line[], step: number): Promise<void> {
  const { r, person, figures } = chaos;
  const line = r.pick(current.filter((each) => each.id !== ''));
  const rowId = person.trueIds.get(line.title) ?? line.id;
  const column = r.pick(['status', 'amount', 'notes'] as const);
  const col = person.colOf(column);
  const mine = person.valueFor(column, step);
  if (col) {
    person.act(`person ${line.title} ${column}=${JSON.stringify(mine)} (bob too)`, () =>
      chaos.sheet.getRange(line.row, col).setValue(mine),
    );
  }
  const theirs = person.valueFor(column, 2000 + step);
  if (!col) {
    // The column's header is gone, so the person typed nothing: bob's is a plain service edit, and a
    // value the person gave this cell that already reached the service is superseded by it, as in
    // bobEdits (platform chaos seed 20240145).
    const row = ((await serviceTable(chaos.admin))?.rows ?? []).find((each) => each.id === rowId);
    const onService = (row as unknown as Record<string, JsonValue> | undefined)?.[column];
    const typed = person.typed.get(line.title);
    if (typed?.has(column) && JSON.stringify(typed.get(column)) === JSON.stringify(onService ?? null)) {
      typed.delete(column);
      figures.supersededByService++;
    }
  }
  const afterSeq = await lastSeq(chaos);
  await chaos.admin.editRow(APP, TABLE, rowId, { [column]: theirs }, 'u_bob');
  chaos.watch.bobSet(rowId, line.title, column, theirs, afterSeq);
  person.sawOnService(line.title, column, theirs);
  if (col) person.contested.set(`${line.title}\u0000${column}`, theirs);
  figures.personEdits++;
  figures.serviceEdits++;
  figures.contestedCells++;
}

/** Bob edits a row on the service. */
async function bobEdits(chaos: Chaos, step: number, onLines = false): Promise<void> {
  const columns = onLines ? EDITABLE.filter((column) => column !== 'won') : EDITABLE;
  const { r, person, figures } = chaos;
  // `onLines`: only rows the sheet shows (a row bob added is not on a line before a pull).
  const shown = new Set(person.lines().map((line) => line.title));
  const rows = ((await serviceTable(chaos.admin))?.rows ?? []).filter(
    (row) => !onLines || shown.has(String(row.title)),
  );
  if (rows.length === 0) return;
  // Half of bob's edits go to rows the person has touched, so conflicts happen.
  const touched = rows.filter((row) => person.typed.has(String((row as unknown as { title: string }).title)));
  const row = r.pick(touched.length > 0 && r.next() < 0.7 ? touched : rows) as unknown as {
    id: string;
  };
  const column = r.pick(columns);
  // A person's edit that already reached the service is not lost when bob later changes it:
  // that is a newer edit, and the next pull rightly brings it in.
  const title = String((row as unknown as { title: string }).title);
  const mine = person.typed.get(title);
  const onService = (row as unknown as Record<string, JsonValue>)[column];
  if (mine?.has(column) && JSON.stringify(mine.get(column)) === JSON.stringify(onService ?? null)) {
    mine.delete(column);
    figures.supersededByService++;
  }
  person.contested.delete(`${title}\u0000${column}`);
  const bobValue = person.valueFor(column, 1000 + step);
  const afterSeq = await lastSeq(chaos);
  await chaos.admin.editRow(APP, TABLE, row.id, { [column]: bobValue }, 'u_bob');
  // Setting the value a cell already holds (a checkbox left false) changes no value: a three-way
  // merge rightly sends the person's edit over it (platform chaos seed 20240154).
  if (JSON.stringify(bobValue) !== JSON.stringify(onService ?? null))
    chaos.watch.bobSet(row.id, title, column, bobValue, afterSeq);
  person.sawOnService(title, column, bobValue);
  trace(chaos, `bob ${title} ${column}=${JSON.stringify(bobValue)}`);
  figures.serviceEdits++;
}

/** A step of the shared sheet (issue 14): structure changes, range sorts, over-long values. */
async function sharedStep(chaos: Chaos, step: number): Promise<void> {
  const { r, person } = chaos;
  const roll = r.next();
  if (roll < 0.22) person.rangeSort();
  else if (roll < 0.34) {
    if (person.renamed.size + person.cleared.length > 0 && r.next() < 0.6) person.restoreHeaders();
    else person.renameHeader();
  } else if (roll < 0.42) person.deleteColumn();
  else if (roll < 0.54) person.moveColumn();
  else if (roll < 0.68) person.clearStatus();
  else if (roll < 0.8) await bobMakesMetaOverLong(chaos, step);
  else person.editMeta(step);
}

/** Bob makes a row's meta longer than a cell holds (a row whose meta the person never typed). */
async function bobMakesMetaOverLong(chaos: Chaos, step: number): Promise<void> {
  const { r, person, figures } = chaos;
  const rows = (await serviceTable(chaos.admin))?.rows ?? [];
  const free = rows.filter((row) => !person.typed.get(String(row.title))?.has('meta'));
  if (free.length === 0) return;
  const row = r.pick(free);
  const meta = { long: 'z'.repeat(CELL_LIMIT + 1 + r.int(10_000)), step };
  await chaos.admin.editRow(APP, TABLE, row.id, { meta }, 'u_bob');
  person.overLong.set(row.id, meta);
  trace(chaos, `bob makes ${row.title} meta over-long`);
  figures.overLongValues++;
  figures.serviceEdits++;
}

/** The number of the last request the service logged (0 when none since the log was cleared). */
async function lastSeq(chaos: Chaos): Promise<number> {
  return (await chaos.admin.requestLog()).at(-1)?.seq ?? 0;
}

/** The kinds of team step, each drawn at random or (in a scenario's opening) chosen by its seed. */
const TEAM_KINDS = ['settings', 'ids', 'createAnswer', 'checkboxes', 'baseSheet', 'unlink'] as const;

/**
 * A step of the team (issue 24): a setting changed between runs (or the sheet unlinked), id cells typed
 * over, swapped or sorted alone (put back later, as the line's status asks), the next create answered
 * as a failure after the service committed it, unticked checkboxes inserted over empty lines, the
 * hidden base sheet touched.
 */
async function teamStep(chaos: Chaos, step: number, kind?: (typeof TEAM_KINDS)[number]): Promise<void> {
  const { r, person, team } = chaos;
  const roll = r.next();
  const chosen =
    kind ??
    (roll < 0.25
      ? 'settings'
      : roll < 0.45
        ? 'ids'
        : roll < 0.65
          ? 'createAnswer'
          : roll < 0.8
            ? 'checkboxes'
            : 'baseSheet');
  if (chosen === 'settings' || chosen === 'unlink') changeSettings(chaos, false, chosen === 'unlink');
  else if (chosen === 'ids') {
    if (person.trueIds.size > 0 && r.next() < 0.4) person.restoreIds();
    else r.pick([() => person.editId(step), () => person.swapIds(), () => person.sortIds()])();
  } else if (chosen === 'createAnswer') {
    await queueCreateAnswer(chaos);
    person.addLine(step);
    runSync(chaos, r.pick(['pushActiveSheet', 'syncActiveSheet']), step);
  } else if (chosen === 'checkboxes') person.insertCheckboxes();
  else {
    touchBaseSheet(chaos);
    runSync(chaos, r.pick(['pullActiveSheet', 'pushActiveSheet', 'syncActiveSheet']), step);
    if (team.touchedBase) undoBaseTouch(chaos);
  }
}

/**
 * The team's opening (with `shared`), so that even a handful of scenarios plays each team action: bob
 * changes a row, a member pulls and a person types into that cell while the pull waits for its page
 * wave; then one team step of the kind the seed picks.
 */
async function teamOpening(chaos: Chaos): Promise<void> {
  const { sim, person, r } = chaos;
  // In a fifth of the scenarios bob adds a page of rows first: the pull, planned for the rows it knew,
  // needs a second page wave, and the typing happens after it read the lines.
  const multiWave = r.next() < BULK_SHARE;
  if (multiWave) await bobAddsPage(chaos);
  await bobEdits(chaos, 0, true);
  const cancel = sim.person.at({ on: 'fetchAll', nth: multiWave ? 2 : 1 }, () => {
    typeOverServiceChange(chaos, 0);
    if (multiWave) chaos.figures.typedDuringMultiWavePulls++;
  });
  runSync(chaos, 'pullActiveSheet', -1);
  cancel();
  person.trace('the team opening');
  await teamStep(chaos, 0, TEAM_KINDS[chaos.seed % TEAM_KINDS.length]);
}

/** Scenarios whose opening pull is a multi-wave one (bob adds a page of rows first). */
const BULK_SHARE = 1 / 5;
/** Rows bob adds: more than a page, so a pull planned for the rows it knew needs a second wave. */
const BULK_ROWS = 110;

/** Bob adds a page of rows on the service (each with a unique title, as every line has). */
async function bobAddsPage(chaos: Chaos): Promise<void> {
  const { person, r } = chaos;
  for (let i = 0; i < BULK_ROWS; i++) {
    const values = { title: `bulk-${chaos.seed}-${i}`, status: `b${i}`, amount: r.int(1000) };
    await chaos.admin.createRow(APP, TABLE, values, 'u_bob');
    // The columns not given start empty on the service: a sort that moves an empty cell back is no edit.
    const created: Record<string, unknown> = values;
    for (const column of person.synced)
      person.sawOnService(values.title, column, (created[column] ?? null) as JsonValue);
  }
  chaos.figures.serviceEdits += BULK_ROWS;
  trace(chaos, `bob adds ${BULK_ROWS} rows`);
}
