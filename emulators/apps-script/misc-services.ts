// MailApp (records mail, daily recipient quota), Session, and Logger.
import { createHash } from 'node:crypto';
import { GasError, GasObject } from './realm';
import type { Runtime } from './runtime';

export const MAIL_DAILY_RECIPIENTS = 100;
const DAY = 86_400_000;

interface Window {
  start: number;
  count: number;
}

/** A per-user daily counter that resets 24 h after its first use (§3). */
export class DailyCounter {
  private readonly windows = new Map<string, Window>();
  constructor(private readonly limit: number) {}
  used(user: string, now: number): number {
    const w = this.windows.get(user);
    return w && now - w.start < DAY ? w.count : 0;
  }
  /** Adds `n` or returns false when that would pass the limit. */
  take(user: string, now: number, n: number): boolean {
    let w = this.windows.get(user);
    if (!w || now - w.start >= DAY) {
      w = { start: now, count: 0 };
      this.windows.set(user, w);
    }
    if (w.count + n > this.limit) return false;
    w.count += n;
    return true;
  }
  remaining(user: string, now: number): number {
    return this.limit - this.used(user, now);
  }
}

export class MailAppService extends GasObject {
  protected readonly _gasType = 'MailApp';
  constructor(
    private readonly _rt: Runtime,
    private readonly _quota: DailyCounter,
  ) {
    super();
  }
  /** sendEmail(to, subject, body, options?) or sendEmail({to, subject, body, htmlBody, name, cc, bcc}). */
  sendEmail(a: unknown, subject?: string, body?: string, options?: Record<string, unknown>): void {
    this._rt.requireAuth('MailApp.sendEmail', 'https://www.googleapis.com/auth/script.send_mail', 'FULL');
    const msg: Record<string, unknown> =
      a !== null && typeof a === 'object'
        ? { ...(a as Record<string, unknown>) }
        : { ...(options ?? {}), to: a, subject, body };
    const to = String(msg.to ?? '');
    const recipients = [to, msg.cc, msg.bcc]
      .filter((x) => typeof x === 'string' && x !== '')
      .flatMap((x) => String(x).split(','))
      .map((x) => x.trim())
      .filter(Boolean);
    if (recipients.length === 0) throw new GasError('Failed to send email: no recipient');
    for (const r of recipients) if (!/^[^@\s]+@[^@\s]+$/.test(r)) throw new GasError(`Invalid email: ${r}`);
    if (recipients.length > 50) throw new GasError('Limit Exceeded: Email Recipients Per Message.');
    const user = this._rt.activeUser();
    if (!this._quota.take(user, this._rt.clock.now(), recipients.length)) {
      throw new GasError('Service invoked too many times for one day: email.');
    }
    const record: Runtime['mail'][number] = {
      to,
      subject: String(msg.subject ?? ''),
      body: String(msg.body ?? ''),
      user,
      at: this._rt.clock.now(),
    };
    if (msg.htmlBody !== undefined) record.htmlBody = String(msg.htmlBody);
    if (msg.name !== undefined) record.name = String(msg.name);
    this._rt.mail.push(record);
  }
  getRemainingDailyQuota(): number {
    return this._quota.remaining(this._rt.activeUser(), this._rt.clock.now());
  }
}

export class UserImpl extends GasObject {
  protected readonly _gasType = 'User';
  constructor(private readonly _email: string) {
    super();
  }
  getEmail(): string {
    return this._email;
  }
}

export class SessionService extends GasObject {
  protected readonly _gasType = 'Session';
  constructor(private readonly _rt: Runtime) {
    super();
  }
  /** §6: in AuthMode.NONE the user is not known (empty email). */
  getActiveUser(): UserImpl {
    return new UserImpl(this._rt.authMode() === 'NONE' ? '' : this._rt.activeUser());
  }
  getEffectiveUser(): UserImpl {
    return new UserImpl(this._rt.authMode() === 'NONE' ? '' : this._rt.activeUser());
  }
  getScriptTimeZone(): string {
    return this._rt.timeZone;
  }
  getTimeZone(): string {
    return this._rt.timeZone;
  }
  getActiveUserLocale(): string {
    return 'en';
  }
  getTemporaryActiveUserKey(): string {
    return createHash('sha256')
      .update(`${this._rt.scriptId}:${this._rt.activeUser()}`)
      .digest('base64')
      .slice(0, 43);
  }
}

/** Logger of one execution: `getLog()` returns what this execution logged. */
export class LoggerService extends GasObject {
  protected readonly _gasType = 'Logger';
  private _lines: string[] = [];
  constructor(private readonly _rt: Runtime) {
    super();
  }
  log(data: unknown, ...values: unknown[]): LoggerService {
    let text = typeof data === 'string' ? data : formatForLog(data);
    if (values.length) {
      let i = 0;
      text = text.replace(/%s|%d/g, (m) => (i < values.length ? formatForLog(values[i++]) : m));
    }
    this._lines.push(text);
    this._rt.log(text);
    return this;
  }
  getLog(): string {
    return this._lines.map((l) => `${l}\n`).join('');
  }
  clear(): void {
    this._lines = [];
  }
}

/** Renders a (possibly foreign-realm) value the way Apps Script logs print it. */
export function formatForLog(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v === undefined) return 'undefined';
  if (typeof v === 'function') return String(v);
  if (v !== null && typeof v === 'object') {
    if (Object.prototype.toString.call(v) === '[object Error]') {
      const e = v as Error;
      return `${e.name}: ${e.message}`;
    }
    if (Object.prototype.toString.call(v) === '[object Date]') return String(v);
    try {
      return JSON.stringify(v);
    } catch {
      return String(v);
    }
  }
  return String(v);
}
