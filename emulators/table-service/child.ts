// Child-process entry of startEmulator: reads the options as one JSON line on stdin, starts the server, prints one
// JSON ready line on stdout, and shuts down when stdin closes (the parent is gone) or on SIGTERM/SIGINT.

import { createInterface } from 'node:readline';
import { createTableService, type TableService } from './server.js';
import type { EmulatorOptions } from './types.js';

let service: TableService | undefined;
let stopping = false;

async function stop(code: number): Promise<void> {
  if (stopping) return;
  stopping = true;
  try {
    await service?.close();
  } finally {
    process.exit(code);
  }
}

const lines = createInterface({ input: process.stdin });
lines.once('line', (line) => {
  void (async () => {
    try {
      const options = JSON.parse(line) as EmulatorOptions;
      service = await createTableService(options);
      process.stdout.write(
        JSON.stringify({
          type: 'ready',
          url: service.url,
          keys: service.keys,
          users: service.users,
          pid: process.pid,
        }) + '\n',
      );
    } catch (error) {
      process.stdout.write(JSON.stringify({ type: 'error', message: (error as Error).message }) + '\n');
      await stop(1);
    }
  })();
});
lines.on('close', () => void stop(0));
process.on('SIGTERM', () => void stop(0));
process.on('SIGINT', () => void stop(0));
