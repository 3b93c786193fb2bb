// The Apps Script simulator: runs a script in a fresh vm context per execution against persistent simulated services.
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';
import { CacheServiceImpl } from './cache';
import { ClientCallError, copyForClient } from './client-run';
import { SimClock } from './clock';
import { type CostModel, type CostOptions, httpWaveMs, resolveCosts, sheetCallKind } from './costs';
import { HtmlServiceImpl, HtmlTemplateImpl, templateEscape, UiImpl } from './html';
import { LockServiceImpl, LockTable } from './lock';
import {
  DailyCounter,
  formatForLog,
  LoggerService,
  MAIL_DAILY_RECIPIENTS,
  MailAppService,
  SessionService,
  UserImpl,
} from './misc-services';
import { type PersonEdit, PersonActions } from './person';
import { warnPersonEdit } from './protection';
import { PropertiesServiceImpl, PropertyStores } from './properties';
import { fromRealm, GasError, GasObject, KilledError, type Realm, realmError } from './realm';
import type {
  AuthModeName,
  ExecutionInfo,
  ExecutionKind,
  Installation,
  MailRecord,
  Runtime,
  UiRecord,
} from './runtime';
import { assertScope, readManifestScopes } from './scopes';
import { ScriptAppService, TriggerTable, timeDrivenEvent } from './script-app';
import { checkScript } from './script-check';
import { RangeImpl, type SheetSnapshot, SpreadsheetAppService, SpreadsheetImpl } from './spreadsheet';
import { CONSUMER_TRIGGER_RUNTIME_MS, TRIGGER_RUNTIME_MESSAGE, TriggerRuntimeQuota } from './trigger-quota';
import { CONSUMER_URL_FETCH_DAILY, type FetchRequestInfo, UrlFetchAppService } from './url-fetch';
import { UtilitiesService } from './utilities';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SIMPLE_TRIGGERS = ['onOpen', 'onEdit', 'onInstall', 'onSelectionChange'];
const SIMPLE_TRIGGER_LIMIT_MS = 30_000;
const KILL_MESSAGE = 'Exceeded maximum execution time';

export interface SimulatorOptions {
  /** JS source; default: `<distDir>/Code.js`. */
  code?: string;
  /** Where HtmlService files and appsscript.json live; default `<repo>/dist`. */
  distDir?: string;
  /** Script and spreadsheet time zone; default from `<distDir>/appsscript.json`, else Etc/UTC. */
  timeZone?: string;
  /** Known users; the first is the default active user. Default `[{ email: 'alice@example.com' }]`. */
  users?: { email: string }[];
  /** Trigger and menu rules differ for add-ons (§6, §8). Default 'bound'. */
  installation?: Installation;
  /**
   * Modelled costs charged to the simulated clock: a profile name ('optimistic', 'central',
   * 'pessimistic'), or `{ profile?, ...overrides }` (see costs.ts). Default: nothing charged.
   */
  costs?: CostOptions;
  /**
   * The script's own JavaScript time (this process's CPU outside service calls, times
   * `costs.cpuFactor`) advances the simulated clock. Default true; false gives a deterministic clock.
   */
  countRealTime?: boolean;
  /** Time source of the script's own time, in ms (default: process CPU time); tests may fix it. */
  scriptTimeSource?: () => number;
  /** Simulated start time (epoch ms). Default Date.now(). */
  startTime?: number;
  /** URL Fetch calls per user per day (§3). Default 20,000 (consumer); Workspace 100,000. */
  urlFetchDailyQuota?: number;
  /** Runtime limit of ordinary executions. Default 360,000 (6 min); simple triggers get 30 s. */
  executionLimitMs?: number;
  /** Hosts UrlFetchApp may reach. Default loopback only (real Apps Script cannot reach loopback). */
  allowedFetchHosts?: string[];
  /** Real parallelism cap of fetchAll. Default 32. */
  fetchConcurrency?: number;
  /** Sends a fetchAll's requests one at a time in this order (see UrlFetchConfig.dispatchOrder). */
  fetchDispatchOrder?: (count: number) => number[];
  /** Per-request timeout of real HTTP. Default 60,000 ms (§4, UNCONFIRMED). */
  fetchTimeoutMs?: number;
  /**
   * Simulated time a request that timed out has cost the execution: UrlFetchApp's own deadline
   * (about 60 s, §4). Default `fetchTimeoutMs`; a test may wait briefly in real time and still
   * charge the platform's full minute.
   */
  fetchDeadlineMs?: number;
  /** Called (outside the script's realm) before each fetch/fetchAll is sent; may start nested runs. */
  onBeforeFetch?: (requests: FetchRequestInfo[], fetchAll: boolean) => void;
  /** Spreadsheet title. Default 'Untitled spreadsheet'. */
  spreadsheetName?: string;
  /** Project name, used as the add-on menu caption. Default 'Table App Sync'. */
  scriptName?: string;
  /**
   * The manifest's `oauthScopes`: a call to a member whose scope is missing throws Google's error.
   * Default: `<distDir>/appsscript.json`'s list; `null` (or a manifest without the field) allows all.
   */
  oauthScopes?: readonly string[] | null;
  /**
   * Clock triggers that come due while an execution runs fire at once, as nested executions that
   * contend for locks (Apps Script does not promise to skip them, §12). Default true.
   */
  overlappingTriggers?: boolean;
  /**
   * Daily trigger runtime per user (§3): 90 min consumer (default), 6 h Workspace. Once used up, clock
   * triggers do not run; their result carries Google's message.
   */
  triggerRuntimeDailyMs?: number;
  /**
   * Significant digits a number cell keeps (e.g. 15, as Sheets is reported to); default: the full
   * double (UNCONFIRMED which one Sheets does; the add-on's self-check reports it).
   */
  cellSignificantDigits?: number;
  /**
   * Whether a person's sort (Data > Sort sheet or range) fires the installable edit triggers: UNCONFIRMED
   * (apps-script-facts §13), so tests run the product under both readings. Default false.
   */
  sortFiresEdit?: boolean;
}

