// The contract between the simulator and its services: who is running, in which auth mode, and what it costs.
import type { SimClock } from './clock';

export type AuthModeName = 'NONE' | 'LIMITED' | 'FULL';
export type ExecutionKind = 'run' | 'client' | 'trigger' | 'simple';
export type Installation = 'bound' | 'addon';

/** What a service may know about the execution that calls it. */
export interface ExecutionInfo {
  readonly id: number;
  readonly user: string;
  readonly authMode: AuthModeName;
  readonly kind: ExecutionKind;
  readonly startedAt: number;
  readonly limitMs: number;
}

export interface MailRecord {
  to: string;
  subject: string;
  body: string;
  htmlBody?: string;
  name?: string;
  user: string;
  at: number;
}

/** An alert as the script opened it: `buttons` is the ButtonSet's name (OK, OK_CANCEL, YES_NO, YES_NO_CANCEL). */
export interface AlertRecord {
  title: string;
  prompt: string;
  buttons: string;
  at: number;
}

/** An alert waiting for a person, with the simulated time its execution is stopped at (Infinity outside one). */
export interface OpenAlert extends AlertRecord {
  endsAt: number;
}

/**
 * The button a person pressed (one of the set's, or CLOSE: the close button every dialog's title bar
 * has) and how long they read first: the execution's time runs on while an alert is open.
 */
export interface AlertAnswer {
  button: string;
  afterMs?: number;
}

export interface UiRecord {
  toasts: { msg: string; title: string; at: number }[];
  alerts: AlertRecord[];
  /**
   * The buttons a person presses in the next alerts, in order ('YES', 'NO', 'CANCEL', 'OK', 'CLOSE'),
   * each optionally after reading it for `afterMs`. Used first, before `answerAlert`.
   */
  alertAnswers?: Array<string | { button: string; afterMs: number }>;
  /**
   * The person in front of the dialog: called while the script is suspended at an alert no queued
   * answer is left for, and returns when they answer (the playground asks its page and blocks until
   * the page answers). When absent, an alert is answered OK (YES for YES_NO sets) at once: tests that
   * do not look at dialogs.
   */
  answerAlert?: (alert: OpenAlert) => AlertAnswer;
  sidebars: { title: string; html: string; at: number }[];
  dialogs: { title: string; html: string; modal: boolean; at: number }[];
  menus: { name: string; items: { caption: string; fn: string }[]; addon: boolean }[];
}

/** Services reach the simulator only through this interface. */
export interface Runtime {
  readonly clock: SimClock;
  readonly timeZone: string;
  readonly installation: Installation;
  readonly scriptId: string;
  readonly scriptName: string;
  readonly distDir: string;
  readonly defaultUser: string;
  readonly mail: MailRecord[];
  readonly ui: UiRecord;
  /** The innermost running execution, or undefined for calls made by tests/persons. */
  current(): ExecutionInfo | undefined;
  /** The active user's email (the default user outside executions). */
  activeUser(): string;
  authMode(): AuthModeName;
  /**
   * Throws the authorization error of §6 when the current auth mode is below `needs`
   * (`FULL` services fail in LIMITED and NONE; `LIMITED` ones fail only in NONE).
   */
  requireAuth(method: string, scope: string, needs: 'LIMITED' | 'FULL'): void;
  /** Charges simulated time to the current execution (clamped at its limit, which kills it). */
  spend(ms: number): void;
  /** Accounts sheet cells read/written (read cells charged at once, written ones with the queued writes). */
  chargeCells(read: number, written: number): void;
  /** Accounts HTTP requests: `count` requests sent in one call (a fetchAll wave, or one fetch). */
  chargeHttp(count: number, fetchAll: boolean): void;
  log(line: string): void;
  /** Releases of locks when an execution ends are driven by this hook list. */
  onExecutionEnd(fn: (exec: ExecutionInfo) => void): void;
  /** Evaluates source code in the current execution's context (HtmlTemplate.evaluate). */
  evaluateInContext(code: string, scope: Record<string, unknown>): unknown;
}
