// The sidebar's list of server functions is checked against src/index.ts when `npm run typecheck`
// compiles this file: every name the sidebar calls is exported, accepts what the sidebar sends, and
// returns what the sidebar expects.
import { describe, expect, it } from 'vitest';
import type * as Entry from '../../src/index';
import type { ServerFunctions, ServerName } from '../../src/sidebar/server';

type Exported = typeof Entry;
type Fits<A, B> = [A] extends [B] ? true : false;

/** Sidebar calls that src/index.ts does not export (must be none). */
type Unexported = Exclude<ServerName, keyof Exported>;
/** Sidebar calls the exported function would not accept, or whose result it would not get (must be none). */
type Mismatched = {
  [K in ServerName]: K extends keyof Exported
    ? Fits<Parameters<ServerFunctions[K]>, Parameters<Exported[K]>> extends true
      ? Fits<ReturnType<Exported[K]>, ReturnType<ServerFunctions[K]>> extends true
        ? never
        : K
      : K
    : K;
}[ServerName];

// A name in either union makes these lines fail to compile, naming the function.
const unexported: [Unexported] extends [never] ? 'none' : Unexported = 'none';
const mismatched: [Mismatched] extends [never] ? 'none' : Mismatched = 'none';

describe('the sidebar calls exactly what src/index.ts exports', () => {
  it('has no call to an unexported or differently typed server function (checked by tsc)', () => {
    expect([unexported, mismatched]).toEqual(['none', 'none']);
  });
});
