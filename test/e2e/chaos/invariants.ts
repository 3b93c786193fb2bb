// The chaos oracle, once the scenario has settled: sheet = service, no line created twice, no lost
// edit, both-changed cells shown, the person's own cells kept, over-long values whole, no unintended write.
import type { JsonValue, RequestLogEntry } from '../../../emulators/table-service';
import { CELL_LIMIT, cellAgrees, type Line } from './person-actions';
import { type Chaos, serviceTable } from './setup';
import { unintendedWrites } from './unintended-writes';

type ServiceRow = Record<string, JsonValue>;

/** One scenario's outcome. */
export interface ScenarioOutcome {
  /** Invariants broken, other than on lines created twice. */
  violations: string[];
  /** Lines created twice and everything found wrong on them. */
  duplicated: string[];
  /** Writes that reached the service without a person's edit of that row and column. */
  unintended: string[];
}

/** Checks every invariant; `allWrites` are the write requests the service received. */
export async function checkInvariants(chaos: Chaos, allWrites: RequestLogEntry[]): Promise<ScenarioOutcome> {
  const { person, figures, violations } = chaos;
  const table = await serviceTable(chaos.admin);
  const serviceRows = (table?.rows ?? []) as unknown as ServiceRow[];
  const liveIds = (table?.columns ?? []).filter((c) => !c.deleted).map((c) => c.id);
  const final = person.lines();
  // 1. The service and the sheet agree on every cell of every row.
  checkSheetEqualsService(chaos, final, serviceRows, liveIds);
  // 2. No line was created twice.
  const duplicatedTitles = checkCreatedOnce(chaos, serviceRows);
  // 3. No person's edit was lost: the last typed value is on the service unless resolved as theirs.
  const byTitle = new Map<string, ServiceRow>();
  for (const row of serviceRows) byTitle.set(String(row.title), row);
  checkNoLostEdit(chaos, byTitle, duplicatedTitles);
  // 4. Both-changed cells were shown as conflicts.
  if (chaos.decision === 'theirs') checkTheirsStand(chaos, byTitle);
  // 5. The person's own cells stayed on their line.
  checkOwnCells(chaos, final);
  // 6. Over-long values stay whole on the service (no push sends a cut value).
  for (const [id, value] of person.overLong) {
    const row = serviceRows.find((each) => each.id === id);
    if (row && JSON.stringify(row.meta) !== JSON.stringify(value))
      violations.push(`row ${id} (${row.title}): its over-long meta was overwritten`);
  }
  // 7. A line the person deleted is held for review: never deleted on the service, never added back.
  checkDeletedLinesHeld(chaos, serviceRows, allWrites);
  // 8. No unintended writes: every write carries a person's edit of that row and column.
  const unintended = unintendedWrites(allWrites, person, serviceRows);
  figures.unintendedWrites += unintended.length;
  // 8. No value bob set was overwritten from the sheet without a conflict (issue 24).
  const titleOf = new Map(serviceRows.map((row) => [String(row.id), String(row.title)]));
  const overwritten = chaos.watch.overwritten(chaos, allWrites, titleOf);
  figures.overwrittenWithoutConflict += overwritten.length;
  violations.push(...overwritten.map((text) => `service change overwritten without a conflict: ${text}`));
  const onDuplicates = (text: string): boolean => [...duplicatedTitles].some((title) => text.includes(title));
  return {
    violations: violations.filter((v) => !onDuplicates(v)),
    duplicated: violations.filter(onDuplicates),
    unintended,
  };
}

/** Every service row is on exactly one line with its values, every line has a row, each header once. */
function checkSheetEqualsService(chaos: Chaos, final: Line[], serviceRows: ServiceRow[], liveIds: string[]) {
  const { violations } = chaos;
  const byId = new Map<string, Line[]>();
  for (const line of final) {
    if (line.id === '') {
      // An unticked checkbox alone (Insert › Checkbox over empty lines) is no line to create.
      const hasData = liveIds.some(
        (c) =>
          line.cells[c] !== '' && line.cells[c] !== undefined && !(c === 'won' && line.cells[c] === false),
      );
      if (hasData) violations.push(`line ${line.row} (${line.title}) was never created: ${line.status}`);
      continue;
    }
    byId.set(line.id, [...(byId.get(line.id) ?? []), line]);
    if (line.status.startsWith('⚠') || line.status.startsWith('✖') || line.status.startsWith('⏳'))
      violations.push(`line ${line.row} (${line.title}) still shows: ${line.status}`);
  }
  const headersNow = chaos.person.headers();
  for (const column of liveIds)
    if (headersNow.filter((h) => h === column).length !== 1)
      violations.push(`header ${column} is not there once`);
  for (const row of serviceRows) {
    const on = byId.get(String(row.id)) ?? [];
    // The line the person deleted stays gone: its row waits for review (checkDeletedLinesHeld).
    if (on.length === 0 && chaos.person.deletedIds.has(String(row.id))) continue;
    if (on.length !== 1) {
      violations.push(`service row ${row.id} (${row.title}) is on ${on.length} lines`);
      continue;
    }
    checkLineHoldsRow(chaos, on[0] as Line, row, liveIds);
    byId.delete(String(row.id));
  }
  for (const [id] of byId) violations.push(`line with id ${id} has no service row`);
}

/**
 * The rows of lines the person deleted: no DELETE reached the service (nobody approved one), and each
 * row still on the service is listed by the review of missing lines, with no line in the sheet.
 */
