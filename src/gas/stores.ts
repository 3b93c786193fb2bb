// Where state lives: the API key and connection in USER properties (no other editor can read them);
// links, jobs and schedules in DOCUMENT properties (shared, never secret); progress in the cache;
// what the connection's service lacks (an optional operation) in USER properties, beside the connection.
import type { OperationMemory, OptionalOperation } from '../api/client';
import type { RecordedRun } from '../core/quota-plan';
import type { JobRecord, LinkRecord } from '../core/records';
import type { AccountKind, ConnectionInfo, ProgressInfo, SyncSummary } from '../shared/types';

export type { JobRecord, LinkRecord, StoredSchedule } from '../core/records';

const CONNECTION_KEY = 'tas.connection';
const API_KEY_KEY = 'tas.apiKey';
const LINK_PREFIX = 'tas.link.';
const JOB_PREFIX = 'tas.job.';
const RETRY_PREFIX = 'tas.retry.';
const SUMMARY_PREFIX = 'tas.summary.';
const PROGRESS_PREFIX = 'tas.progress.';
const RUNTIMES_PREFIX = 'tas.runtimes.';
const RUNTIMES_KEPT = 10;
const LACKING_KEY = 'tas.lackingOperations';
const QUOTA_DAY_KEY = 'tas.quotaDay';
const ACCOUNT_KIND_KEY = 'tas.accountKind';

export interface StoredConnection {
  info: ConnectionInfo;
  apiKey: string;
}

function readJson<T>(properties: GoogleAppsScript.Properties.Properties, key: string): T | null {
  const text = properties.getProperty(key);
  if (text === null) return null;
  try {
    return JSON.parse(text) as T;
  } catch {
    return null;
  }
}

export function loadConnection(): StoredConnection | null {
  const properties = PropertiesService.getUserProperties();
  const info = readJson<ConnectionInfo>(properties, CONNECTION_KEY);
  const apiKey = properties.getProperty(API_KEY_KEY);
  return info && apiKey ? { info, apiKey } : null;
}

/**
 * The e-mail of the service profile this person connected with (from GET /user/me), or '' when not
 * connected. Used instead of Session's e-mail, which needs the userinfo.email scope.
 */
export function connectedEmail(): string {
  return loadConnection()?.info.email ?? '';
}

/** A person's name as the sidebar shows it: "First Last <email>", or whatever part is known. */
export function displayName(info: { firstName?: string; lastName?: string; email?: string }): string {
  const name = [info.firstName, info.lastName].filter((part) => part?.trim()).join(' ');
  if (name && info.email) return `${name} <${info.email}>`;
  return name || info.email || 'someone';
}

export function saveConnectionRecord(connection: StoredConnection): void {
  PropertiesService.getUserProperties().setProperties({
    [CONNECTION_KEY]: JSON.stringify(connection.info),
    [API_KEY_KEY]: connection.apiKey,
  });
}

export function clearConnection(): void {
  const properties = PropertiesService.getUserProperties();
  properties.deleteProperty(CONNECTION_KEY);
  properties.deleteProperty(API_KEY_KEY);
}

/** Operations the service of one connection was found without, and since when (ms). */
interface LackingRecord {
  connection: string;
  since: Partial<Record<OptionalOperation, number>>;
}

/**
 * The person's memory of operations their connection's service lacks (USER properties: per person, as
 * the connection is). Kept for one connection, the current one: another connection starts afresh.
 */
export function operationMemory(connection: StoredConnection): OperationMemory {
  const key = `${connection.info.baseUrl}${connection.info.prefix}`;
  const load = (): LackingRecord => {
    const stored = readJson<LackingRecord>(PropertiesService.getUserProperties(), LACKING_KEY);
    return stored && stored.connection === key && typeof stored.since === 'object' && stored.since !== null
      ? stored
      : { connection: key, since: {} };
  };
  return {
    lackingSince(operation) {
      const at = load().since[operation];
      return typeof at === 'number' && Number.isFinite(at) ? at : null;
    },
    setLackingSince(operation, at) {
      const record = load();
      if (at === null) delete record.since[operation];
      else record.since[operation] = at;
      PropertiesService.getUserProperties().setProperty(LACKING_KEY, JSON.stringify(record));
    },
  };
}

