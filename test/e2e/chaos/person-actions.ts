// The chaos person: what they do to the shared sheet (between runs and while a run waits), and the
// oracle's memory of it: the last value they gave each cell, and every cell value they produced.
import type { AppsScriptSimulator } from '../../../emulators/apps-script';
import type { JsonValue } from '../../../emulators/table-service';
import type { Rng } from '../../../emulators/table-service/rng';

/** Columns the person and bob edit (title is the line's marker and is never changed by the person). */
export const EDITABLE = ['status', 'amount', 'won', 'notes'] as const;
export type Editable = (typeof EDITABLE)[number];
/** A cell can hold at most this many characters; longer service values show marked and read-only. */
export const CELL_LIMIT = 50_000;

type Sheet = ReturnType<AppsScriptSimulator['spreadsheet']['getActiveSheet']>;

export interface Line {
  row: number;
  title: string;
  id: string;
  status: string;
  cells: Record<string, unknown>;
}

/** Counts of what the person did, for the suite's figures. */
export interface PersonFigures {
  personEdits: number;
  rangeSorts: number;
  headerRenames: number;
  columnDeletes: number;
  columnMoves: number;
  statusClears: number;
  overLongValues: number;
  overLongCellEdits: number;
  linesInsertedDuringRuns: number;
  linesDeletedDuringRuns: number;
  actionsDuringRuns: number;
  /** Id cells typed over, swapped, or sorted alone (issue 24's team actions). */
  idEdits: number;
  idSwaps: number;
  idSorts: number;
  /** Unticked checkboxes inserted down the `won` column over empty lines. */
  checkboxLines: number;
}

export function newPersonFigures(): PersonFigures {
  return {
    personEdits: 0,
    rangeSorts: 0,
    headerRenames: 0,
    columnDeletes: 0,
    columnMoves: 0,
    statusClears: 0,
    overLongValues: 0,
    overLongCellEdits: 0,
    linesInsertedDuringRuns: 0,
    linesDeletedDuringRuns: 0,
    actionsDuringRuns: 0,
    idEdits: 0,
    idSwaps: 0,
    idSorts: 0,
    checkboxLines: 0,
  };
}

