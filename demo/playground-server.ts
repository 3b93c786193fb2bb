// The playground server behind `npm run demo` (and the browser tests' harness): the table service
// emulator, the Apps Script simulator over dist/Code.js, and a page server that gives the built
// sidebar a google.script.run forwarding to the simulator.
import type { AppsScriptSimulator } from '../emulators/apps-script/index';
import { type RunningEmulator, SAMPLE, startEmulator } from '../emulators/table-service/index';
import { type Front, type FrontReply, type FrontRequest, ListenError, startFront } from './front-server';
import { type HarnessOptions, Playground, type RpcRecord } from './playground';
import { handleRequest, STATICS } from './playground-routes';

export { DEMO_BASE_URL_PROPERTY, type HarnessOptions, type RpcRecord } from './playground';
export { liveSaid } from './playground-routes';
export { SAMPLE };

export interface Harness {
  /** Base URL of the page server: `/` the playground, `/sidebar` the sidebar alone. */
  readonly url: string;
  /** Set when the asked port could not be used and `portFallback` chose another: why (e.g. EADDRINUSE). */
  readonly portRefused?: { port: number; code: string };
  readonly emulator: RunningEmulator;
  /** The current simulator (replaced by reset()). */
  readonly sim: AppsScriptSimulator;
  /** Alice's API key and the other sample users' keys. */
  readonly keys: Record<string, string>;
  /** Every rpc since the last reset. */
  readonly rpcs: RpcRecord[];
  /**
   * google.script.run rule breaks (bad arguments or return values) and dialogs nobody answered; a
   * passing journey has none.
   */
  readonly violations: string[];
  /** Fresh sample data on the emulator and a fresh simulator (empty spreadsheet, no properties). */
  reset(): Promise<void>;
  close(): Promise<void>;
}

/** Starts the page server thread on the asked port, or on a free one when `portFallback` allows. */
async function listen(
  options: HarnessOptions,
  handle: (request: FrontRequest) => Promise<FrontReply>,
  dialogMemory: SharedArrayBuffer,
): Promise<{ front: Front; portRefused?: { port: number; code: string } }> {
  const host = options.host ?? '127.0.0.1';
  try {
    return { front: await startFront(options.port ?? 0, host, handle, STATICS, dialogMemory) };
  } catch (error) {
    const fallback = options.portFallback && error instanceof ListenError && options.port !== 0;
    if (!fallback || !['EADDRINUSE', 'EACCES'].includes(error.code)) throw error;
    const portRefused = { port: options.port ?? 0, code: error.code };
    return { front: await startFront(0, host, handle, STATICS, dialogMemory), portRefused };
  }
}

/** Starts the emulator, a simulator over the built dist/Code.js, and the page server. */
export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  // The service stamps its rows with its own clock, which the playground keeps on the sheet's.
  const emulator = await startEmulator({ data: 'sample', stampsFollowClock: true, ...options.emulator });
  let playground: Playground;
  let started: Awaited<ReturnType<typeof listen>>;
  try {
    playground = new Playground(options, emulator);
    const running = playground;
    await running.serviceClockToSheets();
    started = await listen(options, (request) => handleRequest(running, request), running.dialogs.memory);
  } catch (error) {
    await emulator.close();
    throw error;
  }
  playground.front = started.front;
  return {
    url: started.front.url,
    ...(started.portRefused ? { portRefused: started.portRefused } : {}),
    emulator,
    get sim() {
      return playground.sim;
    },
    keys: emulator.keys,
    rpcs: playground.rpcs,
    violations: playground.violations,
    reset: () => playground.reset(),
    async close() {
      await started.front.close();
      await emulator.close();
    },
  };
}
