// Seeded interleavings of a person with a pull, a push, a sync or a live push (live sync's push of the
// lines Ann's edits named, her last new line maybe still being typed) over the memory ports: a small
// table pulled by Ann, edits on both sides, faults on the service, one run with the person acting
// before its k-th port call, then a final sync; and the invariants checked after each run: no
// duplicate row, no lost edit, no value nobody typed.
import { issueKind } from '../../src/core/status';
import type { SyncPorts } from '../../src/core/sync/ports';
import { pollSinceFor } from '../../src/core/sync/pull/poll';
import { runPull } from '../../src/core/sync/pull/run-pull';
import { runPush } from '../../src/core/sync/push/run-push';
import { ANN, BOB, MemoryWorld } from './memory-ports';
import type { FaultKind, MemoryUser } from './memory-service';

/** A small seeded random source (mulberry32). */
export function randomOf(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Op = 'pull' | 'push' | 'sync' | 'live';

/** Who wrote which value where: a line's identity is its row id, or `new:<title>` for a typed new line. */
interface Ledger {
  /** Values each (identity, column) may hold: its first value and every value someone typed for it. */
  allowed: Map<string, Set<unknown>>;
  /** The last value Ann typed per (identity, column), and whether she saw Bob's latest value there. */
  annLast: Map<string, { value: unknown; sawBob: boolean }>;
  /** The last value Bob set per (row id, column) on the service. */
  bobLast: Map<string, unknown>;
  /** When (the service's clock) Bob set it. */
  bobAt: Map<string, number>;
  /** Values Ann typed knowingly over Bob's per (row id, column). */
  annOverBob: Map<string, Set<unknown>>;
  /** Identities whose line the person deleted. */
  deleted: Set<string>;
  /** Cells Bob changed inside a run's network window (see inNetworkWindow). */
  raced: Set<string>;
  newTitles: Set<string>;
}

const key = (identity: string, column: string) => `${identity}\u0000${column}`;

function allow(ledger: Ledger, identity: string, column: string, value: unknown): void {
  const k = key(identity, column);
  const set = ledger.allowed.get(k) ?? new Set<unknown>();
  ledger.allowed.set(k, set);
  set.add(value);
}

/** One scenario: its world, the run and what the person does, all from the seed. */
export class Interleaving {
  readonly world = new MemoryWorld();
  readonly ledger: Ledger = {
    allowed: new Map(),
    annLast: new Map(),
    bobLast: new Map(),
    bobAt: new Map(),
    annOverBob: new Map(),
    deleted: new Set(),
    raced: new Set(),
    newTitles: new Set(),
  };
  readonly op: Op;
  readonly runner: MemoryUser;
  readonly description: string[] = [];
  private readonly random: () => number;
  private typed = 0;
  /** The lines Ann's edits before the run named, as her edit trigger's firings saw them (0-based). */
  private readonly editedLines: number[] = [];
  /** A live push's new line still being typed (Ann's last new line, half the time). */
  private typing: number | undefined;

  constructor(readonly seed: number) {
    this.random = randomOf(seed);
    // Every other seed with the poll: a sync's pull then takes its push's reads (pull/handoff.ts). By
    // the seed, not a draw, so each seed's scenario stays what it was.
    if (seed % 2 === 0) this.world.service.poll = 'on';
    const rows = 10 + this.int(21);
    for (let i = 1; i <= rows; i++) {
      const row = this.world.service.insert({ title: `t${i}`, amount: i }, BOB.id);
      allow(this.ledger, row.id, 'title', row.title);
      allow(this.ledger, row.id, 'amount', row.amount);
    }
    runPull(this.world.ports(ANN), this.world.links.get());
    for (let i = this.int(4); i > 0; i--) this.annTypes(this.int(this.lineCount()));
    for (let i = this.int(3); i > 0; i--) this.annAppends(this.lineCount());
    for (let i = this.int(4); i > 0; i--) this.bobChanges();
    if (this.random() < 0.3) {
      const row = this.world.service.insert({ title: `bnew${seed}`, amount: 0 }, BOB.id);
      allow(this.ledger, row.id, 'title', row.title);
      allow(this.ledger, row.id, 'amount', row.amount);
      this.description.push(`Bob creates ${row.id}`);
    }
    if (this.random() < 0.4) {
      const faults: Array<['post' | 'patch', FaultKind]> = [
        ['post', 'lost'],
        ['patch', 'lost'],
        ['patch', '503-after-commit'],
        ['patch', 'error-body'],
        ['post', '503-after-commit'],
        ['post', 'error-body'],
      ];
      const [method, kind] = faults[this.int(faults.length)] as ['post' | 'patch', FaultKind];
      this.world.service.fault(method, kind);
      this.description.push(`service fault: ${method} ${kind}`);
    }
    this.op = (['pull', 'push', 'sync', 'live'] as const)[this.int(4)] as Op;
    this.runner = this.random() < 0.5 ? ANN : BOB;
    if (this.op === 'live') {
      const appended = this.description.filter((each) => each.startsWith('Ann inserts')).length;
      if (appended > 0 && this.random() < 0.5) this.typing = this.lastAppendedAt;
      // A live push sends as the first live sender, whoever typed: the runner stands for them.
      this.description.push(
        `run: live push of lines ${JSON.stringify(this.editedLines)}${this.typing === undefined ? '' : `, line ${this.typing} still being typed`} as ${this.runner.id}`,
      );
    } else this.description.push(`run: ${this.op} as ${this.runner.id}`);
  }

  private int(below: number): number {
    return Math.floor(this.random() * below);
  }

  private lineCount(): number {
    return Math.max(0, this.world.sheet.values().length - 1);
  }

  /** The identity of data line `line` as the sheet shows it now. */
  private identityOf(line: number): string | undefined {
    const values = this.world.sheet.values();
    const cells = values[line + 1];
    if (!cells) return undefined;
    const id = String(cells[this.world.sheet.columnOf('id')] ?? '');
    if (id !== '') return this.identityOfRow(this.world.service.find(id) ?? { id });
    const title = String(cells[this.world.sheet.columnOf('title')] ?? '');
    return this.ledger.newTitles.has(title) ? `new:${title}` : undefined;
  }

  /** A service row's identity: its id for the rows made before the scenario or by Bob, else the new line it was made from. */
  private identityOfRow(row: Record<string, unknown>): string | undefined {
    if (this.ledger.allowed.has(key(String(row.id), 'title'))) return String(row.id);
    return this.ledger.newTitles.has(String(row.title)) ? `new:${row.title}` : undefined;
  }

  private annTypes(line: number): void {
    const identity = this.identityOf(line);
    if (!identity) return;
    // A new line keeps its title (it names the line); its amount is typed.
    const column = identity.startsWith('new:') || this.random() < 0.5 ? 'amount' : 'title';
    this.typed += 1;
    const value = column === 'title' ? `a${this.seed}-${this.typed}` : 1000 + this.typed;
    const shown = this.world.sheet.values()[line + 1]?.[this.world.sheet.columnOf(column)];
    const bob = this.ledger.bobLast.get(key(identity, column));
    this.world.sheet.type(line, column, value);
    if (!this.acting) this.editedLines.push(line);
    allow(this.ledger, identity, column, value);
    const sawBob = bob !== undefined && shown === bob;
    this.ledger.annLast.set(key(identity, column), { value, sawBob });
    if (sawBob) {
      const k = key(identity, column);
      if (!this.ledger.annOverBob.has(k)) this.ledger.annOverBob.set(k, new Set());
      this.ledger.annOverBob.get(k)?.add(value);
    }
    this.description.push(`Ann types ${column}=${JSON.stringify(value)} on line ${line} (${identity})`);
  }

  private annAppends(at: number): void {
    this.typed += 1;
    const title = `new${this.seed}-${this.typed}`;
    const amount = 500 + this.typed;
    this.ledger.newTitles.add(title);
    allow(this.ledger, `new:${title}`, 'title', title);
    allow(this.ledger, `new:${title}`, 'amount', amount);
    this.ledger.annLast.set(key(`new:${title}`, 'amount'), { value: amount, sawBob: false });
    const line = Math.min(at, this.lineCount());
    this.world.sheet.insertLine(line, { title, amount });
    if (!this.acting) {
      this.editedLines.push(line);
      this.lastAppendedAt = line;
    }
    this.description.push(`Ann inserts a new line ${title} at ${at}`);
  }

  /** Where Ann's last new line went in (a live push may find her still typing it). */
  private lastAppendedAt: number | undefined;

  /** Whether the person is acting at the interleaving point (not setting the scenario up). */
  private acting = false;
  /** The cell Bob changed at the interleaving point, if he did. */
  private bobDuringRun: string | undefined;

  private bobChanges(): void {
    const rows = this.world.service.rows;
    const row = rows[this.int(rows.length)];
    if (!row) return;
    const identity = this.identityOfRow(row) ?? row.id;
    // A row made from a new line keeps its title (it names the line); its amount is changed.
    const column = identity.startsWith('new:') || this.random() < 0.5 ? 'amount' : 'title';
    this.typed += 1;
    const value = column === 'title' ? `b${this.seed}-${this.typed}` : 2000 + this.typed;
    this.world.service.update(row.id, { [column]: value }, BOB.id);
    allow(this.ledger, identity, column, value);
    this.ledger.bobLast.set(key(identity, column), value);
    this.ledger.bobAt.set(key(identity, column), this.world.service.clock);
    if (this.acting) this.bobDuringRun = key(identity, column);
    this.description.push(`Bob sets ${row.id}.${column}=${JSON.stringify(value)}`);
  }

  /** What the person does at the interleaving point (drawn from the seed and the point). */
  personActs(point: number): void {
    const random = randomOf(this.seed * 7919 + point);
    const choice = Math.floor(random() * 7);
    const lines = this.lineCount();
    const line = Math.floor(random() * Math.max(1, lines));
    if (choice === 0) {
      const column = ['title', 'amount', 'id'][Math.floor(random() * 3)] as string;
      const descending = random() < 0.5;
      this.world.sheet.sort(column, descending);
      this.description.push(`person sorts by ${column}${descending ? ' descending' : ''}`);
    } else if (choice <= 2) this.annTypes(line);
    else if (choice === 3) this.annAppends(line);
    else if (choice === 4) {
      const identity = this.identityOf(line);
      if (!identity) return;
      this.world.sheet.deleteLine(line);
      this.ledger.deleted.add(identity);
      this.description.push(`person deletes line ${line} (${identity})`);
    } else if (choice === 5) {
      this.bobChanges();
    } else {
      const column = random() < 0.5 ? 'title' : 'amount';
      this.world.sheet.renameHeader(column, `my ${column}`);
      this.renamed.push(column);
      this.description.push(`person renames header ${column}`);
    }
  }

  /** Headers the person renamed during the run, put back after it (as the run's warning asks). */
  private readonly renamed: string[] = [];

  private renameBack(): void {
    for (const column of this.renamed.splice(0)) {
      this.world.sheet.renameHeader(`my ${column}`, column);
      this.description.push(`after the run, person renames header ${column} back`);
    }
  }

  /** Runs the scenario's run as its runner, the person acting before port call `point` (none: -1). */
  run(point: number): number {
    let index = 0;
    const calls: string[] = [];
    this.world.hook = (name) => {
      calls.push(name);
      if (index++ === point) {
        this.description.push(`before call ${point} (${name}):`);
        this.acting = true;
        this.personActs(point);
        this.acting = false;
      }
    };
    const ports = () => this.world.ports(this.runner);
    if (this.op === 'live') {
      runPush(ports(), this.world.links.get(), {
        lines: this.editedLines,
        ...(this.typing === undefined ? {} : { typing: [this.typing] }),
        // Her firings named these lines across every column: their rows are read with the schema.
        typed: { lines: this.editedLines, firstColumn: 0, lastColumn: Number.MAX_SAFE_INTEGER },
      });
    } else if (this.op === 'sync') {
      this.sync(ports);
    } else {
      if (this.op !== 'pull') runPush(ports(), this.world.links.get());
      if (this.op !== 'push') runPull(ports(), this.world.links.get());
    }
    this.world.hook = () => {};
    this.renameBack();
    if (this.bobDuringRun && inNetworkWindow(calls, point)) {
      this.ledger.raced.add(this.bobDuringRun);
      this.description.push('(Bob changed it between the run reading the row and patching it)');
    }
    return index;
  }

  /** A final sync by Ann, twice (a pending create is adopted by the second), with nobody acting. */
  finalSync(): void {
    for (let i = 0; i < 2; i++) this.sync(() => this.world.ports(ANN));
  }

  /**
   * A sync as runOperationStep runs one: the push reads the pull's poll with its schema, and the pull
   * takes the push's poll, lines and base where pull/handoff.ts allows (the pull runs even when the
   * push did not finish, as the interleavings always ran it).
   */
  private sync(ports: () => SyncPorts): void {
    const since = pollSinceFor(this.world.links.get(), this.world.clock.now(), false);
    const pushed = runPush(ports(), this.world.links.get(), since === undefined ? {} : { pollAhead: since });
    runPull(ports(), this.world.links.get(), undefined, pushed.handoff ? { handoff: pushed.handoff } : {});
  }

  /** Lines of the sheet as records by header. */
  private lines(): Array<Record<string, unknown>> {
    const [headers, ...lines] = this.world.sheet.values() as [unknown[], ...unknown[][]];
    return lines.map((line) =>
      Object.fromEntries(headers.map((header, i) => [String(header), line[i] ?? ''])),
    );
  }

  /** Broken invariants: duplicates and values nobody typed (any time); lost edits (after the final sync). */
  violations(final: boolean): string[] {
    const found: string[] = [];
    const { ledger } = this;
    const titles = new Map<string, number>();
    for (const row of this.world.service.rows)
      titles.set(String(row.title), (titles.get(String(row.title)) ?? 0) + 1);
    for (const [title, count] of titles)
      if (count > 1 && (ledger.newTitles.has(title) || title.startsWith('bnew')))
        found.push(`duplicate: ${count} service rows titled ${title}`);
    const identityOfRow = (row: Record<string, unknown>) => this.identityOfRow(row);
    for (const row of this.world.service.rows) {
      const identity = identityOfRow(row);
      if (!identity) {
        found.push(`unintended: service row ${row.id} titled ${String(row.title)} nobody made`);
        continue;
      }
      for (const column of ['title', 'amount'])
        if (!ledger.allowed.get(key(identity, column))?.has(row[column]))
          found.push(`unintended: service ${row.id}.${column}=${JSON.stringify(row[column])} (${identity})`);
    }
    const ids = new Map<string, number>();
    for (const line of this.lines()) {
      const id = String(line.id);
      if (id !== '') ids.set(id, (ids.get(id) ?? 0) + 1);
      const identity =
        id !== ''
          ? identityOfRow(this.world.service.find(id) ?? { id })
          : ledger.newTitles.has(String(line.title))
            ? `new:${line.title}`
            : undefined;
      if (!identity) {
        found.push(`unintended: a line ${JSON.stringify(line)} nobody made`);
        continue;
      }
      for (const column of ['title', 'amount']) {
        // Right after a run, a cell of a column it could not fill (a header renamed meanwhile) is blank
        // until the next pull; after the final sync every cell holds a value someone gave it.
        if (!final && line[column] === '') continue;
        if (!ledger.allowed.get(key(identity, column))?.has(line[column]))
          found.push(`unintended: line ${id || identity} ${column}=${JSON.stringify(line[column])}`);
      }
    }
    for (const [id, count] of ids) if (count > 1) found.push(`duplicate: ${count} lines carry id ${id}`);
    // A deleted line is held for review: its row is never deleted, and no pull adds the line back.
    for (const deletion of this.world.service.deletes)
      found.push(`unintended: row ${deletion.rowId} deleted`);
    for (const identity of ledger.deleted)
      if (!identity.startsWith('new:') && ids.has(identity))
        found.push(`held: the deleted line of ${identity} came back`);
    if (!final) return found;
    const lines = this.lines();
    for (const [k, { value }] of ledger.annLast) {
      const [identity, column] = k.split('\u0000') as [string, string];
      if (ledger.deleted.has(identity)) continue;
      const rows = identity.startsWith('new:')
        ? this.world.service.rows.filter((row) => `new:${row.title}` === identity)
        : this.world.service.rows.filter((row) => row.id === identity);
      if (rows.some((row) => row[column] === value)) continue;
      // Sent, then changed on the service by Bob afterwards: delivered, and Bob's to change.
      const bobAt = ledger.bobAt.get(k) ?? -1;
      const sentBefore = this.world.service.commits.some(
        (commit) =>
          commit.values[column] === value && commit.at < bobAt && rows.some((row) => row.id === commit.rowId),
      );
      if (sentBefore) continue;
      const kept = lines.some(
        (line) =>
          (line.id === identity || (identity.startsWith('new:') && `new:${line.title}` === identity)) &&
          line[column] === value &&
          !['ok', null].includes(issueKind(line._sync)),
      );
      if (!kept)
        found.push(
          `lost: Ann's ${identity}.${column}=${JSON.stringify(value)} is neither sent nor kept as unsent`,
        );
    }
    for (const [k, value] of ledger.bobLast) {
      const [identity, column] = k.split('\u0000') as [string, string];
      for (const row of this.world.service.rows) {
        if (this.identityOfRow(row) !== identity || row[column] === value) continue;
        if (ledger.annOverBob.get(k)?.has(row[column])) continue;
        if (ledger.raced.has(k)) {
          races.count += 1;
          continue;
        }
        found.push(
          `lost: Bob's ${identity}.${column}=${JSON.stringify(value)} overwritten by ${JSON.stringify(row[column])} unseen`,
        );
      }
    }
    return found;
  }
}

/**
 * Whether acting before call `point` falls between the run's last read of the service's rows and its
 * next PATCH with only network and progress calls between: a change Bob makes there is overwritten by
 * any client of a service without conditional updates (the request is already on its way). Counted
 * apart, as `races`, not as a violation; a Spreadsheet call inside that window would be one.
 */
export function inNetworkWindow(calls: readonly string[], point: number): boolean {
  const reads = [
    'service.rowsByIds',
    'service.tableAndRowsByIds',
    'service.listAllRows',
    'service.tableAndFirstRows',
    'service.listTableAndRows',
  ];
  let read = -1;
  for (let i = Math.min(point, calls.length) - 1; i >= 0; i--)
    if (reads.includes(calls[i] as string)) {
      read = i;
      break;
    }
  const patch = calls.indexOf('service.updateRows', point);
  if (read < 0 || patch < 0) return false;
  return calls.slice(read + 1, patch).every((name) => name.startsWith('run.') || name.startsWith('service.'));
}

/** Bob's changes overwritten inside a network window (see inNetworkWindow), over every interleaving run. */
export const races = { count: 0 };

/** One interleaving: the scenario of `seed`, the person acting before call `point`; its violations. */
export function runInterleaving(seed: number, point: number): { violations: string[]; story: string[] } {
  const scenario = new Interleaving(seed);
  const violations: string[] = [];
  try {
    scenario.run(point);
    violations.push(...scenario.violations(false).map((each) => `after the run: ${each}`));
    scenario.finalSync();
    violations.push(...scenario.violations(true).map((each) => `after the final sync: ${each}`));
  } catch (error) {
    violations.push(`threw: ${error instanceof Error ? error.stack : String(error)}`);
  }
  return { violations, story: scenario.description };
}

/** How many port calls the scenario's run makes with nobody acting. */
export function callsOf(seed: number): number {
  return new Interleaving(seed).run(-1);
}
