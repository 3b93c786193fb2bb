// Realm plumbing: service errors, the service-object base class, and copying values into and out of a vm context.

/** An Apps Script service exception (`e.name === 'Exception'` inside scripts). */
export class GasError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'Exception';
  }
}

/** Thrown by every service call once an execution is past its time budget or was killed. */
export class KilledError extends GasError {
  constructor() {
    super('Exceeded maximum execution time');
  }
}

/**
 * Base class of every simulated service object (SpreadsheetApp, Sheet, Range, Lock, ...). Inside a
 * script it is seen through a proxy that exposes its methods only; members named `_x` stay hidden.
 */
export abstract class GasObject {
  /** The Apps Script class name, printed by `String(obj)`. */
  protected abstract readonly _gasType: string;
  /** Service family used for accounting: sheet calls are charged `costs.sheetCallMs`. */
  readonly _family: 'sheet' | 'other' = 'other';
  toString(): string {
    return this._gasType;
  }
}

/** The ECMAScript constructors of one realm (the host's, or a vm context's). */
export interface Realm {
  Array: ArrayConstructor;
  Object: ObjectConstructor;
  Date: DateConstructor;
  Error: ErrorConstructor;
}

export const hostRealm: Realm = { Array, Object, Date, Error };

/** Realm-independent type tests (values may come from any context). */
export function isDate(v: unknown): v is Date {
  return Object.prototype.toString.call(v) === '[object Date]';
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (v === null || typeof v !== 'object') return false;
  if (Object.prototype.toString.call(v) !== '[object Object]') return false;
  const proto = Object.getPrototypeOf(v);
  if (proto === null) return true;
  return (
    Object.getPrototypeOf(proto) === null &&
    typeof proto.constructor === 'function' &&
    proto.constructor.name === 'Object'
  );
}

/** Makes an `Exception` error that belongs to `realm`. */
export function realmError(realm: Realm, message: string, name = 'Exception'): Error {
  const err = new realm.Error(message);
  Object.defineProperty(err, 'name', { value: name, writable: true, configurable: true, enumerable: false });
  const frames = typeof err.stack === 'string' ? err.stack.split('\n').slice(1).join('\n') : '';
  err.stack = `${name}: ${message}${frames ? `\n${frames}` : ''}`;
  return err;
}

/**
 * Copies a value produced by a script into host values: arrays, Dates and plain objects are rebuilt with
 * host constructors; `unwrap` maps service proxies back to their objects. Cycles are preserved.
 */
export function fromRealm(
  v: unknown,
  unwrap: (o: object) => object | undefined,
  seen = new Map<object, unknown>(),
): unknown {
  if (v === null || typeof v !== 'object') return v;
  const target = unwrap(v);
  if (target) return target;
  if (seen.has(v)) return seen.get(v);
  if (Array.isArray(v)) {
    const out: unknown[] = [];
    seen.set(v, out);
    for (let i = 0; i < v.length; i++) out.push(fromRealm(v[i], unwrap, seen));
    return out;
  }
  if (isDate(v)) return new Date(v.getTime());
  const tag = Object.prototype.toString.call(v);
  if (tag === '[object Error]') {
    const e = v as Error;
    return { name: e.name, message: e.message };
  }
  const out: Record<string, unknown> = {};
  seen.set(v, out);
  for (const key of Object.keys(v)) out[key] = fromRealm((v as Record<string, unknown>)[key], unwrap, seen);
  return out;
}