function documentProperties(): GoogleAppsScript.Properties.Properties {
  return PropertiesService.getDocumentProperties();
}

export function loadLink(sheetId: number): LinkRecord | null {
  const stored = readJson<StoredLink>(documentProperties(), LINK_PREFIX + sheetId);
  return stored ? linkOf(stored) : null;
}

/** A link as stored by this version or an earlier one (which called deleted columns "gone"). */
type StoredLink = Omit<LinkRecord, 'deletedColumnIds'> & {
  deletedColumnIds?: string[];
  goneColumnIds?: string[];
};

function linkOf(stored: StoredLink): LinkRecord {
  const { goneColumnIds, ...rest } = stored;
  return { ...rest, deletedColumnIds: stored.deletedColumnIds ?? goneColumnIds ?? [] };
}

export function saveLink(link: LinkRecord): void {
  documentProperties().setProperty(LINK_PREFIX + link.sheetId, JSON.stringify(link));
}

/**
 * Changes the stored link as it is now: reads it again, applies `change` (only the fields the caller
 * owns) and saves it. A run never saves the link it loaded at its start, which would undo a schedule
 * or options changed, or an unlink, while it went. Returns the saved link, or null (nothing written)
 * when the sheet was unlinked meanwhile.
 */
export function updateLink(sheetId: number, change: (stored: LinkRecord) => void): LinkRecord | null {
  const stored = loadLink(sheetId);
  if (!stored) return null;
  change(stored);
  saveLink(stored);
  return stored;
}

export function deleteLink(sheetId: number): void {
  const properties = documentProperties();
  properties.deleteProperty(LINK_PREFIX + sheetId);
  properties.deleteProperty(JOB_PREFIX + sheetId);
  properties.deleteProperty(RETRY_PREFIX + sheetId);
  properties.deleteProperty(SUMMARY_PREFIX + sheetId);
  properties.deleteProperty(RUNTIMES_PREFIX + sheetId);
}

export function allLinks(): LinkRecord[] {
  const all = documentProperties().getProperties();
  const links: LinkRecord[] = [];
  for (const key of Object.keys(all)) {
    if (!key.startsWith(LINK_PREFIX)) continue;
    try {
      links.push(linkOf(JSON.parse(all[key] as string) as StoredLink));
    } catch {
      // A damaged entry is skipped; relinking the sheet rewrites it.
    }
  }
  return links;
}

/** A pull or push that ran out of time and goes on in a follow-up execution. */
export function loadJob(sheetId: number): JobRecord | null {
  return readJson<JobRecord>(documentProperties(), JOB_PREFIX + sheetId);
}

export function saveJob(sheetId: number, job: JobRecord): void {
  documentProperties().setProperty(JOB_PREFIX + sheetId, JSON.stringify(job));
}

export function clearJob(sheetId: number): void {
  documentProperties().deleteProperty(JOB_PREFIX + sheetId);
}

/**
 * A continuation fired while another run held the document lock, tried again by a new trigger.
 * Written without the lock, so the job itself (written only under it) is left alone: the retry
 * stands for the job's trigger `forTrigger`, and serves only while the job still names it.
 */
export interface RetryRecord {
  forTrigger: string;
  triggerId: string;
}

export function loadRetry(sheetId: number): RetryRecord | null {
  return readJson<RetryRecord>(documentProperties(), RETRY_PREFIX + sheetId);
}

export function saveRetry(sheetId: number, retry: RetryRecord): void {
  documentProperties().setProperty(RETRY_PREFIX + sheetId, JSON.stringify(retry));
}

export function clearRetry(sheetId: number): void {
  documentProperties().deleteProperty(RETRY_PREFIX + sheetId);
}

/** Seconds of the link's last runs (newest last), for the schedule picker's daily runtime estimate. */
/**
 * The link's recent runs that did their work: seconds, requests and whether they listed the whole
 * table (older records kept seconds only: read as pulls of unknown requests).
 */