/** One firing of an installable edit trigger (§13): an execution of its own, as the trigger's creator. */
export interface EditFiring {
  uid: string;
  fn: string;
  owner: string;
  /** Whether another execution was running (waiting) when the person's edit fired it. */
  overlapped: boolean;
  result: ExecutionResult;
}

export interface RunOptions {
  user?: string;
  authMode?: AuthModeName;
  /** The event object passed as the first argument (converted into the script's realm). */
  event?: object;
  /** Chaos: kill after N successful service calls, or once N simulated ms have passed. */
  kill?: { afterServiceCalls?: number; atSimulatedMs?: number };
}

export interface ExecutionStats {
  httpRequests: number;
  fetchAllCalls: number;
  sheetCalls: number;
  /** Spreadsheet calls that waited for the spreadsheet (a round trip), counted under every cost model. */
  sheetWaits: number;
  cellsRead: number;
  cellsWritten: number;
  serviceCalls: number;
  /** Simulated ms charged for HTTP, for Spreadsheet calls and cells, and for the script's own JavaScript. */
  httpMs: number;
  sheetMs: number;
  scriptMs: number;
}

export interface ExecutionResult {
  ok: boolean;
  value?: unknown;
  error?: { name: string; message: string; stack?: string };
  /** Hit the time limit or the kill option (even if the script caught the error). */
  killed: boolean;
  startedAt: number;
  endedAt: number;
  simulatedMs: number;
  stats: ExecutionStats;
  logs: string[];
}

export interface TriggerInfo {
  uid: string;
  fn: string;
  owner: string;
  eventType: string;
  source: string;
  timeZone: string;
  everyMs?: number;
  nextAt?: number;
  fired: boolean;
}

export interface SimulatorStats {
  executions: number;
  httpRequests: number;
  fetchAllCalls: number;
  sheetCalls: number;
  cellsRead: number;
  cellsWritten: number;
  urlFetchToday: number;
}

const newStats = (): ExecutionStats => ({
  httpRequests: 0,
  fetchAllCalls: 0,
  sheetCalls: 0,
  sheetWaits: 0,
  cellsRead: 0,
  cellsWritten: 0,
  serviceCalls: 0,
  httpMs: 0,
  sheetMs: 0,
  scriptMs: 0,
});

/** Installed once per context: the Date wrapper on the simulated clock, console, and a global installer. */
const BOOTSTRAP = `(function (simNow, simLog) {
  var RealDate = Date;
  var SimDate = function Date(year, monthIndex, day, hours, minutes, seconds, ms) {
    if (!new.target) return new RealDate(simNow()).toString();
    var args = arguments.length === 0 ? [simNow()] : Array.prototype.slice.call(arguments);
    return Reflect.construct(RealDate, args, new.target);
  };
  SimDate.prototype = RealDate.prototype;
  Object.defineProperty(RealDate.prototype, 'constructor', { value: SimDate, writable: true, configurable: true });
  SimDate.now = function now() { return simNow(); };
  SimDate.parse = RealDate.parse;
  SimDate.UTC = RealDate.UTC;
  Object.defineProperty(globalThis, 'Date', { value: SimDate, writable: true, configurable: true });
  var c = {};
  ['log', 'info', 'warn', 'error', 'debug'].forEach(function (level) {
    c[level] = function () { simLog(level, Array.prototype.slice.call(arguments)); };
  });
  c.time = c.timeEnd = c.group = c.groupEnd = function () {};
  Object.defineProperty(globalThis, 'console', { value: c, writable: true, configurable: true });
  return function install(map) {
    Object.keys(map).forEach(function (k) {
      Object.defineProperty(globalThis, k, { value: map[k], writable: true, configurable: true });
    });
  };
})`;

/** One execution: its own context and realm, proxies onto the shared services, budget and stats. */
class Execution implements ExecutionInfo {
  killed = false;
  readonly stats = newStats();
  readonly logs: string[] = [];
  /** Queued Spreadsheet calls and written cells not yet charged (charged at the next wait or the end). */
  queuedMs = 0;
  realm!: Realm;
  context!: vm.Context;
  private readonly proxies = new WeakMap<object, object>();
  private readonly targets = new WeakMap<object, object>();

  constructor(
    private readonly sim: AppsScriptSimulator,
    readonly id: number,
    readonly user: string,
    readonly authMode: AuthModeName,
    readonly kind: ExecutionKind,
    readonly startedAt: number,
    readonly limitMs: number,
    readonly kill: RunOptions['kill'],
  ) {}

  /** Milliseconds this execution may still spend before it is killed. */
  remaining(now: number): number {
    let left = this.startedAt + this.limitMs - now;
    if (this.kill?.atSimulatedMs !== undefined)
      left = Math.min(left, this.startedAt + this.kill.atSimulatedMs - now);
    return left;
  }

  die(): never {
    this.killed = true;
    throw new KilledError();
  }

  checkBudget(): void {
    if (this.killed) this.die();
    const now = this.sim.clock.now();
    if (now - this.startedAt > this.limitMs) this.die();
    if (this.kill?.atSimulatedMs !== undefined && now - this.startedAt >= this.kill.atSimulatedMs) this.die();
  }

  unwrap = (v: object): object | undefined => this.targets.get(v);

