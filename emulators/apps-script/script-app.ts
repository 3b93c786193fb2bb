// ScriptApp (§6, §8): time-driven triggers with the allowed intervals, the 20-per-user cap and add-on rules.
import { zonedParts, zonedTimeToEpoch } from './cell-values';
import { GasError, GasObject, isDate } from './realm';
import type { Runtime } from './runtime';

export const MAX_TRIGGERS_PER_USER = 20;
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const ALLOWED_MINUTES = [1, 5, 10, 15, 30];
const UI_HOURS = [1, 2, 4, 6, 8, 12];

/** One installed trigger (persists across executions). */
export interface TriggerRecord {
  uid: string;
  fn: string;
  owner: string;
  source: 'CLOCK' | 'SPREADSHEETS';
  eventType: 'CLOCK' | 'ON_OPEN' | 'ON_EDIT' | 'ON_CHANGE' | 'ON_FORM_SUBMIT';
  sourceId: string | null;
  documentId: string;
  timeZone: string;
  /** Recurring interval; undefined for one-shot (`after`/`at`/`atDate`). */
  everyMs?: number;
  nextAt?: number;
  /** A one-shot trigger that fired stays listed (and counted) until deleted (§8, UNCONFIRMED). */
  fired: boolean;
}

export class TriggerTable {
  readonly list: TriggerRecord[] = [];
  private seq = 0;
  nextUid(): string {
    this.seq++;
    return String(4_000_000_000 + this.seq * 7_919);
  }
  ofUser(user: string): TriggerRecord[] {
    return this.list.filter((t) => t.owner === user);
  }
  remove(uid: string): void {
    const i = this.list.findIndex((t) => t.uid === uid);
    if (i >= 0) this.list.splice(i, 1);
  }
}

/** A Trigger handle as scripts see it. */
export class TriggerImpl extends GasObject {
  protected readonly _gasType = 'Trigger';
  constructor(readonly _rec: TriggerRecord) {
    super();
  }
  getUniqueId(): string {
    return this._rec.uid;
  }
  getHandlerFunction(): string {
    return this._rec.fn;
  }
  getEventType(): string {
    return this._rec.eventType;
  }
  getTriggerSource(): string {
    return this._rec.source;
  }
  getTriggerSourceId(): string | null {
    return this._rec.sourceId;
  }
}

interface ClockSpec {
  everyMinutes?: number;
  everyHours?: number;
  everyDays?: number;
  everyWeeks?: number;
  atHour?: number;
  nearMinute?: number;
  weekDay?: number;
  afterMs?: number;
  atMs?: number;
  timeZone?: string;
}

const WEEKDAY_NUMBERS: Record<string, number> = {
  MONDAY: 1,
  TUESDAY: 2,
  WEDNESDAY: 3,
  THURSDAY: 4,
  FRIDAY: 5,
  SATURDAY: 6,
  SUNDAY: 7,
};

