// What the sync stores between runs (JSON-safe): the link of a sheet to a table, and the job of an
// operation that continues in a later execution.
import type { LinkInfo, ScheduleInfo } from '../shared/types';

/** A link plus what the sync keeps about it. */
export interface LinkRecord extends Omit<LinkInfo, 'showEmails' | 'lastSyncLocal' | 'live'> {
  /** Name of the hidden sheet holding the base. */
  baseSheetName: string;
  /** Deleted columns: ids that were table columns once and are not live now, kept so their sheet columns stay unsynced. */
  deletedColumnIds: string[];
  /**
   * Columns a pull added (back) and has not finished filling with the service's values: their empty
   * cells are not edits (a push sends nothing of them) until a pull completes, even after a kill.
   */
  freshColumns?: string[];
  /**
   * Columns the service added under a header the sheet already used for a person's own column: theirs,
   * never synced, until they rename it (then a pull adds the service's column).
   */
  ownColumns?: string[];
  /** Email of the person whose key and triggers serve this link's schedule. */
  owner: string | null;
  schedule: StoredSchedule | null;
  /** Show createdBy / lModBy as e-mails (from the account's members) instead of user ids. */
  showEmails?: boolean;
  /**
   * When (ISO) the service answered a delete as an operation it does not serve: until a day later,
   * a review offers only bringing lines back (then deleting is tried again).
   */
  deleteUnsupportedAt?: string;
  /**
   * The largest lMod a finished pull has seen of this table (the service's own time): the next pull
   * asks the poll for the rows changed since it, less an overlap (`pull/poll.ts`).
   */
  pollCursor?: string;
  /** When (ISO) the last pull that listed the whole table finished: the poll is used for a day after it. */
  fullListingAt?: string;
  /**
   * The fingerprint of what the poll from the cursor answers while nothing changed (`pull/live-check.ts`):
   * a live check that gets exactly this back writes nothing.
   */
  pollEcho?: string;
  /** A digest of the table's columns as last read, and when (ISO): the live check reads them again now and then. */
  schemaDigest?: string;
  schemaReadAt?: string;
  /**
   * "Send edits as I type": the people whose edit trigger pushes this sheet's edited lines, in the
   * order they turned it on. Every edit goes with the first one's key whose key works; the others
   * stand by for when that one turns it off, disconnects or has their key refused (as a schedule runs
   * with its owner's key).
   */
  live?: LiveSender[];
}

/** A person who turned on live sync for a link (their trigger and API key send). */
export interface LiveSender {
  /** The service e-mail and user id of their connection, and their name as the sidebar shows it. */
  email: string;
  userId: string;
  name: string;
  /** Their edit trigger's unique id: a firing of it knows whose it is even when their connection is gone. */
  triggerId?: string;
  /**
   * When (ISO) their key stopped sending: refused by the service, or gone (they disconnected). The
   * next sender in order sends until they connect again (servingSender, core/live-sync.ts).
   */
  outSince?: string;
  outWhy?: 'refused' | 'disconnected';
}

export interface StoredSchedule
  extends Omit<ScheduleInfo, 'lastRunLocal' | 'nextRunLocal' | 'timeZone' | 'ownerName' | 'ownedByYou'> {
  triggerId: string | null;
  /** ISO time the schedule was set (estimates the first run). */
  createdAt?: string;
  /** The service e-mail of the person whose trigger and API key run the schedule. */
  owner: string;
  /** The service user id of that person (older records lack it). */
  ownerUserId?: string;
  /** "First Last <email>" of that person, as the sidebar shows it. */
  ownerName?: string;
  /** The service e-mail to notify on failures (from /user/me; no extra scope needed). */
  notifyEmail: string;
  notifiedFailure: boolean;
  /** A held push was mailed; cleared by the next run that holds nothing (one mail per held stretch). */
  notifiedHeld?: boolean;
}

/** An operation that goes on in a later execution: where it stands and how it continues. */
export interface JobRecord {
  operation: 'pull' | 'push' | 'sync';
  /** For sync: the push part is done and the pull is running. */
  phase: 'push' | 'pull';
  pullId: string;
  nextOffset: number;
  /** Column ids the pull added (back) to the sheet, which take the service's values. */
  freshColumns?: string[];
  /**
   * A push's listing that did not fit its execution: where it goes on, and the rows found so far that a
   * lost create may have made.
   */
  pushListing?: {
    nextOffset: number;
    candidates: Array<{ row: Record<string, unknown>; digests: Record<string, number> }>;
  };
  /** The caller confirmed whatever is held (`true`): the continuation sends held edits too. */
  confirmHeld?: boolean;
  startedAt: string;
  executions: number;
  triggerId: string | null;
  scheduled: boolean;
  owner: string;
  totals: Record<string, number>;
  /**
   * Another operation's job this one displaced (a push that must continue while a pull goes on):
   * it resumes, with a new trigger, once this one finishes.
   */
  displaced?: JobRecord;
}
