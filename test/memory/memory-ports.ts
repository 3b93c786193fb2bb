// SyncPorts over memory: the linked sheet and its base (memory-sheet.ts), the service through the real
// client over an in-memory HTTP port (memory-service.ts), a simulated clock and budget, and a link
// store. Every port method first calls the world's hook, through which a scripted person acts
// between any two port calls.
import { TableClient } from '../../src/api/client';
import type { PollMemory } from '../../src/api/poll';
import { startingProgress } from '../../src/core/progress';
import type { LinkRecord } from '../../src/core/records';
import type { LinkStorePort, RunPort, SyncPorts, TableServicePort } from '../../src/core/sync/ports';
import type { ProgressInfo } from '../../src/shared/types';
import {
  APP_ID,
  BASE_URL,
  type MemoryColumn,
  MemoryService,
  type MemoryUser,
  TABLE_ID,
} from './memory-service';
import { MemoryBase, MemorySheet, type Waits } from './memory-sheet';

/** Called before every port call: its name ('sheet.writeLines', 'service.updateRows', …) and number (0-based). */
export type PortHook = (call: string, index: number) => void;

export const ANN: MemoryUser = {
  id: 'u-ann',
  key: 'key-ann',
  emailId: 'ann@example.com',
  firstName: 'Ann',
  lastName: 'A',
};
export const BOB: MemoryUser = {
  id: 'u-bob',
  key: 'key-bob',
  emailId: 'bob@example.com',
  firstName: 'Bob',
  lastName: 'B',
};

export const COLUMNS: MemoryColumn[] = [
  { id: 'title', name: 'Title', type: 'text' },
  { id: 'amount', name: 'Amount', type: 'number' },
];

const SERVICE_METHODS = [
  'table',
  'listTableAndRows',
  'tableAndFirstRows',
  'tableAndRowsByIds',
  'listAllRows',
  'tableAndRowsChangedSince',
  'rowsByIds',
  'updateRows',
  'createRows',
  'deleteRows',
  'allPeople',
] as const;

/** The run's clock and budget: simulated, moved on by every port call and every client sleep. */
export class MemoryClock {
  ms = Date.parse('2025-01-01T08:00:00.000Z');
  /** When this execution's budget ends. */
  deadline = this.ms + 6 * 60 * 1000;
  now(): number {
    return this.ms;
  }
  sleep(ms: number): void {
    if (ms > 0) this.ms += Math.ceil(ms);
  }
}

/** The stored link record (as document properties hold it: JSON). */
export class MemoryLinks {
  /** The stored JSON; null once the sheet was unlinked. */
  stored: string | null;
  constructor(link: LinkRecord) {
    this.stored = JSON.stringify(link);
  }
  get(): LinkRecord {
    if (this.stored === null) throw new Error('memory: the sheet is not linked');
    return JSON.parse(this.stored) as LinkRecord;
  }
  save(link: LinkRecord): void {
    this.stored = JSON.stringify(link);
  }
  /** As stores.ts updateLink: the change applied to the link as stored now; null when unlinked. */
  update(change: (stored: LinkRecord) => void): LinkRecord | null {
    if (this.stored === null) return null;
    const link = this.get();
    change(link);
    this.save(link);
    return link;
  }
  unlink(): void {
    this.stored = null;
  }
}

export function newLink(fixedFields: string[] = ['id', 'lMod']): LinkRecord {
  return {
    sheetId: 1,
    sheetName: 'Sheet1',
    tableAppId: APP_ID,
    tableAppName: 'App',
    tableId: TABLE_ID,
    tableName: 'Table',
    fixedFields,
    linkedAt: '2025-01-01T00:00:00.000Z',
    lastSyncAt: null,
    baseSheetName: '_base_1',
    deletedColumnIds: [],
    owner: null,
    schedule: null,
  };
}