  /** Host value -> this realm: arrays, Dates and plain objects are rebuilt; service objects become proxies. */
  toRealm(v: unknown): unknown {
    if (v === null || typeof v !== 'object') return v;
    if (v instanceof GasObject) return this.wrap(v);
    if (this.targets.has(v)) return v;
    const R = this.realm;
    if (Array.isArray(v)) {
      const out = new R.Array(v.length);
      for (let i = 0; i < v.length; i++) {
        const x = v[i];
        out[i] = x === null || typeof x !== 'object' ? x : this.toRealm(x);
      }
      return out;
    }
    if (v instanceof Date) return new R.Date(v.getTime());
    if (
      Object.getPrototypeOf(v) === R.Object.prototype ||
      Object.prototype.toString.call(v) === '[object Error]'
    )
      return v;
    const out = new R.Object() as Record<string, unknown>;
    for (const key of Object.keys(v)) out[key] = this.toRealm((v as Record<string, unknown>)[key]);
    return out;
  }

  toRealmError(e: unknown): unknown {
    if (e instanceof this.realm.Error) return e;
    if (e instanceof KilledError) this.killed = true;
    if (e instanceof Error) return realmError(this.realm, e.message, 'Exception');
    return e;
  }

  /** Every service method call goes through here: counting, budget, argument unwrapping, realm conversion. */
  callService(
    target: GasObject,
    fn: (...a: unknown[]) => unknown,
    args: unknown[],
    method = fn.name,
  ): unknown {
    const sim = this.sim;
    // The service's own work is modelled by its costs, not measured.
    const scriptWasCounting = sim.clock.countScript(false);
    try {
      if (this.killed) this.die();
      this.stats.serviceCalls++;
      if (this.kill?.afterServiceCalls !== undefined && this.stats.serviceCalls > this.kill.afterServiceCalls)
        this.die();
      if (target._family === 'sheet') {
        this.stats.sheetCalls++;
        sim._chargeSheetCall(
          this,
          String(target),
          method,
          target instanceof RangeImpl && target._sizedByGrid,
        );
      }
      this.checkBudget();
      sim._checkScope(target, fn.name);
      sim._fireOverlapping();
      const hostArgs = args.map((a) => this.hostArg(a));
      const result = fn.apply(target, hostArgs);
      this.checkBudget();
      return this.toRealm(result);
    } catch (e) {
      throw this.toRealmError(e);
    } finally {
      sim.clock.countScript(scriptWasCounting);
    }
  }

  /**
   * A script's argument with service proxies replaced by their objects, also inside a 2D array (the
   * rules of setDataValidations); a grid holding no proxy is passed as it is, uncopied.
   */
  hostArg(a: unknown): unknown {
    if (a === null || typeof a !== 'object') return a;
    const target = this.targets.get(a);
    if (target) return target;
    const isProxy = (x: unknown): boolean => x !== null && typeof x === 'object' && this.targets.has(x);
    if (!Array.isArray(a) || !a.some((row) => Array.isArray(row) && row.some(isProxy))) return a;
    return a.map((row) =>
      Array.isArray(row) ? row.map((x) => (isProxy(x) ? this.targets.get(x) : x)) : row,
    );
  }

  wrap(target: GasObject): object {
    const existing = this.proxies.get(target);
    if (existing) return existing;
    const methods = new Map<string, unknown>();
    const values = new Map<string, unknown>();
    const proxy = new Proxy(target, {
      get: (t, key) => {
        if (typeof key !== 'string' || key.startsWith('_') || key === 'constructor') return undefined;
        if (t instanceof HtmlTemplateImpl && Object.prototype.hasOwnProperty.call(t._props, key))
          return t._props[key];
        const v = (t as unknown as Record<string, unknown>)[key];
        if (typeof v === 'function') {
          let m = methods.get(key);
          if (!m) {
            const fn = v as (...a: unknown[]) => unknown;
            const self = this;
            m = (...args: unknown[]) => self.callService(t, fn, args, key);
            methods.set(key, m);
          }
          return m;
        }
        if (v === undefined) return undefined;
        if (!values.has(key)) values.set(key, this.toRealm(v));
        return values.get(key);
      },
      set: (t, key, value) => {
        if (t instanceof HtmlTemplateImpl && typeof key === 'string') t._props[key] = value;
        return true;
      },
      has: (t, key) => typeof key === 'string' && !key.startsWith('_') && key in t,
      ownKeys: () => [],
      getOwnPropertyDescriptor: () => undefined,
      getPrototypeOf: () => null,
      deleteProperty: () => true,
      defineProperty: () => true,
    });
    this.proxies.set(target, proxy);
    this.targets.set(proxy, target);
    return proxy;
  }
}

/** Runs Apps Script code the way Google does, against simulated services; see README.md. */
export class AppsScriptSimulator {
  readonly clock: SimClock;
  readonly spreadsheet: SpreadsheetImpl;
  readonly mail: MailRecord[] = [];
  readonly ui: UiRecord = { toasts: [], alerts: [], sidebars: [], dialogs: [], menus: [] };
  readonly logs: string[] = [];
  /** The person's hands: sheet actions that are not script calls, and hooks at an execution's waits. */
  readonly person: PersonActions;
  /** Top-level function names of the code (what menus, triggers and google.script.run may call). */
  readonly functionNames: readonly string[];

