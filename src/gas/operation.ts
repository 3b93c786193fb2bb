// What every pull, push and sync runs inside: the stored connection, a client over UrlFetchApp,
// a time budget well inside Apps Script's 6 minutes, the document lock, and progress for the sidebar.
import { TableClient } from '../api/client';
import type { HttpPort } from '../api/http-port';
import { SyncError } from '../core/errors';
import { startingProgress } from '../core/progress';
import type { Operation, ProgressInfo } from '../shared/types';

import { paceFor } from './service-pace';

import {
  type LinkRecord,
  loadConnection,
  loadLink,
  operationMemory,
  type StoredConnection,
  saveConnectionRecord,
  saveProgress,
} from './stores';

import { createUrlFetchPort, type UrlFetchCounter } from './url-fetch-port';

/**
 * Work stops between batches once this much of the execution has passed (the limit is 6 min). A pull
 * whose listing is planned to end within FINISH_GRACE_MS past it finishes instead (core/sync/pull/chunks.ts).
 */
export const WORK_BUDGET_MS = 4.5 * 60 * 1000;
const LOCK_WAIT_MS = 8000;

export class Deadline {
  readonly startedAt: number;
  private readonly endsAt: number;

  constructor(budgetMs: number, startedAt = Date.now()) {
    this.startedAt = startedAt;
    this.endsAt = startedAt + budgetMs;
  }

  left(): number {
    return this.endsAt - Date.now();
  }

  /** True when less than `reserveMs` is left: time to save progress and stop. */
  nearlyOver(reserveMs = 0): boolean {
    return this.left() <= reserveMs;
  }

  seconds(): number {
    return Math.round((Date.now() - this.startedAt) / 100) / 10;
  }
}

export interface OperationContext {
  connection: StoredConnection;
  client: TableClient;
  port: HttpPort;
  counter: UrlFetchCounter;
  deadline: Deadline;
  operation: Operation;
  sheetId: number;
  progress: ProgressInfo;
}

export function requireConnection(): StoredConnection {
  const connection = loadConnection();
  if (!connection) {
    throw new SyncError(
      'CONFIG',
      'Not connected yet: open the sidebar, enter the service address and your API key.',
    );
  }
  return connection;
}

export function requireLink(sheetId: number): LinkRecord {
  const link = loadLink(sheetId);
  if (!link) {
    throw new SyncError('CONFIG', 'This sheet is not linked to a table yet: open the sidebar and link it.');
  }
  return link;
}

export function clientFor(connection: StoredConnection, port: HttpPort, deadline?: Deadline): TableClient {
  // Operations the service lacks are remembered per person and connection, so no run asks in vain;
  // the service may limit requests per key (60 a minute, 1,800 an hour): every client paces itself.
  const options: ConstructorParameters<typeof TableClient>[2] = {
    operationMemory: operationMemory(connection),
    pace: paceFor(connection.info.baseUrl),
  };
  if (deadline) options.deadline = () => deadline.left();
  const poll = connection.info.poll;
  const checkedAt = poll ? Date.parse(poll.checkedAt) : Number.NaN;
  if (poll && Number.isFinite(checkedAt)) options.poll = { supported: poll.supported === true, checkedAt };
  return new TableClient(
    port,
    {
      baseUrl: connection.info.baseUrl,
      apiKey: connection.apiKey,
      prefix: connection.info.prefix as '/api/public' | '/public',
    },
    options,
  );
}

export function newContext(
  operation: Operation,
  sheetId: number,
  deadline = new Deadline(WORK_BUDGET_MS),
): OperationContext {
  const connection = requireConnection();
  const counter: UrlFetchCounter = { requests: 0 };
  const port = createUrlFetchPort(counter);
  return {
    connection,
    client: clientFor(connection, port, deadline),
    port,
    counter,
    deadline,
    operation,
    sheetId,
    progress: startingProgress(operation, new Date().toISOString()),
  };
}

/**
 * Keeps what the run's client learnt of the poll for row updates with the connection, as the prefix
 * is kept: the next runs neither probe it again nor (found missing) ask it for a day. Written only
 * when it changed, and only onto the same connection (a reconnect meanwhile starts over).
 */
export function rememberPoll(context: OperationContext): void {
  const learnt = context.client.pollMemory;
  if (!learnt) return;
  const checkedAt = new Date(learnt.checkedAt).toISOString();
  const known = context.connection.info.poll;
  if (known && known.supported === learnt.supported && known.checkedAt === checkedAt) return;
  const latest = loadConnection();
  const { info, apiKey } = context.connection;
  if (!latest || latest.apiKey !== apiKey || latest.info.baseUrl !== info.baseUrl) return;
  const remembered = { supported: learnt.supported, checkedAt };
  try {
    saveConnectionRecord({ ...latest, info: { ...latest.info, poll: remembered } });
    context.connection.info.poll = remembered;
  } catch {
    // A full property store costs a probe next time, never the run.
  }
}

/** Saves the run's progress for the sidebar, with the time left in this execution. */
export function reportProgress(context: OperationContext, change: Partial<ProgressInfo>): void {
  Object.assign(context.progress, change, {
    secondsLeft: Math.max(0, Math.round(context.deadline.left() / 1000)),
    updatedAt: new Date().toISOString(),
  });
  saveProgress(context.sheetId, context.progress);
}

/** Runs `work` holding the document lock; a second sync waits briefly, then says one is running. */
export function withDocumentLock<T>(work: () => T, waitMs = LOCK_WAIT_MS): T {
  const lock = LockService.getDocumentLock();
  if (!lock) return work();
  if (!lock.tryLock(waitMs)) {
    throw new SyncError(
      'BUSY',
      'Another sync of this spreadsheet is running (a schedule or another person). Try again in a minute.',
    );
  }
  try {
    return work();
  } finally {
    SpreadsheetApp.flush();
    lock.releaseLock();
  }
}