function checkDeletedLinesHeld(chaos: Chaos, serviceRows: ServiceRow[], allWrites: RequestLogEntry[]): void {
  const { person, violations } = chaos;
  for (const write of allWrites)
    if (write.method === 'DELETE') violations.push(`a row was deleted without approval: ${write.path}`);
  const held = serviceRows.map((row) => String(row.id)).filter((id) => person.deletedIds.has(id));
  if (held.length === 0) return;
  let result = chaos.sim.callFromClient('getMissingRowsReview', []);
  // Under the platform's limits a review may have to wait for the service: the person opens it again.
  for (
    let tries = 0;
    !result.ok && /limits how many requests/.test(result.error?.message ?? '') && tries < 3;
    tries++
  ) {
    chaos.sim.advanceAndFire(61_000);
    result = chaos.sim.callFromClient('getMissingRowsReview', []);
  }
  const reviewed = new Set(
    result.ok ? (result.value as { rows: Array<{ rowId: string }> }).rows.map((row) => row.rowId) : [],
  );
  if (!result.ok) violations.push(`the review of missing lines failed: ${result.error?.message}`);
  for (const id of held)
    if (!reviewed.has(id)) violations.push(`row ${id}: its deleted line is not held for review`);
  chaos.figures.heldForReview += held.length;
}

/** A line shows its service row's values (an over-long one as a marked prefix) and its lMod. */
function checkLineHoldsRow(chaos: Chaos, line: Line, row: ServiceRow, liveIds: string[]): void {
  const { violations } = chaos;
  for (const column of liveIds) {
    const value = row[column];
    const text = value !== null && typeof value === 'object' ? JSON.stringify(value) : undefined;
    if (text !== undefined && text.length > CELL_LIMIT) {
      // Over-long: the cell shows a marked prefix of it.
      const cell = String(line.cells[column] ?? '');
      if (cell.length > CELL_LIMIT || !cell.includes(text.slice(0, 100)))
        violations.push(`row ${row.id} ${column}: the over-long value is not shown as its prefix`);
      continue;
    }
    if (!cellAgrees(line.cells[column], value)) {
      violations.push(
        `row ${row.id} (${row.title}) ${column}: sheet ${JSON.stringify(line.cells[column])} vs service ${JSON.stringify(value)}`,
      );
    }
  }
  if (String(line.cells.lMod) !== String(row.lMod)) violations.push(`row ${row.id}: lMod differs`);
}

/** Each line the person added is one service row (none if deleted); returns the titles created twice. */
function checkCreatedOnce(chaos: Chaos, serviceRows: ServiceRow[]): Set<string> {
  const { person, figures, violations } = chaos;
  const duplicatedTitles = new Set<string>();
  for (const marker of person.createdMarkers) {
    const count = serviceRows.filter((row) => row.title === marker).length;
    if (count > 1) {
      figures.duplicates++;
      duplicatedTitles.add(marker);
      violations.push(`${marker} was created ${count} times`);
    } else if (count === 0 && !person.deletedMarkers.has(marker)) {
      violations.push(`${marker} was never created`);
    } else if (count === 1) figures.createdLines++;
  }
  return duplicatedTitles;
}

/** The last value the person typed in a cell is on the service, unless a sort put back a former one. */
function checkNoLostEdit(
  chaos: Chaos,
  byTitle: Map<string, ServiceRow>,
  duplicatedTitles: Set<string>,
): void {
  const { person, figures, violations } = chaos;
  for (const [title, columns] of person.typed) {
    const row = byTitle.get(title);
    for (const [column, value] of columns) {
      const actual = row?.[column];
      if (JSON.stringify(actual ?? null) === JSON.stringify(value)) continue;
      if (person.sortedBackToBase(title, column, value)) {
        // The person's last value is a value this row held on the service (a sort moved it back):
        // to the sync that is no edit, and a newer service value rightly stands.
        figures.sortedBackToBase++;
        continue;
      }
      if (duplicatedTitles.has(title)) figures.lostEditsOnDuplicatedLines++;
      else figures.lostEdits++;
      violations.push(
        `lost edit: ${title} ${column} typed ${JSON.stringify(value)}, service has ${JSON.stringify(actual)}`,
      );
    }
  }
}

/**
 * With 'theirs' chosen, bob's value stands in every both-changed cell (had the person's value won, it
 * would have overwritten the service blindly, without a visible conflict).
 */
function checkTheirsStand(chaos: Chaos, byTitle: Map<string, ServiceRow>): void {
  for (const [key, theirs] of chaos.person.contested) {
    const [title, column] = key.split('\u0000') as [string, string];
    const actual = byTitle.get(title)?.[column];
    if (JSON.stringify(actual ?? null) !== JSON.stringify(theirs)) {
      chaos.violations.push(
        `${title} ${column}: changed on both sides, 'theirs' chosen, but the service has ${JSON.stringify(actual)} instead of ${JSON.stringify(theirs)} (conflict not shown?)`,
      );
    }
  }
}

/** Formulas, notes and values in the person's own columns are still on their line. */
function checkOwnCells(chaos: Chaos, final: Line[]): void {
  const { person, violations } = chaos;
  const finalHeaders = person.headers();
  for (const line of final) {
    const memo = person.ownCells.get(line.title);
    if (!memo) continue;
    for (const [header, want] of memo) {
      const col = finalHeaders.indexOf(header) + 1;
      if (col === 0) {
        violations.push(`own column ${header} is gone`);
        continue;
      }
      const cell = chaos.sheet.getRange(line.row, col);
      if (want.formula !== undefined && cell.getFormula() !== want.formula)
        violations.push(`${line.title} ${header}: formula ${cell.getFormula()} instead of ${want.formula}`);
      if (want.note !== undefined && cell.getNote() !== want.note)
        violations.push(`${line.title} ${header}: note moved`);
      if (want.value !== undefined && cell.getValue() !== want.value)
        violations.push(`${line.title} ${header}: ${String(cell.getValue())} instead of ${want.value}`);
    }
  }
}
