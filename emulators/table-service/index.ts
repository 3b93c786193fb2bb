// startEmulator: runs the table service emulator in a child process (outside any thread that later blocks on
// synchronous fetches) and hands back its URL, keys, an admin client and close(). Also re-exports the pieces.

import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { AdminClient } from './admin-client.js';
import type { EmulatorOptions, UserProfile } from './types.js';

export { AdminClient, AdminError, type SeededTable } from './admin-client.js';
export { PLAYGROUND } from './sample-pipeline.js';
export { SAMPLE } from './sample-data.js';
export { createTableService, type TableService } from './server.js';
export type * from './types.js';

/** Options of startEmulator: the emulator's own, plus how long to wait for the child to be ready. */
export interface StartOptions extends EmulatorOptions {
  /** Give up starting after this many ms; default 30000. */
  startTimeoutMs?: number;
  /** Forward the child's stderr to this process's stderr; default false (kept for error messages). */
  inheritStderr?: boolean;
}

/** A running emulator in a child process. */
export interface RunningEmulator {
  /** Base URL without prefix, e.g. http://127.0.0.1:40123. */
  url: string;
  /** A ready token per sample user id (e.g. keys.u_alice). */
  keys: Record<string, string>;
  users: UserProfile[];
  admin: AdminClient;
  /** The child's process id. */
  pid: number;
  /** Stops the child (saving the data file when there is one). */
  close(): Promise<void>;
}

interface ReadyLine {
  type: 'ready' | 'error';
  url?: string;
  keys?: Record<string, string>;
  users?: UserProfile[];
  pid?: number;
  message?: string;
}

function waitForExit(child: ChildProcess, ms: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

/** Starts the emulator in a child process (`node --import tsx child.ts`); resolves once it listens. */
export async function startEmulator(options: StartOptions = {}): Promise<RunningEmulator> {
  const { startTimeoutMs = 30_000, inheritStderr = false, ...emulatorOptions } = options;
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  const script = fileURLToPath(new URL('./child.ts', import.meta.url));
  const child = spawn(process.execPath, ['--import', tsx, script], {
    stdio: ['pipe', 'pipe', inheritStderr ? 'inherit' : 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-4000);
  });
  child.stdin?.write(JSON.stringify(emulatorOptions) + '\n');

  const ready = await new Promise<ReadyLine>((resolve, reject) => {
    let buffered = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`Emulator did not start within ${startTimeoutMs} ms. ${stderr}`));
    }, startTimeoutMs);
    const onData = (chunk: Buffer): void => {
      buffered += chunk.toString('utf8');
      const at = buffered.indexOf('\n');
      if (at < 0) return;
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      child.off('exit', onExit);
      try {
        resolve(JSON.parse(buffered.slice(0, at)) as ReadyLine);
      } catch {
        reject(new Error(`Emulator printed no ready line: ${buffered.slice(0, 300)} ${stderr}`));
      }
    };
    const onExit = (code: number | null): void => {
      clearTimeout(timer);
      reject(new Error(`Emulator exited (${String(code)}) before it was ready. ${stderr}`));
    };
    child.stdout?.on('data', onData);
    child.once('exit', onExit);
  });
  if (ready.type !== 'ready' || !ready.url) {
    child.kill('SIGKILL');
    throw new Error(`Emulator failed to start: ${ready.message ?? 'unknown error'}`);
  }
  child.stdout?.resume();

  return {
    url: ready.url,
    keys: ready.keys ?? {},
    users: ready.users ?? [],
    admin: new AdminClient(ready.url),
    pid: child.pid ?? -1,
    close: async () => {
      child.stdin?.end();
      if (await waitForExit(child, 5000)) return;
      child.kill('SIGTERM');
      if (await waitForExit(child, 2000)) return;
      child.kill('SIGKILL');
      await waitForExit(child, 2000);
    },
  };
}