export function recentRuns(sheetId: number): RecordedRun[] {
  const stored = readJson<unknown>(documentProperties(), RUNTIMES_PREFIX + sheetId);
  if (!Array.isArray(stored)) return [];
  const runs: RecordedRun[] = [];
  for (const each of stored) {
    if (typeof each === 'number') runs.push({ operation: 'pull', seconds: each });
    else if (each && typeof each === 'object' && typeof (each as RecordedRun).seconds === 'number')
      runs.push(each as RecordedRun);
  }
  return runs;
}

export function recentRunSeconds(sheetId: number): number[] {
  return recentRuns(sheetId).map((run) => run.seconds);
}

export function recordRun(sheetId: number, run: RecordedRun): void {
  const runs = [...recentRuns(sheetId), { ...run, seconds: Math.max(0, run.seconds) }];
  const kept = runs.slice(-RUNTIMES_KEPT);
  // The day's full listing stays known after ten cheaper runs: the plan counts one a day.
  const lastListing = [...runs].reverse().find((each) => each.fullListing === true);
  if (lastListing && !kept.includes(lastListing)) kept.unshift(lastListing);
  documentProperties().setProperty(RUNTIMES_PREFIX + sheetId, JSON.stringify(kept));
}

/**
 * This spreadsheet's runs in the current quota day: Apps Script's daily quotas reset 24 hours after
 * the first call (apps-script-facts §3), so a day starts with the first run logged after the last ended.
 */
export interface QuotaDay {
  /** ms on the script's clock. */
  start: number;
  fetches: number;
  triggerSeconds: number;
  /** The Sync log has not shown the day's use yet (its first runs were not logged): headers pending. */
  logHeadersPending?: boolean;
}

export function loadQuotaDay(): QuotaDay | null {
  const day = readJson<QuotaDay>(documentProperties(), QUOTA_DAY_KEY);
  return day && typeof day.start === 'number' && typeof day.fetches === 'number' ? day : null;
}

export function saveQuotaDay(day: QuotaDay): void {
  documentProperties().setProperty(QUOTA_DAY_KEY, JSON.stringify(day));
}

/** Forgets the day's use (the last link ended: no run of this spreadsheet counts any more). */
export function clearQuotaDay(): void {
  documentProperties().deleteProperty(QUOTA_DAY_KEY);
}

/** The account kind the person plans with (USER properties: it is theirs); consumer until chosen. */
export function loadAccountKind(): AccountKind {
  return PropertiesService.getUserProperties().getProperty(ACCOUNT_KIND_KEY) === 'workspace'
    ? 'workspace'
    : 'consumer';
}

export function saveAccountKind(kind: AccountKind): void {
  PropertiesService.getUserProperties().setProperty(ACCOUNT_KIND_KEY, kind);
}

export function saveSummary(sheetId: number, summary: SyncSummary): void {
  // Keep the stored summary well under the 9 KB property limit.
  const trimmed: SyncSummary = { ...summary, issues: summary.issues.slice(0, 40) };
  documentProperties().setProperty(SUMMARY_PREFIX + sheetId, JSON.stringify(trimmed));
}

export function loadSummary(sheetId: number): SyncSummary | null {
  return readJson<SyncSummary>(documentProperties(), SUMMARY_PREFIX + sheetId);
}

export function saveProgress(sheetId: number, progress: ProgressInfo | null): void {
  const cache = CacheService.getDocumentCache();
  if (!cache) return;
  if (progress) cache.put(PROGRESS_PREFIX + sheetId, JSON.stringify(progress), 600);
  else cache.remove(PROGRESS_PREFIX + sheetId);
}

export function loadProgress(sheetId: number): ProgressInfo | null {
  const cache = CacheService.getDocumentCache();
  const text = cache ? cache.get(PROGRESS_PREFIX + sheetId) : null;
  if (!text) return null;
  try {
    return JSON.parse(text) as ProgressInfo;
  } catch {
    return null;
  }
}