  readonly _costs: CostModel;
  private readonly script: vm.Script;
  private readonly stack: Execution[] = [];
  private nextExecId = 1;
  private readonly totals = {
    executions: 0,
    httpRequests: 0,
    fetchAllCalls: 0,
    sheetCalls: 0,
    cellsRead: 0,
    cellsWritten: 0,
  };
  private readonly rt: Runtime;
  private readonly propertyStores = new PropertyStores();
  private readonly lockTable = new LockTable();
  private readonly triggerTable = new TriggerTable();
  private readonly urlQuota: DailyCounter;
  private readonly mailQuota = new DailyCounter(MAIL_DAILY_RECIPIENTS);
  private readonly services: Record<string, GasObject>;
  private readonly limitMs: number;
  private readonly defaultUser: string;
  private readonly grantedScopes: readonly string[] | null;
  private readonly overlapTriggers: boolean;
  private firingOverlap = false;
  /** Trigger runtime used per user today (see `triggerRuntimeDailyMs`). */
  readonly triggerRuntime: TriggerRuntimeQuota;
  /** Trigger executions that fired while another execution was running (see `overlappingTriggers`). */
  readonly overlappedRuns: ExecutionResult[] = [];
  /** Every firing of an installable edit trigger, in the order they started. */
  readonly editRuns: EditFiring[] = [];
  private readonly sortFiresEdit: boolean;
  /** Executions the person's hands suspended (a firing then overlaps them). */
  private suspendedExecutions = 0;

  constructor(options: SimulatorOptions = {}) {
    const distDir = options.distDir ?? path.join(REPO_ROOT, 'dist');
    let code = options.code;
    if (code === undefined) {
      const file = path.join(distDir, 'Code.js');
      if (!existsSync(file))
        throw new Error(`${file} not found: run \`npm run build\` first or pass options.code`);
      code = readFileSync(file, 'utf8');
    }
    this.functionNames = checkScript(code);
    this.overlapTriggers = options.overlappingTriggers !== false;
    this.sortFiresEdit = options.sortFiresEdit === true;
    this.triggerRuntime = new TriggerRuntimeQuota(
      options.triggerRuntimeDailyMs ?? CONSUMER_TRIGGER_RUNTIME_MS,
    );
    this.grantedScopes =
      options.oauthScopes !== undefined ? options.oauthScopes : readManifestScopes(distDir);
    this.script = new vm.Script(builtinBindings(code) + code, { filename: 'Code.gs' });
    const timeZone = options.timeZone ?? readManifestTimeZone(distDir) ?? 'Etc/UTC';
    this._costs = resolveCosts(options.costs);
    this.clock = new SimClock(
      options.startTime ?? Date.now(),
      options.countRealTime !== false,
      this._costs.cpuFactor,
      options.scriptTimeSource,
    );
    this.limitMs = options.executionLimitMs ?? 360_000;
    this.defaultUser = options.users?.[0]?.email ?? 'alice@example.com';
    this.urlQuota = new DailyCounter(options.urlFetchDailyQuota ?? CONSUMER_URL_FETCH_DAILY);
    const sim = this;
    const installation = options.installation ?? 'bound';
    const scriptId = `1${randomBytes(32).toString('base64url').slice(0, 56)}`;
    this.rt = {
      clock: this.clock,
      timeZone,
      installation,
      scriptId,
      scriptName: options.scriptName ?? 'Table App Sync',
      distDir,
      defaultUser: this.defaultUser,
      mail: this.mail,
      ui: this.ui,
      current: () => sim.stack[sim.stack.length - 1],
      activeUser: () => sim.stack[sim.stack.length - 1]?.user ?? sim.defaultUser,
      authMode: () => sim.stack[sim.stack.length - 1]?.authMode ?? 'FULL',
      requireAuth(method, scope, needs) {
        const mode = this.authMode();
        if ((needs === 'FULL' && mode !== 'FULL') || (needs === 'LIMITED' && mode === 'NONE')) {
          throw new GasError(`You do not have permission to call ${method}. Required permissions: ${scope}`);
        }
      },
      spend: (ms) => sim._spend(ms),
      chargeCells(read, written) {
        const exec = sim.stack[sim.stack.length - 1];
        if (!exec) return;
        exec.stats.cellsRead += read;
        exec.stats.cellsWritten += written;
        const costs = sim._costs;
        exec.stats.sheetMs += written * costs.cellWriteMs + read * costs.cellReadMs;
        if (costs.deferWrites) exec.queuedMs += written * costs.cellWriteMs;
        else sim._spend(written * costs.cellWriteMs);
        sim._spend(read * costs.cellReadMs);
      },
      chargeHttp(count, fetchAll) {
        const exec = sim.stack[sim.stack.length - 1];
        if (!exec) return;
        exec.stats.httpRequests += count;
        if (fetchAll) exec.stats.fetchAllCalls++;
        const ms = httpWaveMs(sim._costs, count, fetchAll);
        exec.stats.httpMs += ms;
        sim._spend(ms);
      },
      log(line) {
        sim.stack[sim.stack.length - 1]?.logs.push(line);
        sim.logs.push(line);
      },
      onExecutionEnd() {},
      evaluateInContext(code, scope) {
        const exec = sim.stack[sim.stack.length - 1];
        if (!exec) throw new GasError('HtmlTemplate.evaluate needs a running execution');
        const fn = vm.runInContext(code, exec.context) as (s: object, esc: (v: unknown) => string) => unknown;
        return fn(scope, templateEscape);
      },
    };
    const ss = new SpreadsheetImpl(
      this.rt,
      `1${randomBytes(32).toString('base64url').slice(0, 43)}`,
      options.spreadsheetName ?? 'Untitled spreadsheet',
      timeZone,
    );
    this.spreadsheet = ss;
    ss._significantDigits = options.cellSignificantDigits;
    this.person = new PersonActions(
      ss,
      (fn) => this._asPerson(fn),
      () => this.rt.current(),
      this.defaultUser,
      (edit) => this.fireEditTriggers(edit),
    );
    const ui = new UiImpl(this.rt);
    this.services = {
      SpreadsheetApp: new SpreadsheetAppService(this.rt, ss, () => ui),
      UrlFetchApp: new UrlFetchAppService(this.rt, {
        allowedHosts: options.allowedFetchHosts ?? ['127.0.0.1', 'localhost', '[::1]'],
        concurrency: options.fetchConcurrency ?? 32,
        timeoutMs: options.fetchTimeoutMs ?? 60_000,
        deadlineMs: options.fetchDeadlineMs ?? options.fetchTimeoutMs ?? 60_000,
        quota: this.urlQuota,
        ...(options.fetchDispatchOrder ? { dispatchOrder: options.fetchDispatchOrder } : {}),
        onBeforeFetch: (requests, fetchAll) => {
          options.onBeforeFetch?.(requests, fetchAll);
          this.person._reach(fetchAll ? 'fetchAll' : 'fetch', { requests });
        },
      }),
      PropertiesService: new PropertiesServiceImpl(this.rt, this.propertyStores),
      CacheService: new CacheServiceImpl(this.rt),
      LockService: new LockServiceImpl(this.rt, this.lockTable, ss.getId(), (lockKey, contended) =>
        this.person._reach('lock', { lockKey, contended }),
      ),
      ScriptApp: new ScriptAppService(this.rt, this.triggerTable, ss.getId()),
      HtmlService: new HtmlServiceImpl(this.rt),
      Session: new SessionService(this.rt),
      Utilities: new UtilitiesService(this.rt),
      MailApp: new MailAppService(this.rt, this.mailQuota),
    };
  }