export class ClockTriggerBuilderImpl extends GasObject {
  protected readonly _gasType = 'ClockTriggerBuilder';
  private readonly _spec: ClockSpec = {};
  constructor(
    private readonly _app: ScriptAppService,
    private readonly _fn: string,
  ) {
    super();
  }
  everyMinutes(n: number): ClockTriggerBuilderImpl {
    // §8: "n must be 1, 5, 10, 15 or 30".
    if (!ALLOWED_MINUTES.includes(n))
      throw new GasError('The value passed to everyMinutes must be one of 1, 5, 10, 15 or 30.');
    this._spec.everyMinutes = n;
    return this;
  }
  everyHours(n: number): ClockTriggerBuilderImpl {
    if (!Number.isInteger(n) || n < 1) throw new GasError('Invalid argument: hours');
    // §8 UNCONFIRMED: the UI offers 1, 2, 4, 6, 8, 12; other values are accepted with a warning.
    if (!UI_HOURS.includes(n))
      this._app._rt.log(
        `[simulator warning] everyHours(${n}): the trigger UI only offers 1, 2, 4, 6, 8 or 12`,
      );
    this._spec.everyHours = n;
    return this;
  }
  everyDays(n: number): ClockTriggerBuilderImpl {
    if (!Number.isInteger(n) || n < 1) throw new GasError('Invalid argument: days');
    this._spec.everyDays = n;
    return this;
  }
  everyWeeks(n: number): ClockTriggerBuilderImpl {
    if (!Number.isInteger(n) || n < 1) throw new GasError('Invalid argument: weeks');
    this._spec.everyWeeks = n;
    return this;
  }
  atHour(hour: number): ClockTriggerBuilderImpl {
    if (!Number.isInteger(hour) || hour < 0 || hour > 23) throw new GasError('Invalid argument: hour');
    this._spec.atHour = hour;
    return this;
  }
  nearMinute(minute: number): ClockTriggerBuilderImpl {
    if (!Number.isInteger(minute) || minute < 0 || minute > 59)
      throw new GasError('Invalid argument: minute');
    this._spec.nearMinute = minute;
    return this;
  }
  onWeekDay(day: string): ClockTriggerBuilderImpl {
    const n = WEEKDAY_NUMBERS[String(day)];
    if (!n) throw new GasError('Invalid argument: day');
    this._spec.weekDay = n;
    return this;
  }
  after(durationMilliseconds: number): ClockTriggerBuilderImpl {
    this._spec.afterMs = Math.max(0, Number(durationMilliseconds));
    return this;
  }
  at(date: Date): ClockTriggerBuilderImpl {
    if (!isDate(date))
      throw new GasError(
        "The parameters (String) don't match the method signature for ScriptApp.ClockTriggerBuilder.at.",
      );
    this._spec.atMs = date.getTime();
    return this;
  }
  atDate(year: number, month: number, day: number): ClockTriggerBuilderImpl {
    this._spec.atMs = zonedTimeToEpoch(
      year,
      month,
      day,
      0,
      0,
      0,
      0,
      this._spec.timeZone ?? this._app._rt.timeZone,
    );
    return this;
  }
  inTimezone(timezone: string): ClockTriggerBuilderImpl {
    this._spec.timeZone = String(timezone);
    return this;
  }
  create(): TriggerImpl {
    return this._app._create(this._fn, this._spec);
  }
}

export class SpreadsheetTriggerBuilderImpl extends GasObject {
  protected readonly _gasType = 'SpreadsheetTriggerBuilder';
  private _event: TriggerRecord['eventType'] = 'ON_OPEN';
  constructor(
    private readonly _app: ScriptAppService,
    private readonly _fn: string,
    private readonly _sourceId: string,
  ) {
    super();
  }
  onOpen(): SpreadsheetTriggerBuilderImpl {
    this._event = 'ON_OPEN';
    return this;
  }
  onEdit(): SpreadsheetTriggerBuilderImpl {
    this._event = 'ON_EDIT';
    return this;
  }
  onChange(): SpreadsheetTriggerBuilderImpl {
    this._event = 'ON_CHANGE';
    return this;
  }
  onFormSubmit(): SpreadsheetTriggerBuilderImpl {
    this._event = 'ON_FORM_SUBMIT';
    return this;
  }
  create(): TriggerImpl {
    return this._app._createSpreadsheetTrigger(this._fn, this._event, this._sourceId);
  }
}

export class TriggerBuilderImpl extends GasObject {
  protected readonly _gasType = 'TriggerBuilder';
  constructor(
    private readonly _app: ScriptAppService,
    private readonly _fn: string,
  ) {
    super();
  }
  timeBased(): ClockTriggerBuilderImpl {
    return new ClockTriggerBuilderImpl(this._app, this._fn);
  }
  forSpreadsheet(sheet: { getId(): string } | string): SpreadsheetTriggerBuilderImpl {
    const id = typeof sheet === 'string' ? sheet : sheet.getId();
    return new SpreadsheetTriggerBuilderImpl(this._app, this._fn, id);
  }
}

