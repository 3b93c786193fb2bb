// google.script.run rules (§7): what may cross between the sidebar and the server, checked both ways.
import { isPlainObject } from './realm';

/** A value google.script.run cannot carry; the call fails before (or instead of) reaching a handler. */
export class ClientCallError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ClientCallError';
  }
}

/**
 * Deep-copies a value across google.script.run, enforcing §7: primitives, null, and plain objects/arrays
 * of those. Dates, functions, class instances, `undefined` object members and cycles are rejected;
 * `undefined` inside arrays becomes null. Works on values of any realm (no `instanceof`).
 */
export function copyForClient(value: unknown, where: string, path = 'value', stack: object[] = []): unknown {
  if (value === null) return null;
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      return value;
    case 'undefined':
      throw new ClientCallError(`${where}: ${path} is undefined, which google.script.run cannot pass`);
    case 'function':
      throw new ClientCallError(`${where}: ${path} is a function, which google.script.run cannot pass`);
    case 'bigint':
    case 'symbol':
      throw new ClientCallError(
        `${where}: ${path} is a ${typeof value}, which google.script.run cannot pass`,
      );
  }
  const obj = value as object;
  const tag = Object.prototype.toString.call(obj);
  if (tag === '[object Date]') {
    throw new ClientCallError(
      `${where}: ${path} is a Date; google.script.run fails the call (neither handler fires). Send an ISO string instead`,
    );
  }
  if (stack.includes(obj)) throw new ClientCallError(`${where}: ${path} is circular`);
  stack.push(obj);
  try {
    if (Array.isArray(obj)) {
      const out: unknown[] = [];
      for (let i = 0; i < obj.length; i++) {
        const item = obj[i];
        out.push(item === undefined ? null : copyForClient(item, where, `${path}[${i}]`, stack));
      }
      return out;
    }
    if (!isPlainObject(obj)) {
      throw new ClientCallError(
        `${where}: ${path} is a ${tag.slice(8, -1)} object built with new, which google.script.run cannot pass`,
      );
    }
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(obj))
      out[key] = copyForClient((obj as Record<string, unknown>)[key], where, `${path}.${key}`, stack);
    return out;
  } finally {
    stack.pop();
  }
}
