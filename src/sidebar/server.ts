// A typed promise wrapper over google.script.run: one call per server function, every failure an Error.
import type {
  AccountKind,
  ConflictLine,
  ConnectionInfo,
  ConnectionRefusal,
  DeleteRowsInput,
  DeleteRowsResult,
  LinkInfo,
  LinkInput,
  LivePlanInput,
  LinkOptionsInput,
  LinkRefusal,
  LiveCheckResult,
  MembersSummary,
  MissingRowsReview,
  PushOptions,
  QuotaUse,
  RemovedLinesReview,
  RemoveLinesResult,
  SaveConnectionInput,
  ScheduleInfo,
  ScheduleInput,
  SidebarState,
  SyncSummary,
  TableAppInfo,
  TableAppList,
} from '../shared/types';

/** The server functions the sidebar may call (the trampolines of dist/Code.js), with their contracts. */
export interface ServerFunctions {
  getState(): SidebarState;
  getConflicts(): ConflictLine[];
  connectFromSidebar(input: SaveConnectionInput): ConnectionInfo | ConnectionRefusal;
  disconnect(): { connected: false };
  getConnection(options?: { refresh?: boolean }): ConnectionInfo | null;
  listTableApps(input: { query: string }): TableAppList;
  listTables(input: { tableAppId: string }): TableAppInfo;
  linkActiveSheet(input: LinkInput): LinkInfo | LinkRefusal;
  unlinkActiveSheet(): { unlinked: boolean };
  pullActiveSheet(): SyncSummary;
  pullEverything(): SyncSummary;
  checkForChanges(): LiveCheckResult;
  pushActiveSheet(options?: PushOptions): SyncSummary;
  syncActiveSheet(options?: PushOptions): SyncSummary;
  resolveConflicts(input: { rowIds?: string[]; keep: 'mine' | 'theirs' }): SyncSummary;
  putBackHeld(): SyncSummary;
  keepEditingHeld(): { dismissed: boolean };
  selectSheetRow(input: { row: number }): { row: number };
  setSchedule(input: ScheduleInput): ScheduleInfo;
  clearSchedule(): { cleared: boolean };
  getSchedule(): ScheduleInfo | null;
  resumeSchedule(): ScheduleInfo | null;
  setAccountKind(kind: AccountKind): { accountKind: AccountKind };
  planLiveSync(input?: LivePlanInput | null): QuotaUse;
  importAccountMembers(input: { emailId?: string }): MembersSummary;
  setLinkOptions(input: LinkOptionsInput): LinkInfo;
  getMissingRowsReview(): MissingRowsReview;
  deleteMissingRows(input: DeleteRowsInput): DeleteRowsResult;
  bringBackMissingRows(input: { rowIds: string[] }): SyncSummary;
  getRemovedLinesReview(): RemovedLinesReview;
  removeLinesOfRemovedRows(input: { rowIds: string[] }): RemoveLinesResult;
}

export type ServerName = keyof ServerFunctions;
type Result<K extends ServerName> = ReturnType<ServerFunctions[K]>;

/** The part of google.script.run this wrapper uses. */
interface ScriptRunner {
  withSuccessHandler(handler: (value: unknown) => void): ScriptRunner;
  withFailureHandler(handler: (error: unknown) => void): ScriptRunner;
  [name: string]: unknown;
}

function runner(): ScriptRunner | null {
  const google = (globalThis as { google?: { script?: { run?: ScriptRunner } } }).google;
  return google?.script?.run ?? null;
}

function asError(failure: unknown): Error {
  if (failure instanceof Error) return failure;
  const message =
    failure && typeof failure === 'object' && 'message' in failure
      ? String((failure as { message: unknown }).message)
      : String(failure);
  return new Error(message || 'The add-on did not answer. Reload the sidebar and try again.');
}

/** Calls a server function; resolves with its return value, rejects with an Error whose message is for the person. */
export function run<K extends ServerName>(
  name: K,
  ...args: Parameters<ServerFunctions[K]>
): Promise<Result<K>> {
  return new Promise<Result<K>>((resolve, reject) => {
    const base = runner();
    if (!base) {
      reject(
        new Error('This page is not running inside Google Sheets: open it from Extensions › Table App Sync.'),
      );
      return;
    }
    const call = base
      .withSuccessHandler((value) => resolve(value as Result<K>))
      .withFailureHandler((failure) => reject(asError(failure)))[name];
    if (typeof call !== 'function') {
      reject(new Error(`The add-on has no function ${name}: reload the sidebar after updating the add-on.`));
      return;
    }
    (call as (...params: unknown[]) => void)(...args);
  });
}