export class ScriptAppService extends GasObject {
  protected readonly _gasType = 'ScriptApp';
  readonly AuthMode = { NONE: 'NONE', LIMITED: 'LIMITED', FULL: 'FULL', CUSTOM_FUNCTION: 'CUSTOM_FUNCTION' };
  readonly AuthorizationStatus = { REQUIRED: 'REQUIRED', NOT_REQUIRED: 'NOT_REQUIRED' };
  readonly TriggerSource = {
    SPREADSHEETS: 'SPREADSHEETS',
    CLOCK: 'CLOCK',
    FORMS: 'FORMS',
    DOCUMENTS: 'DOCUMENTS',
    CALENDAR: 'CALENDAR',
  };
  readonly EventType = {
    CLOCK: 'CLOCK',
    ON_OPEN: 'ON_OPEN',
    ON_EDIT: 'ON_EDIT',
    ON_FORM_SUBMIT: 'ON_FORM_SUBMIT',
    ON_CHANGE: 'ON_CHANGE',
  };
  readonly InstallationSource = {
    APPS_MARKETPLACE_DOMAIN_ADD_ON: 'APPS_MARKETPLACE_DOMAIN_ADD_ON',
    NONE: 'NONE',
    WEB_STORE_ADD_ON: 'WEB_STORE_ADD_ON',
  };
  readonly WeekDay = {
    MONDAY: 'MONDAY',
    TUESDAY: 'TUESDAY',
    WEDNESDAY: 'WEDNESDAY',
    THURSDAY: 'THURSDAY',
    FRIDAY: 'FRIDAY',
    SATURDAY: 'SATURDAY',
    SUNDAY: 'SUNDAY',
  };

  constructor(
    readonly _rt: Runtime,
    readonly _table: TriggerTable,
    private readonly _documentId: string,
  ) {
    super();
  }

  newTrigger(functionName: string): TriggerBuilderImpl {
    // §6: simple triggers (LIMITED) and NONE cannot create triggers.
    this._rt.requireAuth('ScriptApp.newTrigger', 'https://www.googleapis.com/auth/script.scriptapp', 'FULL');
    return new TriggerBuilderImpl(this, String(functionName));
  }

  private _checkCount(user: string): void {
    if (this._table.ofUser(user).length >= MAX_TRIGGERS_PER_USER) {
      throw new GasError(
        'This script has too many triggers. Triggers must be deleted from the script before more can be added.',
      );
    }
  }

  _create(fn: string, spec: ClockSpec): TriggerImpl {
    const rt = this._rt;
    const user = rt.activeUser();
    const addon = rt.installation === 'addon';
    const now = rt.clock.now();
    const tz = spec.timeZone ?? rt.timeZone;
    let everyMs: number | undefined;
    let nextAt: number;
    if (spec.everyMinutes !== undefined) {
      everyMs = spec.everyMinutes * MINUTE;
      nextAt = now + everyMs;
    } else if (spec.everyHours !== undefined) {
      everyMs = spec.everyHours * HOUR;
      nextAt = now + everyMs;
    } else if (spec.everyDays !== undefined || spec.everyWeeks !== undefined) {
      everyMs = spec.everyDays !== undefined ? spec.everyDays * DAY : (spec.everyWeeks as number) * 7 * DAY;
      nextAt =
        spec.atHour === undefined && spec.weekDay === undefined ? now + everyMs : nextWallTime(now, spec, tz);
    } else if (spec.afterMs !== undefined) {
      nextAt = now + spec.afterMs;
    } else if (spec.atMs !== undefined) {
      nextAt = spec.atMs;
    } else {
      throw new GasError(
        'Trigger frequency must be set (everyMinutes, everyHours, everyDays, everyWeeks, after or at).',
      );
    }
    if (addon) {
      // §6/§8: add-on time-driven triggers run at most once per hour; the stricter reading also refuses
      // one-shot triggers sooner than one hour.
      if ((everyMs !== undefined && everyMs < HOUR) || (everyMs === undefined && nextAt - now < HOUR)) {
        throw new GasError('Add-ons can use a time-driven trigger at most once per hour.');
      }
      const mine = this._table.list.filter(
        (t) => t.owner === user && t.documentId === this._documentId && t.source === 'CLOCK',
      );
      if (mine.length >= 1) {
        throw new GasError(
          'This add-on has created too many time-based triggers in this document for this Google user account.',
        );
      }
    }
    this._checkCount(user);
    const rec: TriggerRecord = {
      uid: this._table.nextUid(),
      fn,
      owner: user,
      source: 'CLOCK',
      eventType: 'CLOCK',
      sourceId: null,
      documentId: this._documentId,
      timeZone: tz,
      nextAt,
      fired: false,
    };
    if (everyMs !== undefined) rec.everyMs = everyMs;
    this._table.list.push(rec);
    return new TriggerImpl(rec);
  }