  /** Charges simulated time to the running execution; a charge past its limit kills it (clock stops at the limit). */
  _spend(ms: number): void {
    const exec = this.stack[this.stack.length - 1];
    if (!exec || !(ms > 0)) return;
    const left = exec.remaining(this.clock.now());
    if (ms >= left && left < Number.POSITIVE_INFINITY) {
      this.clock.advance(Math.max(0, left));
      exec.die();
    }
    this.clock.advance(ms);
  }

  /**
   * Charges one Spreadsheet call: a queued call waits in the execution's queue; a call that waits for
   * the spreadsheet pays the queue (its writes go first) and one round trip.
   */
  _chargeSheetCall(exec: Execution, className: string, method: string, sizedByGrid: boolean): void {
    const costs = this._costs;
    if (sheetCallKind(className, method, sizedByGrid) === 'deferred') {
      exec.stats.sheetMs += costs.sheetDeferredMs;
      if (costs.deferWrites) exec.queuedMs += costs.sheetDeferredMs;
      else this._spend(costs.sheetDeferredMs);
      return;
    }
    const queued = exec.queuedMs;
    exec.queuedMs = 0;
    exec.stats.sheetWaits++;
    exec.stats.sheetMs += costs.sheetWaitMs;
    this._spend(queued + costs.sheetWaitMs);
  }

  /** Throws Google's permission error for a member whose scope the manifest lacks (scopes.ts). */
  _checkScope(target: GasObject, member: string): void {
    assertScope(this.grantedScopes, String(target), member);
  }

  /** Fires clock triggers that came due during the running execution, nested (one level deep). */
  _fireOverlapping(): void {
    if (!this.overlapTriggers || this.firingOverlap || this.stack.length === 0) return;
    const now = this.clock.now();
    const due = this.triggerTable.list.some(
      (t) => t.source === 'CLOCK' && !t.fired && t.nextAt !== undefined && t.nextAt <= now,
    );
    if (!due) return;
    this.firingOverlap = true;
    try {
      this.overlappedRuns.push(...this.fireDueTriggers());
    } finally {
      this.firingOverlap = false;
    }
  }

  /** Runs `fn` as the person, outside every execution: nothing is counted or charged to a script. */
  _asPerson<T>(fn: () => T): T {
    const suspended = this.stack.splice(0);
    this.suspendedExecutions += suspended.length;
    try {
      return fn();
    } finally {
      this.suspendedExecutions -= suspended.length;
      this.stack.unshift(...suspended);
    }
  }

  /**
   * A person changed cell values: every installable edit trigger of the document fires (§13), each as
   * an execution of its own run as its creator, with the edit event; `value`/`oldValue` only for one
   * cell. Script writes never come here. A firing during another execution's wait overlaps it (it runs
   * while that one is suspended, as two executions of a user may run at once) and contends for locks.
   */
  private fireEditTriggers(edit: PersonEdit): EditFiring[] {
    if (edit.sort && !this.sortFiresEdit) return [];
    const documentId = this.spreadsheet.getId();
    const installed = this.triggerTable.list.filter(
      (t) => t.eventType === 'ON_EDIT' && t.source === 'SPREADSHEETS' && t.documentId === documentId,
    );
    const firings: EditFiring[] = [];
    for (const t of installed) {
      if (!this.triggerTable.list.includes(t)) continue; // deleted by an earlier firing of this edit
      const now = this.clock.now();
      const overlapped = this.stack.length + this.suspendedExecutions > 0;
      let result: ExecutionResult;
      if (!this.triggerRuntime.allows(t.owner, now)) result = quotaRefusal(now);
      else {
        const range = edit.sheet.getRange(edit.row, edit.column, edit.rows, edit.columns);
        const event: Record<string, unknown> = {
          authMode: 'FULL',
          range,
          source: this.spreadsheet,
          triggerUid: t.uid,
          user: new UserImpl(this.person.editor),
        };
        if (edit.single) {
          event.value = eventText(edit.single.value);
          // A formerly empty cell has no oldValue at all.
          if (edit.single.oldValue !== '') event.oldValue = eventText(edit.single.oldValue);
        }
        result = this.execute(
          t.fn,
          [event],
          { user: t.owner, authMode: 'FULL' },
          'trigger',
          this.triggerRuntime.left(t.owner, now) + 1,
        );
        this.triggerRuntime.charge(t.owner, result.simulatedMs, result.startedAt);
      }
      const firing: EditFiring = { uid: t.uid, fn: t.fn, owner: t.owner, overlapped, result };
      this.editRuns.push(firing);
      firings.push(firing);
    }
    return firings;
  }