/** What a sheet cell must hold for a service value (any column kind): '' for null, JSON text for objects. */
export function cellAgrees(cell: unknown, value: unknown): boolean {
  if (value === null || value === undefined) return cell === '' || cell === undefined;
  if (typeof value === 'string') return cell === value;
  if (typeof value === 'number' || typeof value === 'boolean') {
    if (cell === value) return true;
    return typeof cell === 'string' && cell === JSON.stringify(value);
  }
  if (typeof cell !== 'string') return false;
  // A list of texts may show as its choices separated by commas (a multi-select column).
  if (Array.isArray(value) && !/^\s*[[{"]/.test(cell)) {
    const choices = cell
      .split(',')
      .map((choice) => choice.trim())
      .filter((choice) => choice !== '');
    return JSON.stringify(choices) === JSON.stringify(value);
  }
  try {
    return JSON.stringify(JSON.parse(cell)) === JSON.stringify(value);
  } catch {
    return false;
  }
}

/** The service value a person means by a cell of a column ('' is null; JSON columns hold JSON text). */
function cellToJson(column: string, cell: unknown): JsonValue {
  if (cell === '' || cell === undefined || cell === null) return null;
  if (column === 'meta' && typeof cell === 'string') {
    try {
      return JSON.parse(cell) as JsonValue;
    } catch {
      return cell;
    }
  }
  return cell as JsonValue;
}

/**
 * The person and the oracle's memory. Every action goes through `act`, which diffs the synced cells
 * of every line (by row id, or by title for lines not yet created) before and after, so whatever the
 * person changed — typing, a range sort, a fill — is recorded as their intent, and nothing else is.
 */
export class ChaosPerson {
  /** Last value the person gave per line (by title) and column: must end on the service. */
  readonly typed = new Map<string, Map<string, JsonValue>>();
  /** Every value the person produced per line key (`id:` or `t:`) and column: what a write may carry. */
  readonly intents = new Map<string, Map<string, unknown[]>>();
  /** Cells changed by the person and by bob before any sync: a conflict the person must see. */
  readonly contested = new Map<string, JsonValue>();
  readonly ownCells = new Map<string, Map<string, { formula?: string; note?: string; value?: string }>>();
  readonly createdMarkers = new Set<string>();
  readonly deletedMarkers = new Set<string>();
  /** Row ids of the lines the person deleted: held for review (never deleted, never added back). */
  readonly deletedIds = new Set<string>();
  /** Renamed synced headers, new name -> column id (restored as the run asks, at the latest before settling). */
  readonly renamed = new Map<string, string>();
  /** Synced headers the person cleared (retyped into the first empty header cell when restoring). */
  readonly cleared: string[] = [];
  /** What each cleared header's column held, by line title, when the header was cleared. */
  private readonly clearedCells = new Map<string, Map<string, unknown>>();
  /** Row ids whose meta bob made longer than a cell holds, with that value (read-only in the sheet). */
  readonly overLong = new Map<string, JsonValue>();
  /**
   * Values each row's cell held on the service as pulled or set by bob (by title and column): a base
   * the sync may hold. A range sort that moves such a value back into its row is no edit to the sync.
   */
  readonly serviceHistory = new Map<string, string[]>();
  /** Cells (title and column) whose last value a range sort moved in. */
  private readonly movedBySort = new Set<string>();
  ownColumns = 0;
  lineCounter = 0;
  /**
   * The true row id of each line (by title) whose id cell the person typed over, swapped or sorted:
   * the oracle keys that line by it, so the other row's id shown in the cell intends nothing for it.
   */
  readonly trueIds = new Map<string, string>();
  /** The oracle's clock: one tick per person action (and per look at the sheet after a run). */
  tick = 0;
  /** When the person gave each cell (title and column) each value, in ticks. */
  readonly typedTicks = new Map<string, Array<{ value: unknown; tick: number }>>();
  /** Called before every action (the team's look at the sheet: which service values it showed). */
  beforeAct: (() => void) | undefined;

  constructor(
    readonly sim: AppsScriptSimulator,
    readonly sheet: Sheet,
    readonly r: Rng,
    readonly seed: number,
    /** The table's live column ids (what a write may name). */
    readonly synced: readonly string[],
    readonly figures: PersonFigures,
    readonly trace: (what: string) => void,
  ) {}

  headers(): string[] {
    return (
      this.sheet.getRange(1, 1, 1, Math.max(1, this.sheet.getLastColumn())).getValues()[0] as unknown[]
    ).map(String);
  }

  /** 1-based column of a header that appears exactly once, else 0. */
  colOf(header: string): number {
    const head = this.headers();
    const first = head.indexOf(header);
    return first >= 0 && head.lastIndexOf(header) === first ? first + 1 : 0;
  }

  lines(): Line[] {
    const head = this.headers();
    const last = this.sheet.getLastRow();
    if (last < 2) return [];
    const values = this.sheet.getRange(2, 1, last - 1, head.length).getValues() as unknown[][];
    return values.map((row, i) => {
      const cells: Record<string, unknown> = {};
      head.forEach((h, c) => {
        if (!(h in cells)) cells[h] = row[c];
      });
      return {
        row: i + 2,
        title: String(cells.title ?? ''),
        id: String(cells.id ?? ''),
        status: String(cells._sync ?? ''),
        cells,
      };
    });
  }

  /** Notes that a row's cell held `value` on the service (a possible base of the sync). */
  sawOnService(title: string, column: string, value: JsonValue | undefined): void {
    const key = `${title}\u0000${column}`;
    this.serviceHistory.set(key, [...(this.serviceHistory.get(key) ?? []), JSON.stringify(value ?? null)]);
  }

  /**
   * The person's last value came from a range sort and was once the row's service value: the sync may
   * rightly take it for "no edit" (it may equal its base) and let a newer service value stand.
   */
  sortedBackToBase(title: string, column: string, value: JsonValue): boolean {
    const key = `${title}\u0000${column}`;
    return (
      this.movedBySort.has(key) && (this.serviceHistory.get(key)?.includes(JSON.stringify(value)) ?? false)
    );
  }

  remember(title: string, column: string, value: JsonValue, bySort = false): void {
    this.contested.delete(`${title}\u0000${column}`);
    if (bySort) this.movedBySort.add(`${title}\u0000${column}`);
    else this.movedBySort.delete(`${title}\u0000${column}`);
    const map = this.typed.get(title) ?? new Map<string, JsonValue>();
    map.set(column, value);
    this.typed.set(title, map);
  }

  valueFor(column: Editable, n: number): JsonValue {
    switch (column) {
      case 'status':
        return `s${this.seed % 1000}-${n}`;
      case 'amount':
        return this.r.int(100000) + (this.r.next() < 0.3 ? 0.25 : 0);
      case 'won':
        return this.r.next() < 0.5;
      case 'notes':
        return `note ${this.seed}-${n}`;
    }
  }

  /** Synced cells per line key, for headers present exactly once. */
  private snapshot(): Map<string, { title: string; id: string; cells: Map<string, unknown> }> {
    const head = this.headers();
    const columns = this.synced.filter(
      (c) => head.indexOf(c) >= 0 && head.indexOf(c) === head.lastIndexOf(c),
    );
    const out = new Map<string, { title: string; id: string; cells: Map<string, unknown> }>();
    const seen = new Set<string>();
    for (const line of this.lines()) {
      const id = this.trueIds.get(line.title) ?? line.id;
      const key = id ? `id:${id}` : line.title ? `t:${line.title}` : '';
      if (!key) continue;
      if (seen.has(key)) {
        out.delete(key);
        continue;
      }
      seen.add(key);
      out.set(key, {
        title: line.title,
        id: line.id,
        cells: new Map(columns.map((c) => [c, line.cells[c]])),
      });
    }
    return out;
  }

  /** Runs a person action and records every synced cell it changed as the person's intent. */
  act(what: string, action: () => void, bySort = false): void {
    this.beforeAct?.();
    this.tick++;
    this.noteColumnsAddedBack();
    const before = this.snapshot();
    action();
    const after = this.snapshot();
    for (const [key, line] of after) {
      const old = before.get(key);
      for (const [column, value] of line.cells) {
        const was = old ? old.cells.get(column) : '';
        if (old && !old.cells.has(column)) continue;
        if (Object.is(was, value)) continue;
        if (column === 'meta' && line.id && this.overLong.has(line.id)) {
          // A marked prefix of an over-long value is read-only: its edit is never sent, never kept.
          this.figures.overLongCellEdits++;
          continue;
        }
        const map = this.intents.get(key) ?? new Map<string, unknown[]>();
        map.set(column, [...(map.get(column) ?? []), value]);
        this.intents.set(key, map);
        if (line.title) {
          const cellKey = `${line.title}\u0000${column}`;
          this.typedTicks.set(cellKey, [...(this.typedTicks.get(cellKey) ?? []), { value, tick: this.tick }]);
        }
        if (line.title && column !== 'title')
          this.remember(line.title, column, cellToJson(column, value), bySort);
      }
    }
    this.trace(what);
  }

  /** A person action chosen at random among the kinds a run may be interrupted by. */
  duringRun(step: number, shared: boolean): void {
    this.figures.actionsDuringRuns++;
    const kinds = shared
      ? [
          'edit',
          'edit',
          'rangeSort',
          'sortLines',
          'insertLine',
          'deleteLine',
          'clearStatus',
          'rename',
          'move',
        ]
      : ['edit'];
    const actions: Record<string, () => void> = {
      edit: () => this.editCell(step),
      rangeSort: () => this.rangeSort(),
      sortLines: () => this.sortLines(),
      insertLine: () => this.insertEmptyLine(),
      deleteLine: () => {
        this.figures.linesDeletedDuringRuns++;
        this.deleteLine();
      },
      clearStatus: () => this.clearStatus(),
      rename: () => this.renameHeader(),
      move: () => this.moveColumn(),
    };
    actions[this.r.pick(kinds)]?.();
  }

  // ---- the person's actions ----

  editCell(step: number): void {
    const current = this.lines().filter((line) => line.title !== '');
    if (current.length === 0) return;
    const line = this.r.pick(current);
    const column = this.r.pick(EDITABLE);
    const col = this.colOf(column);
    if (col === 0) return;
    const value = this.valueFor(column, step);
    this.act(`person ${line.title} ${column}=${JSON.stringify(value)}`, () => {
      this.sheet.getRange(line.row, col).setValue(value);
    });
    this.figures.personEdits++;
  }

  addLine(step: number): void {
    const title = `chaos-${this.seed}-L${++this.lineCounter}`;
    const [colTitle, colStatus, colAmount] = ['title', 'status', 'amount'].map((h) => this.colOf(h));
    if (!colTitle) return;
    const row = this.sheet.getLastRow() + 1;
    const status = this.valueFor('status', step);
    const amount = this.valueFor('amount', step);
    this.act(`person adds ${title} amount=${amount}`, () => {
      this.sheet.getRange(row, colTitle).setValue(title);
      if (colStatus) this.sheet.getRange(row, colStatus).setValue(status);
      if (colAmount) this.sheet.getRange(row, colAmount).setValue(amount);
    });
    this.createdMarkers.add(title);
    this.figures.personEdits++;
  }

  sortLines(): void {
    if (this.sheet.getLastRow() < 3) return;
    const by = this.r.pick(['amount', 'title', 'status']);
    const col = this.colOf(by);
    if (!col) return;
    this.act(`person sorts by ${by}`, () => {
      this.sheet
        .getRange(2, 1, this.sheet.getLastRow() - 1, this.sheet.getLastColumn())
        .sort({ column: col, ascending: this.r.next() < 0.5 });
    });
  }

  addOwnColumn(): void {
    if (this.ownColumns >= 3) return;
    this.ownColumns++;
    const header = `own${this.ownColumns}`;
    const col = this.sheet.getLastColumn() + 1;
    this.sheet.getRange(1, col).setValue(header);
    for (const line of this.lines()) {
      if (line.title === '') continue;
      const kind = this.r.int(3);
      const cell = this.sheet.getRange(line.row, col);
      const memo = this.ownCells.get(line.title) ?? new Map();
      if (kind === 0) {
        const formula = `=LEN("${line.title.replace(/"/g, '""').slice(0, 20)}")`;
        cell.setFormula(formula);
        memo.set(header, { formula });
      } else if (kind === 1) {
        const note = `note for ${line.title.slice(0, 20)}`;
        cell.setValue(`n${line.row}`).setNote(note);
        memo.set(header, { note, value: `n${line.row}` });
      } else {
        const value = `v-${this.lineCounter}-${line.row}`;
        cell.setValue(value);
        memo.set(header, { value });
      }
      this.ownCells.set(line.title, memo);
    }
  }

  /** Deletes a line (its unpushed edits go with it, by the person's choice). */
  deleteLine(): void {
    const current = this.lines();
    if (current.length < 2) return;
    const line = this.r.pick(current);
    this.act(`person deletes ${line.title} (row ${line.row})`, () => this.sheet.deleteRow(line.row));
    // The row the line was (its id cell may show another row's after an id sort or swap).
    const id = this.trueIds.get(line.title) ?? line.id;
    if (id) this.deletedIds.add(id);
    this.forgetLine(line.title);
  }

  private forgetLine(title: string): void {
    this.trueIds.delete(title);
    this.typed.delete(title);
    this.ownCells.delete(title);
    for (const key of [...this.contested.keys()])
      if (key.startsWith(`${title}\u0000`)) this.contested.delete(key);
    if (this.createdMarkers.has(title)) this.deletedMarkers.add(title);
  }

  /** Data > Sort range on a few cells of one editable column only (the other columns stay). */
  rangeSort(): void {
    const column = this.r.pick(EDITABLE);
    const col = this.colOf(column);
    const current = this.lines();
    if (!col || current.length < 2) return;
    // A contiguous run of titled lines (an empty line inside would turn into a create nobody made).
    const start = this.r.int(current.length - 1);
    let end = start;
    const want = 2 + this.r.int(current.length);
    while (end + 1 < current.length && end - start + 1 < want && (current[end + 1] as Line).title !== '')
      end++;
    if ((current[start] as Line).title === '' || end === start) return;
    const ascending = this.r.next() < 0.5;
    this.act(
      `person sorts ${column} cells of rows ${(current[start] as Line).row}-${(current[end] as Line).row}`,
      () => {
        this.sheet
          .getRange((current[start] as Line).row, col, end - start + 1, 1)
          .sort({ column: col, ascending });
      },
      true,
    );
    this.figures.rangeSorts++;
  }

  /** Renames a synced header (title and id stay: they are how the person and the oracle know lines). */
  renameHeader(): void {
    const column = this.r.pick(EDITABLE);
    const col = this.colOf(column);
    if (!col) return;
    if (this.r.next() < 0.3) {
      // The header cell cleared (Delete on the header): the column's cells stay.
      this.clearedCells.set(column, this.cellsByTitle(col));
      this.act(`person clears header ${column}`, () => this.sheet.getRange(1, col).clearContent());
      this.cleared.push(column);
    } else {
      const name = `My ${column}`;
      this.act(`person renames header ${column} -> ${name}`, () =>
        this.sheet.getRange(1, col).setValue(name),
      );
      this.renamed.set(name, column);
    }
    this.figures.headerRenames++;
  }

  /**
   * A renamed or cleared synced header that a pull has since added back (the header is in row 1 again,
   * once, while the person's column still carries the name they gave it or an empty header). The
   * product only takes a renamed column for the synced one while it holds the agreed values on most
   * lines (docs/shared-sheet.md); otherwise the rules of issue 14 read the header as missing, and "a
   * pull that adds it back fills it with the service's values". The person's column is then one of
   * their own: its cells stay in the sheet but are no longer that synced column, exactly as if the
   * person had deleted the column. So its unpushed edits are dropped, as deleteColumn drops them; a
   * value typed into the re-added column afterwards is an edit again (this runs before every act).
   */
  noteColumnsAddedBack(): void {
    const head = this.headers();
    const dropEdits = (column: string): void => {
      for (const [title, map] of this.typed) {
        map.delete(column);
        this.contested.delete(`${title}\u0000${column}`);
      }
    };
    for (const [name, column] of this.renamed) {
      if (this.colOf(column) && head.includes(name)) {
        dropEdits(column);
        this.renamed.delete(name);
      }
    }
    for (let i = this.cleared.length - 1; i >= 0; i--) {
      const column = this.cleared[i] as string;
      if (this.colOf(column) && head.includes('')) {
        dropEdits(column);
        this.cleared.splice(i, 1);
      }
    }
  }

  /** A column's cells by line title (how a cleared header's column is found again). */
  private cellsByTitle(col: number): Map<string, unknown> {
    const out = new Map<string, unknown>();
    const last = this.sheet.getLastRow();
    if (last < 2) return out;
    const titleCol = this.colOf('title');
    if (!titleCol) return out;
    const titles = this.sheet.getRange(2, titleCol, last - 1, 1).getValues();
    const cells = this.sheet.getRange(2, col, last - 1, 1).getValues();
    titles.forEach((title, i) => {
      out.set(String(title[0]), cells[i]?.[0]);
    });
    return out;
  }

  /**
   * The column whose header the person cleared: among the columns with an empty header, the one whose
   * cells (by line title) still hold most of what that column held when its header was cleared. With
   * two headers cleared, the first empty header cell may be another column's: typing "notes" above
   * the amount cells would be the person's own mistake, not the restore the run asked for.
   */
  private clearedColumnOf(column: string): number {
    const head = this.headers();
    const was = this.clearedCells.get(column);
    this.clearedCells.delete(column);
    let best = 0;
    let bestMatches = -1;
    head.forEach((header, i) => {
      if (header !== '') return;
      let matches = 0;
      for (const [title, value] of this.cellsByTitle(i + 1))
        if (was && Object.is(was.get(title), value)) matches++;
      if (matches > bestMatches) {
        best = i + 1;
        bestMatches = matches;
      }
    });
    return best;
  }

  /** Puts renamed and cleared headers back, as the run asked. */
  restoreHeaders(): void {
    this.noteColumnsAddedBack();
    for (const [name, column] of this.renamed) {
      const col = this.colOf(name);
      if (col && !this.colOf(column)) {
        this.act(`person restores header ${column}`, () => this.sheet.getRange(1, col).setValue(column));
      }
      this.renamed.delete(name);
    }
    for (const column of this.cleared.splice(0)) {
      const col = this.clearedColumnOf(column);
      if (col && !this.colOf(column)) {
        this.act(`person retypes header ${column}`, () => this.sheet.getRange(1, col).setValue(column));
      }
    }
  }

  /** Deletes a synced column (the person drops its unpushed edits; a pull brings it back). */
  deleteColumn(): void {
    const column = this.r.pick(EDITABLE.filter((c) => c !== 'status'));
    const col = this.colOf(column);
    if (!col) return;
    this.act(`person deletes column ${column}`, () => this.sheet.deleteColumn(col));
    for (const [title, map] of this.typed) {
      map.delete(column);
      this.contested.delete(`${title}\u0000${column}`);
    }
    this.figures.columnDeletes++;
  }

  /** Drags a column (any: synced, id, status or own) to another place. */
  moveColumn(): void {
    const head = this.headers();
    if (head.length < 2) return;
    const header = this.r.pick(head);
    const to = 1 + this.r.int(head.length);
    this.act(`person moves column ${header} to ${to}`, () =>
      this.sim.person.moveColumn(this.sheet, head.indexOf(header) + 1, to),
    );
    this.figures.columnMoves++;
  }

  /** Clears a line's status cell (also of a pending create). */
  clearStatus(): void {
    const col = this.colOf('_sync');
    const current = this.lines();
    if (!col || current.length === 0) return;
    const line = this.r.pick(current);
    this.act(`person clears the status of ${line.title}`, () =>
      this.sheet.getRange(line.row, col).clearContent(),
    );
    this.figures.statusClears++;
  }

  /** An empty line inserted among the others (while a run waits). */
  insertEmptyLine(): void {
    const last = this.sheet.getLastRow();
    if (last < 2) return;
    const before = 2 + this.r.int(last - 1);
    this.act(`person inserts an empty line at ${before}`, () => this.sheet.insertRowsBefore(before, 1));
    this.figures.linesInsertedDuringRuns++;
  }

  /** Types JSON into a line's meta cell (over-long cells are read-only: the edit must not go out). */
  editMeta(step: number): void {
    const col = this.colOf('meta');
    const current = this.lines().filter((line) => line.title !== '');
    if (!col || current.length === 0) return;
    const line = this.r.pick(current);
    const overLong = line.id !== '' && this.overLong.has(line.id);
    // Until a pull shows the over-long value, the cell still holds the old one: leave it alone then.
    if (overLong && String(line.cells.meta).length < CELL_LIMIT - 1000) return;
    const text = overLong
      ? `${String(line.cells.meta).slice(0, -2)}x"`
      : JSON.stringify({ step, seed: this.seed });
    this.act(`person types meta of ${line.title}${overLong ? ' (over-long cell)' : ''}`, () =>
      this.sheet.getRange(line.row, col).setValue(text),
    );
    this.figures.personEdits++;
  }

  // ---- issue 24: ids are the service's; checkboxes inserted down a column ----

  /**
   * Lines that show a row id (and a title, which is how the oracle knows them) and an lMod no other line
   * shows: rows written in one batch share an lMod, and such lines cannot be told apart by it when their
   * ids are swapped (a known limit, docs/reliability.md), so the person's id actions leave them alone.
   */
  private linesWithIds(): Line[] {
    const all = this.lines();
    const lMods = new Map<string, number>();
    for (const line of all) lMods.set(String(line.cells.lMod), (lMods.get(String(line.cells.lMod)) ?? 0) + 1);
    return all.filter(
      (line) => line.id !== '' && line.title !== '' && lMods.get(String(line.cells.lMod)) === 1,
    );
  }

  /** Remembers a line's true id before its id cell is changed (once: a second change keeps the first). */
  private noteTrueId(line: Line): void {
    if (!this.trueIds.has(line.title)) this.trueIds.set(line.title, line.id);
  }

  /** Types over a line's id cell (a typo, or another row's id). */
  editId(step: number): void {
    const col = this.colOf('id');
    const current = this.linesWithIds();
    if (!col || current.length === 0) return;
    const line = this.r.pick(current);
    const other = this.r.pick(current);
    const typed =
      this.r.next() < 0.5 && other.id !== line.id ? other.id : `r_typo${this.seed % 1000}x${step}`;
    this.noteTrueId(line);
    this.act(`person types id ${typed} over ${line.title}`, () =>
      this.sheet.getRange(line.row, col).setValue(typed),
    );
    this.figures.idEdits++;
  }

  /** Swaps the id cells of two lines (cut and paste, or typed). */
  swapIds(): void {
    const col = this.colOf('id');
    const current = this.linesWithIds();
    if (!col || current.length < 2) return;
    const a = this.r.pick(current);
    const b = this.r.pick(current.filter((line) => line !== a));
    this.noteTrueId(a);
    this.noteTrueId(b);
    this.act(`person swaps the ids of ${a.title} and ${b.title}`, () => {
      this.sheet.getRange(a.row, col).setValue(b.id);
      this.sheet.getRange(b.row, col).setValue(a.id);
    });
    this.figures.idSwaps++;
  }

  /** Data > Sort range on the id cells of a few contiguous lines alone. */
  sortIds(): void {
    const col = this.colOf('id');
    const current = this.lines();
    if (!col || current.length < 3) return;
    const eligible = new Set(this.linesWithIds().map((line) => line.row));
    const start = this.r.int(current.length - 1);
    let end = start;
    const want = 2 + this.r.int(5);
    while (end + 1 < current.length && end - start + 1 < want && eligible.has((current[end + 1] as Line).row))
      end++;
    const first = current[start] as Line;
    if (!eligible.has(first.row) || end === start) return;
    for (const line of current.slice(start, end + 1)) this.noteTrueId(line);
    this.act(`person sorts the id cells of rows ${first.row}-${(current[end] as Line).row}`, () =>
      this.sheet
        .getRange(first.row, col, end - start + 1, 1)
        .sort({ column: col, ascending: this.r.next() < 0.5 }),
    );
    this.figures.idSorts++;
  }

  /** Puts every changed id cell back (as a line's status asks, and at the latest before the settle). */
  restoreIds(): void {
    const col = this.colOf('id');
    for (const [title, id] of [...this.trueIds]) {
      const line = this.lines().find((each) => each.title === title);
      if (col && line && line.id !== id)
        this.act(`person puts id ${id} back on ${title}`, () =>
          this.sheet.getRange(line.row, col).setValue(id),
        );
      this.trueIds.delete(title);
    }
  }

  /** Insert > Checkbox down the `won` column over a few empty lines below the last one: all unticked. */
  insertCheckboxes(): void {
    const col = this.colOf('won');
    if (!col) return;
    const count = 3 + this.r.int(18);
    const first = this.sheet.getLastRow() + 1;
    this.act(`person inserts ${count} checkboxes down won from row ${first}`, () =>
      this.sheet.getRange(first, col, count, 1).setValues(Array.from({ length: count }, () => [false])),
    );
    this.figures.checkboxLines += count;
  }

  /**
   * The sheet was linked again with "replace this sheet's contents" (after an unlink): every line, own
   * column and unpushed edit went with its contents, by the person's choice. Edits that had reached the
   * service stay the person's last values; a line whose create never reached it is gone, as if deleted.
   */
  sheetReplaced(serviceRows: ReadonlyArray<Record<string, JsonValue>>): void {
    const byTitle = new Map(serviceRows.map((row) => [String(row.title), row]));
    for (const [title, columns] of [...this.typed]) {
      const row = byTitle.get(title);
      for (const [column, value] of [...columns])
        if (!row || JSON.stringify(row[column] ?? null) !== JSON.stringify(value)) columns.delete(column);
      if (columns.size === 0) this.typed.delete(title);
    }
    for (const marker of this.createdMarkers) if (!byTitle.has(marker)) this.deletedMarkers.add(marker);
    this.contested.clear();
    this.ownCells.clear();
    this.ownColumns = 0;
    this.renamed.clear();
    this.cleared.splice(0);
    this.clearedCells.clear();
    this.trueIds.clear();
    // Linked again with its contents replaced: every row comes back as a line, deleted ones too.
    this.deletedIds.clear();
  }
}