/** One spreadsheet linked to one table: a sheet, its base, the stored link, the service. */
export class MemoryWorld {
  readonly waits: Waits = { count: 0 };
  readonly sheet: MemorySheet;
  readonly base = new MemoryBase();
  readonly service: MemoryService;
  readonly links: MemoryLinks;
  readonly clock = new MemoryClock();
  /** The person's hook; each run's calls are numbered from 0. */
  hook: PortHook = () => {};
  /** Every port call of the latest run, in order. */
  calls: string[] = [];
  /** Whether the linked sheet exists (a person may delete it). */
  sheetExists = true;
  /** What the connection remembers of the poll, carried from run to run as the add-on stores it. */
  pollMemory: PollMemory | undefined;

  constructor(options: { service?: MemoryService; cells?: unknown[][]; link?: LinkRecord } = {}) {
    this.service = options.service ?? new MemoryService(COLUMNS, [ANN, BOB]);
    this.sheet = new MemorySheet(options.cells ?? [], this.waits);
    this.links = new MemoryLinks(options.link ?? newLink());
  }

  /** Has the person do `act` once, before the `nth` port call named `call` (1: the first) of the next runs. */
  actBefore(call: string, act: () => void, nth = 1): void {
    let seen = 0;
    this.hook = (name) => {
      if (name !== call || ++seen !== nth) return;
      act();
    };
  }

  /** The ports of one run as `user` (calls numbered from 0; the hook runs before each). */
  ports(user: MemoryUser = ANN): SyncPorts {
    this.calls = [];
    const before = (name: string): void => {
      const index = this.calls.length;
      this.calls.push(name);
      this.clock.ms += 5;
      this.hook(name, index);
    };
    const client = new TableClient(
      this.service.httpPort({
        now: () => this.clock.now(),
        sleep: (ms) => {
          this.clock.sleep(ms);
          this.waits.count += 1;
        },
      }),
      { baseUrl: BASE_URL, apiKey: user.key, prefix: '/api/public' },
      {
        deadline: () => this.clock.deadline - this.clock.now(),
        ...(this.pollMemory ? { poll: this.pollMemory } : {}),
      },
    );
    const service = {} as Record<string, unknown>;
    for (const method of SERVICE_METHODS) {
      const call = (client[method] as (...args: unknown[]) => unknown).bind(client);
      service[method] = (...args: unknown[]) => {
        before(`service.${method}`);
        // A network call is a wait: the person may act meanwhile.
        this.waits.count += 1;
        try {
          return call(...args);
        } finally {
          this.pollMemory = client.pollMemory;
        }
      };
    }
    let progress: ProgressInfo = startingProgress('sync', '');
    let ids = 0;
    const run: RunPort = {
      userId: user.id,
      now: () => this.clock.now(),
      timeLeft: () => this.clock.deadline - this.clock.now(),
      waitsSoFar: () => this.waits.count,
      lastServiceTime: () => this.service.lastAnswerTime,
      uniqueId: () => `m${++ids}`,
      progress: () => progress,
      report: (change) => {
        progress = { ...progress, ...change };
      },
    };
    const links: LinkStorePort = { update: (change) => this.links.update(change) };
    return {
      openSheet: () => {
        before('openSheet');
        if (!this.sheetExists) throw new Error('memory: the linked sheet is gone');
        return hooked(this.sheet.port(), 'sheet', before);
      },
      base: hooked(this.base.port(), 'base', before),
      service: service as unknown as TableServicePort,
      run: hooked(run, 'run', before),
      links: hooked(links, 'links', before),
    };
  }
}

/** An object whose methods call `before(prefix.method)` first. */
function hooked<T extends object>(target: T, prefix: string, before: (name: string) => void): T {
  const out = {} as Record<string, unknown>;
  for (const [key, value] of Object.entries(target)) {
    out[key] =
      typeof value === 'function'
        ? (...args: unknown[]) => {
            before(`${prefix}.${key}`);
            return (value as (...a: unknown[]) => unknown).apply(target, args);
          }
        : value;
  }
  return out as T;
}