  /** Runs a top-level (or `object.method`) function as a new execution, as menus, triggers and the editor do. */
  run(fn: string, args: unknown[] = [], opts: RunOptions = {}): ExecutionResult {
    return this.execute(fn, args, opts, SIMPLE_TRIGGERS.includes(fn) ? 'simple' : 'run');
  }

  /** Calls a server function the way `google.script.run` does (§7); throws ClientCallError on rule breaks. */
  callFromClient(fn: string, args: unknown[] = [], opts: Omit<RunOptions, 'event'> = {}): ExecutionResult {
    if (fn.endsWith('_'))
      throw new ClientCallError(
        `${fn} is a private function (its name ends in _) and cannot be called from google.script.run`,
      );
    if (!this.functionNames.includes(fn)) throw new ClientCallError(`Script function not found: ${fn}`);
    const copied = args.map((a, i) =>
      a === undefined ? null : copyForClient(a, `google.script.run.${fn}`, `argument ${i}`),
    );
    const result = this.execute(fn, copied, { ...opts, authMode: 'FULL' }, 'client');
    if (result.ok)
      result.value =
        result.value === undefined
          ? undefined
          : copyForClient(result.value, `google.script.run.${fn}`, 'return value');
    return result;
  }

  /** Runs every clock trigger due at clock.now(); recurring ones reschedule, one-shot ones fire once. */
  fireDueTriggers(): ExecutionResult[] {
    const now = this.clock.now();
    const due = this.triggerTable.list
      .filter((t) => t.source === 'CLOCK' && !t.fired && t.nextAt !== undefined && t.nextAt <= now)
      .sort((a, b) => (a.nextAt as number) - (b.nextAt as number));
    const results: ExecutionResult[] = [];
    for (const t of due) {
      if (!this.triggerTable.list.includes(t)) continue;
      // A firing nested in an earlier one of this loop may have run it already.
      if (t.fired || t.nextAt === undefined || t.nextAt > now) continue;
      const at = t.nextAt as number;
      if (t.everyMs !== undefined) {
        let next = at;
        while (next <= now) next += t.everyMs;
        t.nextAt = next;
      } else t.fired = true;
      if (!this.triggerRuntime.allows(t.owner, now)) {
        results.push(quotaRefusal(now));
        continue;
      }
      // The quota left bounds the run: whether Google stops a run mid-way when it runs out is
      // unconfirmed (docs/apps-script-facts.md §2), so the stricter reading stops it once past the
      // quota (a run that ends exactly as it is used up finishes: +1 ms, as a kill is at the bound).
      const result = this.execute(
        t.fn,
        [timeDrivenEvent(t, at)],
        { user: t.owner, authMode: 'FULL' },
        'trigger',
        this.triggerRuntime.left(t.owner, now) + 1,
      );
      this.triggerRuntime.charge(t.owner, result.simulatedMs, result.startedAt);
      results.push(result);
    }
    return results;
  }

  /**
   * Changes cost figures from the next Spreadsheet call or request on (a slow or a quick moment of the
   * service between two executions). The script-time factor is fixed when the simulator is made.
   */
  setCosts(changes: Partial<Omit<CostModel, 'cpuFactor'>>): void {
    Object.assign(this._costs, changes);
  }

  /** Advances the clock by `ms`, stopping at each trigger due time to fire it. */
  advanceAndFire(ms: number): ExecutionResult[] {
    const target = this.clock.now() + ms;
    const results: ExecutionResult[] = [];
    for (let guard = 0; guard < 1_000_000; guard++) {
      const pending = this.triggerTable.list.filter(
        (t) => t.source === 'CLOCK' && !t.fired && t.nextAt !== undefined,
      );
      if (pending.length === 0) break;
      const next = Math.min(...pending.map((t) => t.nextAt as number));
      if (next > target) break;
      this.clock.advanceTo(next);
      results.push(...this.fireDueTriggers());
    }
    this.clock.advanceTo(target);
    return results;
  }

  /** Installed triggers (all users, or one user's). */
  triggers(user?: string): TriggerInfo[] {
    return this.triggerTable.list
      .filter((t) => user === undefined || t.owner === user)
      .map((t) => {
        const info: TriggerInfo = {
          uid: t.uid,
          fn: t.fn,
          owner: t.owner,
          eventType: t.eventType,
          source: t.source,
          timeZone: t.timeZone,
          fired: t.fired,
        };
        if (t.everyMs !== undefined) info.everyMs = t.everyMs;
        if (t.nextAt !== undefined) info.nextAt = t.nextAt;
        return info;
      });
  }

  /** Read-only snapshot of a property store. */
  properties(kind: 'user' | 'document' | 'script', user?: string): Record<string, string> {
    return Object.fromEntries(this.propertyStore(kind, user));
  }

  /** Writes a property as an earlier version of the add-on left it (stored-format migration tests). */
  writeProperty(kind: 'user' | 'document' | 'script', key: string, value: string, user?: string): void {
    this.propertyStore(kind, user).set(key, value);
  }

  private propertyStore(kind: 'user' | 'document' | 'script', user: string | undefined) {
    if (kind === 'user') return this.propertyStores.userStore(user ?? this.defaultUser);
    return kind === 'document' ? this.propertyStores.document : this.propertyStores.script;
  }

  /** Another process holds the document lock until the given simulated time (contention tests). */
  holdDocumentLock(untilSimulatedMs: number): void {
    this.lockTable.holdExternally(`document:${this.spreadsheet.getId()}`, untilSimulatedMs);
  }