  _createSpreadsheetTrigger(
    fn: string,
    eventType: TriggerRecord['eventType'],
    sourceId: string,
  ): TriggerImpl {
    const user = this._rt.activeUser();
    if (this._rt.installation === 'addon') {
      // §6: an add-on's triggers serve only the file it is used in.
      if (sourceId !== this._documentId)
        throw new GasError('Add-ons can only create triggers for the document they are used in.');
      const same = this._table.list.filter(
        (t) => t.owner === user && t.documentId === this._documentId && t.eventType === eventType,
      );
      if (same.length >= 1)
        throw new GasError(
          'This add-on has created too many triggers of this type in this document for this Google user account.',
        );
    }
    this._checkCount(user);
    const rec: TriggerRecord = {
      uid: this._table.nextUid(),
      fn,
      owner: user,
      source: 'SPREADSHEETS',
      eventType,
      sourceId,
      documentId: this._documentId,
      timeZone: this._rt.timeZone,
      fired: false,
    };
    this._table.list.push(rec);
    return new TriggerImpl(rec);
  }

  getProjectTriggers(): TriggerImpl[] {
    return this._table.ofUser(this._rt.activeUser()).map((t) => new TriggerImpl(t));
  }
  getUserTriggers(document: { getId(): string }): TriggerImpl[] {
    const id = document && typeof document.getId === 'function' ? document.getId() : this._documentId;
    return this._table
      .ofUser(this._rt.activeUser())
      .filter((t) => t.documentId === id)
      .map((t) => new TriggerImpl(t));
  }
  deleteTrigger(trigger: TriggerImpl): void {
    if (!(trigger instanceof TriggerImpl))
      throw new GasError("The parameters don't match the method signature for ScriptApp.deleteTrigger.");
    if (trigger._rec.owner !== this._rt.activeUser()) return;
    this._table.remove(trigger._rec.uid);
  }
  getInstallationSource(): string {
    return this._rt.installation === 'addon' ? 'WEB_STORE_ADD_ON' : 'NONE';
  }
  getAuthorizationInfo(): GasObject {
    return new AuthorizationInfoImpl();
  }
  getScriptId(): string {
    return this._rt.scriptId;
  }
  getOAuthToken(): string {
    return `ya29.simulated-${Buffer.from(this._rt.activeUser()).toString('hex').slice(0, 16)}`;
  }
  getIdentityToken(): string {
    return 'simulated.identity.token';
  }
  requireScopes(): void {}
  requireAllScopes(): void {}
  getService(): GasObject {
    return new AuthorizationInfoImpl();
  }
}

class AuthorizationInfoImpl extends GasObject {
  protected readonly _gasType = 'AuthorizationInfo';
  getAuthorizationStatus(): string {
    return 'NOT_REQUIRED';
  }
  getAuthorizationUrl(): string | null {
    return null;
  }
  getAuthorizedScopes(): string[] {
    return [];
  }
}

/** The next wall-clock time matching atHour/nearMinute/weekDay after `now`, in the trigger's zone. */
function nextWallTime(now: number, spec: ClockSpec, tz: string): number {
  const p = zonedParts(now, tz);
  const hour = spec.atHour ?? p.hour;
  const minute = spec.nearMinute ?? 0;
  for (let d = 0; d < 15; d++) {
    const base = zonedParts(now + d * DAY, tz);
    const at = zonedTimeToEpoch(base.year, base.month, base.day, hour, minute, 0, 0, tz);
    if (at <= now) continue;
    if (spec.weekDay !== undefined && zonedParts(at, tz).weekday !== spec.weekDay) continue;
    return at;
  }
  return now + DAY;
}

/** The §8 time-driven event object fields for a firing at `at`. */
export function timeDrivenEvent(rec: TriggerRecord, at: number): Record<string, unknown> {
  const p = zonedParts(at, rec.timeZone);
  const jan1 = zonedTimeToEpoch(p.year, 1, 1, 0, 0, 0, 0, rec.timeZone);
  const week = Math.floor((at - jan1) / (7 * DAY)) + 1;
  return {
    authMode: 'FULL',
    year: p.year,
    month: p.month,
    'day-of-month': p.day,
    'day-of-week': p.weekday,
    hour: p.hour,
    minute: p.minute,
    second: p.second,
    timezone: rec.timeZone,
    triggerUid: rec.uid,
    'week-of-year': week,
  };
}
