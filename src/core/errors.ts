// One error type for everything the add-on reports to a person: a stable code plus a message
// that says what to do next. Every failure path ends up as one of these.

export type SyncErrorCode =
  | 'CONFIG' // bad base URL, missing connection, missing link
  | 'AUTH' // 401: key refused
  | 'FORBIDDEN' // 403: no access to the table app
  | 'NOT_FOUND' // 404
  | 'RATE_LIMITED' // 429 that outlasted our retries
  | 'SERVER' // 5xx that outlasted our retries
  | 'NETWORK' // no answer / dropped connection
  | 'BAD_RESPONSE' // an answer we cannot read (HTML, truncated JSON, wrong shape)
  | 'REJECTED' // 400/405/413/422 and other 4xx: the service refused what we sent
  | 'VALIDATION' // a value we refuse to send (caught before sending)
  | 'BUSY' // another sync holds the lock
  | 'QUOTA' // Apps Script daily quota
  | 'TIME' // out of execution time budget
  | 'SHEET' // the linked sheet is missing or malformed
  | 'INTERNAL';

export interface SyncErrorInit {
  status?: number;
  retryAfterMs?: number;
  /** For writes: the service may have committed even though we got no answer. */
  outcomeUnknown?: boolean;
}

export class SyncError extends Error {
  readonly code: SyncErrorCode;
  readonly status: number | undefined;
  readonly retryAfterMs: number | undefined;
  readonly outcomeUnknown: boolean;

  constructor(code: SyncErrorCode, message: string, init: SyncErrorInit = {}) {
    super(message);
    this.name = 'SyncError';
    this.code = code;
    this.status = init.status;
    this.retryAfterMs = init.retryAfterMs;
    this.outcomeUnknown = init.outcomeUnknown ?? false;
  }
}

export function isSyncError(value: unknown): value is SyncError {
  return value instanceof Error && (value as { name?: string }).name === 'SyncError' && 'code' in value;
}

/** Message for any thrown value, never exposing more than the error says. */
export function messageOf(value: unknown): string {
  if (value instanceof Error) return value.message;
  return String(value);
}

/** Any thrown value as a SyncError a person can act on (the key is never part of a message). */
/** (Apps Script's own failures are recognised by their wording: they reach the add-on as plain errors.) */
export function asSyncError(error: unknown): SyncError {
  if (isSyncError(error)) return error;
  const message = messageOf(error);
  if (/too many times for one day: urlfetch/i.test(message)) {
    return new SyncError(
      'QUOTA',
      "Apps Script's daily limit of requests to other services is used up. It resets 24 hours after the first request of the day: run it again then (a schedule goes on by itself). Nothing was lost.",
    );
  }
  if (/Exceeded maximum execution time/i.test(message)) {
    return new SyncError(
      'TIME',
      'The run hit Apps Script’s 6-minute limit; run it again to continue where it stopped.',
    );
  }
  return new SyncError('INTERNAL', `Something unexpected went wrong: ${message}`);
}