  /**
   * A person types `text` into a cell (parsed like typing, §1). If the code has an `onEdit` simple
   * trigger it runs (script writes never fire it); its result is returned.
   */
  personEdit(sheetName: string, row: number, col: number, text: string): ExecutionResult | undefined {
    const sheet = this.spreadsheet.getSheetByName(sheetName);
    if (!sheet) throw new Error(`No sheet named ${sheetName}`);
    const range = sheet.getRange(row, col);
    const oldValue = range.getValue();
    range.setValue(text);
    warnPersonEdit(sheet, row, col, 1, 1, this.person.editor);
    // The installed edit triggers fire too, each as an execution of its own (see `editRuns`).
    this._asPerson(() =>
      this.fireEditTriggers({
        sheet,
        row,
        column: col,
        rows: 1,
        columns: 1,
        sort: false,
        single: { value: text, oldValue },
      }),
    );
    if (!this.functionNames.includes('onEdit')) return undefined;
    const event: Record<string, unknown> = {
      authMode: 'LIMITED',
      range,
      source: this.spreadsheet,
      user: new UserImpl(this.defaultUser),
      value: text,
    };
    if (oldValue !== '') event.oldValue = oldValue;
    return this.execute('onEdit', [event], {}, 'simple');
  }

  /** A serializable picture of a sheet (display strings, values with Dates as ISO strings, formats, notes). */
  snapshotSheet(sheetIdOrName: number | string): SheetSnapshot {
    return this.spreadsheet._snapshot(sheetIdOrName);
  }

  /**
   * The user's other scripts and add-ons use the quotas this one shares (§13: per user, shared by all of
   * that user's scripts): `urlFetches` calls and `triggerMs` of trigger runtime, counted now. False
   * when the URL Fetch calls would pass the day's quota (then none is counted, as for a fetch).
   */
  useQuotaElsewhere(user: string, use: { urlFetches?: number; triggerMs?: number }): boolean {
    const now = this.clock.now();
    if (use.triggerMs) this.triggerRuntime.charge(user, use.triggerMs, now);
    return use.urlFetches ? this.urlQuota.take(user, now, use.urlFetches) : true;
  }

  /** URL Fetch calls `user` made today, by every script of theirs (default: the first user). */
  urlFetchUsed(user: string = this.defaultUser): number {
    return this.urlQuota.used(user, this.clock.now());
  }

  /** Cumulative counters over all executions. */
  get stats(): SimulatorStats {
    return { ...this.totals, urlFetchToday: this.urlQuota.used(this.defaultUser, this.clock.now()) };
  }

  private createContext(exec: Execution): void {
    // 'afterEvaluate': the context's microtasks run when each evaluation ends (§5: no event loop).
    const context = vm.createContext(
      {},
      { name: `apps-script-execution-${exec.id}`, microtaskMode: 'afterEvaluate' },
    );
    exec.context = context;
    exec.realm = vm.runInContext(
      '({ Array: Array, Object: Object, Date: Date, Error: Error })',
      context,
    ) as Realm;
    const bootstrap = vm.runInContext(BOOTSTRAP, context) as (
      now: () => number,
      log: (level: string, args: unknown[]) => void,
    ) => (map: Record<string, unknown>) => void;
    const install = bootstrap(
      () => this.clock.now(),
      (level, args) => {
        const text = args.map(formatForLog).join(' ');
        this.rt.log(level === 'warn' || level === 'error' ? `${level.toUpperCase()}: ${text}` : text);
      },
    );
    const globals: Record<string, unknown> = {};
    for (const [name, service] of Object.entries(this.services)) globals[name] = exec.wrap(service);
    globals.Logger = exec.wrap(new LoggerService(this.rt));
    install(globals);
  }

  private execute(
    fn: string,
    args: unknown[],
    opts: RunOptions,
    kind: ExecutionKind,
    capMs = Number.POSITIVE_INFINITY,
  ): ExecutionResult {
    const simple = kind === 'simple';
    const authMode = opts.authMode ?? (simple && fn !== 'onInstall' ? 'LIMITED' : 'FULL');
    const limitMs = Math.min(simple ? SIMPLE_TRIGGER_LIMIT_MS : this.limitMs, this.limitMs, capMs);
    const outerScriptCounting = this.clock.countScript(false);
    const startedAt = this.clock.now();
    const scriptMsBefore = this.clock.scriptMs;
    const exec = new Execution(
      this,
      this.nextExecId++,
      opts.user ?? this.defaultUser,
      authMode,
      kind,
      startedAt,
      limitMs,
      opts.kill,
    );
    this.stack.push(exec);
    this.totals.executions++;
    const result: ExecutionResult = {
      ok: false,
      killed: false,
      startedAt,
      endedAt: startedAt,
      simulatedMs: 0,
      stats: exec.stats,
      logs: exec.logs,
    };
    const timeout = limitMs + 5_000;
    try {
      this.createContext(exec);
      this.clock.countScript(true);
      this.script.runInContext(exec.context, { timeout });
      this.clock.countScript(false);
      if (!/^[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)*$/.test(fn))
        throw new GasError(`Script function not found: ${fn}`);
      const target = vm.runInContext(
        `(function () { try { return ${fn}; } catch (e) { return undefined; } })()`,
        exec.context,
      );
      if (typeof target !== 'function') throw new GasError(`Script function not found: ${fn}`);
      let callArgs = args;
      if (opts.event !== undefined) callArgs = [opts.event, ...args];
      else if (simple && args.length === 0) callArgs = [this.simpleEvent(authMode, exec.user)];
      const ctx = exec.context as Record<string, unknown>;
      this.clock.countScript(true);
      ctx.__sim$ = [target, exec.toRealm(callArgs)];
      let value = vm.runInContext(
        '(function (x) { delete globalThis.__sim$; return x[0].apply(globalThis, x[1]); })(globalThis.__sim$)',
        exec.context,
        { timeout },
      );
      if (
        value !== null &&
        typeof value === 'object' &&
        typeof (value as { then?: unknown }).then === 'function'
      ) {
        ctx.__sim$ = value;
        vm.runInContext(
          '(function (p) { delete globalThis.__sim$; p.then(function (v) { globalThis.__simDone$ = { ok: true, v: v }; }, function (e) { globalThis.__simDone$ = { ok: false, e: e }; }); })(globalThis.__sim$)',
          exec.context,
          { timeout },
        );
        const done = ctx.__simDone$ as { ok: boolean; v?: unknown; e?: unknown } | undefined;
        delete ctx.__simDone$;
        if (!done)
          throw new GasError(
            'The async function did not settle before the execution ended (no event loop in Apps Script).',
          );
        if (!done.ok) throw done.e;
        value = done.v;
      }
      this.clock.countScript(false);
      result.ok = true;
      result.value = fromRealm(value, exec.unwrap);
    } catch (e) {
      result.error = describeError(e);
      if ((e as { code?: string } | null)?.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') {
        exec.killed = true;
        result.error = { name: 'Exception', message: KILL_MESSAGE };
      }
    } finally {
      this.clock.countScript(false);
      this.chargeQueueAtEnd(exec);
      this.stack.pop();
      this.lockTable.releaseAll(exec.id);
      this.clock.countScript(outerScriptCounting);
    }
    if (exec.killed) {
      result.ok = false;
      result.killed = true;
      delete result.value;
      if (!result.error || result.error.message !== KILL_MESSAGE)
        result.error = { name: 'Exception', message: KILL_MESSAGE };
    }
    result.endedAt = this.clock.now();
    exec.stats.scriptMs = this.clock.scriptMs - scriptMsBefore;
    result.simulatedMs = result.endedAt - startedAt;
    this.totals.httpRequests += exec.stats.httpRequests;
    this.totals.fetchAllCalls += exec.stats.fetchAllCalls;
    this.totals.sheetCalls += exec.stats.sheetCalls;
    this.totals.cellsRead += exec.stats.cellsRead;
    this.totals.cellsWritten += exec.stats.cellsWritten;
    return result;
  }

