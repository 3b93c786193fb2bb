// Starting and stopping `npm run demo` (issue 26, point 10): a taken port gives another one with a
// sentence saying so, a bad --port gives a sentence, and SIGTERM or SIGINT stops the playground and
// the emulator it started. Waits on printed lines and exit events, never on the clock.
import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:net';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

interface Started {
  child: ChildProcess;
  pageUrl: string;
  serviceUrl: string;
  /** Everything printed so far (stdout and stderr). */
  output: () => string;
}

const children: ChildProcess[] = [];

afterEach(() => {
  // A failed test must not leave a playground running.
  for (const child of children.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

function spawnDemo(command: string, args: string[]): ChildProcess {
  const child = spawn(command, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  children.push(child);
  return child;
}

/** Resolves once the demo has printed its addresses; rejects if it exits first. */
function started(child: ChildProcess): Promise<Started> {
  let out = '';
  const output = (): string => out;
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null): void => reject(new Error(`demo exited (${String(code)}): ${out}`));
    child.once('exit', onExit);
    const read = (chunk: Buffer): void => {
      out += chunk.toString('utf8');
      const page = /playground: (http:\/\/\S+?)\/?\s/.exec(out);
      const service = /Service \(emulator\):\s+(http:\/\/\S+)/.exec(out);
      if (page?.[1] && service?.[1] && /Ctrl-C stops/.test(out)) {
        child.off('exit', onExit);
        resolve({ child, pageUrl: page[1], serviceUrl: service[1], output });
      }
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
  });
}

function exited(child: ChildProcess): Promise<{ code: number | null; signal: string | null }> {
  if (child.exitCode !== null || child.signalCode !== null)
    return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
}

/** True when something answers HTTP at the address. */
async function answers(url: string): Promise<boolean> {
  try {
    await fetch(`${url}/favicon.ico`);
    return true;
  } catch {
    return false;
  }
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
  );
}

describe('npm run demo', () => {
  it('uses a free port when the asked one is taken, and says so', async () => {
    const blocker = createServer();
    const taken = await listen(blocker);
    try {
      const demo = await started(
        spawnDemo(process.execPath, ['--import', TSX, 'demo/main.ts', '--port', String(taken)]),
      );
      expect(demo.output()).toContain(
        `Port ${taken} is taken by another program: using a free port instead (choose one with npm run demo -- --port 9000).`,
      );
      expect(new URL(demo.pageUrl).port).not.toBe(String(taken));
      expect(await answers(demo.pageUrl)).toBe(true);
      demo.child.kill('SIGTERM');
      expect(await exited(demo.child)).toEqual({ code: 0, signal: null });
    } finally {
      await new Promise<void>((resolve) => blocker.close(() => resolve()));
    }
  });

  it('refuses a --port that is not a port with a sentence, not a stack trace', async () => {
    const child = spawnDemo(process.execPath, ['--import', TSX, 'demo/main.ts', '--port', 'eighty']);
    let err = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      err += chunk.toString('utf8');
    });
    expect(await exited(child)).toEqual({ code: 2, signal: null });
    expect(err).toContain('--port wants a whole number from 0 to 65535 (0: any free port), got eighty');
    expect(err).not.toMatch(/^\s+at /m);
  });

  it('plays a service that limits requests with --platform, as the README says', async () => {
    const demo = await started(
      spawnDemo(process.execPath, [
        '--import',
        TSX,
        'demo/main.ts',
        '--port',
        '0',
        '--platform',
        '--no-delete',
      ]),
    );
    expect(demo.output()).toContain('The service limits requests: 60 a minute and 1,800 an hour per key');
    expect(demo.output()).toContain('The service does not allow deleting rows through its API.');
    const platform = (await (await fetch(`${demo.serviceUrl}/__admin/platform`)).json()) as {
      platform: unknown;
    };
    expect(platform.platform).not.toBeNull();
    demo.child.kill('SIGTERM');
    expect(await exited(demo.child)).toEqual({ code: 0, signal: null });
  });

  it.each([
    'SIGTERM',
    'SIGINT',
  ] as const)('stops the playground and the emulator it started on %s', async (signal) => {
    const demo = await started(spawnDemo('npm', ['run', 'demo', '--', '--port', '0']));
    expect(await answers(demo.pageUrl)).toBe(true);
    expect(await answers(demo.serviceUrl)).toBe(true);
    demo.child.kill(signal);
    expect(await exited(demo.child)).toEqual({ code: 0, signal: null });
    expect(demo.output()).toContain(
      `Stopped (${signal}): the playground and the service emulator are closed.`,
    );
    expect(await answers(demo.pageUrl)).toBe(false);
    expect(await answers(demo.serviceUrl)).toBe(false);
  });
});
