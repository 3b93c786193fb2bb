// LockService (§3): document/script/user locks held by executions or by a test ("another process").
import { GasError, GasObject } from './realm';
import type { Runtime } from './runtime';

const TIMEOUT_MESSAGE = 'Lock timeout: another process was holding the lock for too long.';

interface LockState {
  /** Execution id holding the lock, or 'external' for holdDocumentLock. */
  holder: number | 'external' | undefined;
  externalUntil: number;
}

/** Lock table shared by all executions of one simulator. */
export class LockTable {
  private readonly locks = new Map<string, LockState>();
  state(key: string): LockState {
    let s = this.locks.get(key);
    if (!s) {
      s = { holder: undefined, externalUntil: 0 };
      this.locks.set(key, s);
    }
    return s;
  }
  holdExternally(key: string, until: number): void {
    const s = this.state(key);
    s.holder = 'external';
    s.externalUntil = until;
  }
  releaseAll(execId: number): void {
    for (const s of this.locks.values()) if (s.holder === execId) s.holder = undefined;
  }
}

export class LockImpl
  extends GasObject
  implements Pick<GoogleAppsScript.Lock.Lock, 'hasLock' | 'releaseLock' | 'tryLock' | 'waitLock'>
{
  protected readonly _gasType = 'Lock';
  constructor(
    private readonly _rt: Runtime,
    private readonly _table: LockTable,
    private readonly _key: string,
    private readonly _onWait?: (key: string, contended: boolean) => void,
  ) {
    super();
  }
  private _me(): number {
    return this._rt.current()?.id ?? -1;
  }
  /**
   * A lock held by another running execution cannot be released while this one waits (executions are
   * nested, so the holder is suspended): the full timeout passes. An external hold ends at its time.
   */
  tryLock(timeoutInMillis: number): boolean {
    const s = this._table.state(this._key);
    const me = this._me();
    // The execution waits for the lock service here, so a person may act meanwhile.
    this._onWait?.(this._key, s.holder !== undefined && s.holder !== me);
    const now = this._rt.clock.now();
    if (s.holder === 'external' && s.externalUntil <= now) s.holder = undefined;
    if (s.holder === undefined || s.holder === me) {
      s.holder = me;
      return true;
    }
    const timeout = Math.max(0, Number(timeoutInMillis) || 0);
    if (s.holder === 'external' && s.externalUntil <= now + timeout) {
      this._rt.spend(s.externalUntil - now);
      s.holder = me;
      return true;
    }
    this._rt.spend(timeout);
    return false;
  }
  waitLock(timeoutInMillis: number): void {
    if (!this.tryLock(timeoutInMillis)) throw new GasError(TIMEOUT_MESSAGE);
  }
  hasLock(): boolean {
    return this._table.state(this._key).holder === this._me();
  }
  releaseLock(): void {
    const s = this._table.state(this._key);
    if (s.holder === this._me()) s.holder = undefined;
  }
}

export class LockServiceImpl extends GasObject {
  protected readonly _gasType = 'LockService';
  constructor(
    private readonly _rt: Runtime,
    private readonly _table: LockTable,
    private readonly _documentId: string,
    private readonly _onWait?: (key: string, contended: boolean) => void,
  ) {
    super();
  }
  /** Bound scripts have a containing document, so this is never null here (§3). */
  getDocumentLock(): LockImpl {
    return new LockImpl(this._rt, this._table, `document:${this._documentId}`, this._onWait);
  }
  getScriptLock(): LockImpl {
    return new LockImpl(this._rt, this._table, 'script', this._onWait);
  }
  getUserLock(): LockImpl {
    return new LockImpl(this._rt, this._table, `user:${this._rt.activeUser()}`, this._onWait);
  }
}