  /** The writes still queued when the script returns are committed inside its execution time. */
  private chargeQueueAtEnd(exec: Execution): void {
    const queued = exec.queuedMs;
    exec.queuedMs = 0;
    if (exec.killed || !(queued > 0)) return;
    try {
      this._spend(queued);
    } catch (e) {
      if (!(e instanceof KilledError)) throw e;
    }
  }

  private simpleEvent(authMode: AuthModeName, user: string): Record<string, unknown> {
    const event: Record<string, unknown> = { authMode, user: new UserImpl(authMode === 'NONE' ? '' : user) };
    if (authMode !== 'NONE') event.source = this.spreadsheet;
    return event;
  }
}

/**
 * ECMAScript built-ins a script reads in hot loops. In a `node:vm` context every read of a global
 * goes through the context's property interceptor, about 100x slower than in Node or on Google's V8
 * (measured: a loop calling Math.imul 1e7 times, 3.4 s against 30 ms), which would inflate the
 * script's measured time. Script-level `let` bindings of the same objects are read at full speed.
 */
const HOT_BUILTINS = [
  'Math',
  'JSON',
  'Object',
  'Array',
  'String',
  'Number',
  'Boolean',
  'Date',
  'RegExp',
  'Error',
  'TypeError',
  'RangeError',
  'Map',
  'Set',
  'WeakMap',
  'Symbol',
  'Reflect',
  'parseInt',
  'parseFloat',
  'isNaN',
  'isFinite',
  'encodeURIComponent',
  'decodeURIComponent',
];

/**
 * One line (no newline: line numbers of the code stay as they are) binding the hot built-ins the
 * code does not declare itself; read per execution after the simulated Date is installed.
 */
function builtinBindings(code: string): string {
  const names = HOT_BUILTINS.filter(
    (name) => !new RegExp(`\\b(var|let|const|function|class)\\s+${name}\\b`).test(code),
  );
  // A "use strict" prologue must stay first to count: repeat it before the bindings.
  const strict = /^(?:\s|\/\/[^\n]*\n|\/\*[\s\S]*?\*\/)*(['"])use strict\1/.test(code);
  return `${strict ? '"use strict"; ' : ''}let ${names.map((name) => `${name} = globalThis.${name}`).join(', ')}; `;
}

/** Edit events carry values as text (a Date as Sheets shows it is not modelled: its ISO form). */
function eventText(value: unknown): string {
  return value instanceof Date ? value.toISOString() : String(value);
}

/** The result of a clock trigger that did not run because its owner's trigger runtime is used up. */
function quotaRefusal(at: number): ExecutionResult {
  return {
    ok: false,
    error: { name: 'Exception', message: TRIGGER_RUNTIME_MESSAGE },
    killed: false,
    startedAt: at,
    endedAt: at,
    simulatedMs: 0,
    stats: newStats(),
    logs: [],
  };
}

function describeError(e: unknown): { name: string; message: string; stack?: string } {
  if (e !== null && typeof e === 'object' && Object.prototype.toString.call(e) === '[object Error]') {
    const err = e as Error;
    const out: { name: string; message: string; stack?: string } = {
      name: String(err.name),
      message: String(err.message),
    };
    if (typeof err.stack === 'string') out.stack = err.stack;
    return out;
  }
  return { name: 'Error', message: String(e) };
}

function readManifestTimeZone(distDir: string): string | undefined {
  for (const file of [path.join(distDir, 'appsscript.json'), path.join(REPO_ROOT, 'appsscript.json')]) {
    try {
      const tz = JSON.parse(readFileSync(file, 'utf8')).timeZone;
      if (typeof tz === 'string') return tz;
    } catch {
      // try the next one
    }
  }
  return undefined;
}
