// CacheService (§3): user/document/script caches with key/value/TTL limits; expiry follows the simulated clock.
import { GasError, GasObject } from './realm';
import type { Runtime } from './runtime';

export const MAX_KEY_CHARS = 250;
export const MAX_VALUE_BYTES = 100 * 1024;
export const MAX_TTL_SECONDS = 21600;
const DEFAULT_TTL_SECONDS = 600;

type Entries = Map<string, { value: string; expiresAt: number }>;

export class CacheImpl extends GasObject implements Pick<GoogleAppsScript.Cache.Cache, 'get' | 'remove'> {
  protected readonly _gasType = 'Cache';
  constructor(
    private readonly _rt: Runtime,
    private readonly _entries: Entries,
  ) {
    super();
  }
  private _key(key: unknown): string {
    const k = String(key);
    if (k.length > MAX_KEY_CHARS) throw new GasError('Argument too large: key');
    return k;
  }
  private _ttl(ttl: unknown): number {
    if (ttl === undefined || ttl === null) return DEFAULT_TTL_SECONDS;
    const n = Number(ttl);
    if (!Number.isFinite(n) || n < 1) throw new GasError('Invalid argument: expirationInSeconds');
    if (n > MAX_TTL_SECONDS) throw new GasError('Argument too large: expirationInSeconds');
    return n;
  }
  get(key: string): string | null {
    const k = this._key(key);
    const e = this._entries.get(k);
    if (!e) return null;
    if (e.expiresAt <= this._rt.clock.now()) {
      this._entries.delete(k);
      return null;
    }
    return e.value;
  }
  getAll(keys: string[]): Record<string, string> {
    const out: Record<string, string> = {};
    for (const k of keys) {
      const v = this.get(k);
      if (v !== null) out[String(k)] = v;
    }
    return out;
  }
  put(key: string, value: string, expirationInSeconds?: number): void {
    const k = this._key(key);
    const v = String(value);
    if (Buffer.byteLength(v, 'utf8') > MAX_VALUE_BYTES) throw new GasError('Argument too large: value');
    this._entries.set(k, {
      value: v,
      expiresAt: this._rt.clock.now() + this._ttl(expirationInSeconds) * 1000,
    });
  }
  putAll(values: Record<string, string>, expirationInSeconds?: number): void {
    for (const k of Object.keys(values)) this.put(k, values[k] as string, expirationInSeconds);
  }
  remove(key: string): void {
    this._entries.delete(this._key(key));
  }
  removeAll(keys: string[]): void {
    for (const k of keys) this.remove(k);
  }
}

export class CacheServiceImpl extends GasObject {
  protected readonly _gasType = 'CacheService';
  private readonly _user = new Map<string, Entries>();
  private readonly _document: Entries = new Map();
  private readonly _script: Entries = new Map();
  constructor(private readonly _rt: Runtime) {
    super();
  }
  getUserCache(): CacheImpl {
    const email = this._rt.activeUser();
    let e = this._user.get(email);
    if (!e) {
      e = new Map();
      this._user.set(email, e);
    }
    return new CacheImpl(this._rt, e);
  }
  getDocumentCache(): CacheImpl {
    return new CacheImpl(this._rt, this._document);
  }
  getScriptCache(): CacheImpl {
    return new CacheImpl(this._rt, this._script);
  }
}
