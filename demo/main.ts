// `npm run demo`: the table service emulator with sample data, the Apps Script simulator and a page
// showing the simulated spreadsheet beside the real sidebar, on a printed localhost URL.
import { SAMPLE, startHarness } from './playground-server';

function portFromArgs(argv: readonly string[]): number {
  const at = argv.findIndex((arg) => arg === '--port' || arg.startsWith('--port='));
  if (at < 0) return 8080;
  const text = argv[at]?.includes('=') ? argv[at]?.split('=')[1] : argv[at + 1];
  const port = Number(text);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`--port wants a number 0-65535, got ${text}`);
  return port;
}

const harness = await startHarness({
  port: portFromArgs(process.argv.slice(2)),
  prefillBaseUrl: true,
  realTime: true,
});
const alice = harness.emulator.users.find((user) => user.userId === SAMPLE.users.alice);
console.log(
  [
    '',
    `Table App Sync playground: ${harness.url}/`,
    '',
    `  Service (emulator):   ${harness.emulator.url}  (pre-filled in the sidebar)`,
    `  API key of ${alice ? `${alice.firstName} ${alice.lastName}` : 'alice'}: ${harness.keys[SAMPLE.users.alice]}`,
    `  Table app id:         ${SAMPLE.apps.crm}  (tables ${SAMPLE.tables.deals}, ${SAMPLE.tables.contacts})`,
    '',
    'Connect, link the Deals table, Pull, edit a cell in the grid, Push.',
    'Extensions › Table App Sync has the add-on menu; "Advance 1 hour" moves the simulated clock',
    '(due schedules fire); "Change a row on the service…" edits as another person. Ctrl-C stops.',
    '',
  ].join('\n'),
);

let stopping = false;
async function stop(): Promise<void> {
  if (stopping) return;
  stopping = true;
  await harness.close();
  process.exit(0);
}
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
