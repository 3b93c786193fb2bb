// PropertiesService (§3): user, document and script stores with the 9 KB value and 500 KB store quotas.
import { GasError, GasObject } from './realm';
import type { Runtime } from './runtime';

export const MAX_PROPERTY_BYTES = 9 * 1024;
export const MAX_STORE_BYTES = 500 * 1024;
const QUOTA_MESSAGE =
  'You have exceeded the property storage quota. Please remove some properties and try again.';

const bytes = (s: string) => Buffer.byteLength(s, 'utf8');

function storeSize(store: Map<string, string>): number {
  let n = 0;
  for (const [k, v] of store) n += bytes(k) + bytes(v);
  return n;
}

/** A view of one property store. */
export class PropertiesImpl
  extends GasObject
  implements Pick<GoogleAppsScript.Properties.Properties, 'getProperty' | 'getKeys' | 'getProperties'>
{
  protected readonly _gasType = 'Properties';
  constructor(private readonly _store: Map<string, string>) {
    super();
  }
  private _check(next: Map<string, string>, changed: Iterable<string>): void {
    for (const k of changed) {
      const v = next.get(k);
      // A single value over 9 KB gives the same quota message (§3, community evidence).
      if (v !== undefined && bytes(k) + bytes(v) > MAX_PROPERTY_BYTES) throw new GasError(QUOTA_MESSAGE);
    }
    if (storeSize(next) > MAX_STORE_BYTES) throw new GasError(QUOTA_MESSAGE);
  }
  getProperty(key: string): string | null {
    return this._store.get(String(key)) ?? null;
  }
  getProperties(): Record<string, string> {
    return Object.fromEntries(this._store);
  }
  getKeys(): string[] {
    return [...this._store.keys()];
  }
  setProperty(key: string, value: string): PropertiesImpl {
    if (key === null || key === undefined) throw new GasError('Invalid argument: key');
    const next = new Map(this._store);
    next.set(String(key), String(value));
    this._check(next, [String(key)]);
    this._store.set(String(key), String(value));
    return this;
  }
  setProperties(properties: Record<string, unknown>, deleteAllOthers?: boolean): PropertiesImpl {
    const next = deleteAllOthers ? new Map<string, string>() : new Map(this._store);
    const keys = Object.keys(properties ?? {});
    for (const k of keys) next.set(k, String(properties[k]));
    this._check(next, keys);
    this._store.clear();
    for (const [k, v] of next) this._store.set(k, v);
    return this;
  }
  deleteProperty(key: string): PropertiesImpl {
    this._store.delete(String(key));
    return this;
  }
  deleteAllProperties(): PropertiesImpl {
    this._store.clear();
    return this;
  }
}

/** All property stores of one simulated script (persist across executions). */
export class PropertyStores {
  readonly user = new Map<string, Map<string, string>>();
  readonly document = new Map<string, string>();
  readonly script = new Map<string, string>();
  userStore(email: string): Map<string, string> {
    let s = this.user.get(email);
    if (!s) {
      s = new Map();
      this.user.set(email, s);
    }
    return s;
  }
}

export class PropertiesServiceImpl extends GasObject {
  protected readonly _gasType = 'PropertiesService';
  constructor(
    private readonly _rt: Runtime,
    private readonly _stores: PropertyStores,
  ) {
    super();
  }
  getUserProperties(): PropertiesImpl {
    this._rt.requireAuth(
      'PropertiesService.getUserProperties',
      'https://www.googleapis.com/auth/script.storage',
      'LIMITED',
    );
    return new PropertiesImpl(this._stores.userStore(this._rt.activeUser()));
  }
  /** Bound scripts and add-ons have a document store; AuthMode.NONE may not use it (§6). */
  getDocumentProperties(): PropertiesImpl {
    this._rt.requireAuth(
      'PropertiesService.getDocumentProperties',
      'https://www.googleapis.com/auth/script.storage',
      'LIMITED',
    );
    return new PropertiesImpl(this._stores.document);
  }
  getScriptProperties(): PropertiesImpl {
    return new PropertiesImpl(this._stores.script);
  }
}
