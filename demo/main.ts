// `npm run demo`: the table service emulator with sample data, the Apps Script simulator and a page
// showing the simulated spreadsheet beside the real sidebar, on a printed localhost URL.
import { ListenError } from './front-server';
import { type Harness, SAMPLE, startHarness } from './playground-server';

const DEFAULT_PORT = 8080;

/** The port asked for with `--port N` (or `--port=N`); a bad value ends the demo with a sentence. */
function portFromArgs(argv: readonly string[]): number {
  const at = argv.findIndex((arg) => arg === '--port' || arg.startsWith('--port='));
  if (at < 0) return DEFAULT_PORT;
  const text = argv[at]?.includes('=') ? argv[at]?.split('=')[1] : argv[at + 1];
  const port = Number(text);
  if (text === undefined || text === '' || !Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(
      `--port wants a whole number from 0 to 65535 (0: any free port), got ${text ?? 'nothing'}: e.g. npm run demo -- --port 9000`,
    );
    process.exit(2);
  }
  return port;
}

const REFUSED: Record<string, string> = {
  EADDRINUSE: 'is taken by another program',
  EACCES: 'is not allowed for this user',
};

/**
 * How the service plays: `--platform` as the larger platform it seems to share its API with (its
 * error bodies; 60 requests a minute and 1,800 an hour, refused with 429 and no Retry-After),
 * `--no-delete` without deleting rows, `--without-app-search` without the search of table apps.
 */
function serviceFromArgs(argv: readonly string[]) {
  return {
    ...(argv.includes('--platform') ? { platform: true as const } : {}),
    ...(argv.includes('--no-delete') ? { servesDelete: false } : {}),
    ...(argv.includes('--without-app-search') ? { tableAppSearch: false } : {}),
  };
}

const argv = process.argv.slice(2);
const port = portFromArgs(argv);
const service = serviceFromArgs(argv);
let harness: Harness;
try {
  harness = await startHarness({
    port,
    portFallback: true,
    prefillBaseUrl: true,
    realTime: true,
    emulator: service,
  });
} catch (error) {
  const message = error instanceof ListenError ? `cannot listen (${error.code})` : String(error);
  console.error(`The playground could not start: ${message}`);
  process.exit(1);
}

const alice = harness.emulator.users.find((user) => user.userId === SAMPLE.users.alice);
const refused = harness.portRefused;
console.log(
  [
    '',
    ...(refused
      ? [
          `Port ${refused.port} ${REFUSED[refused.code] ?? `cannot be used (${refused.code})`}: using a free port instead (choose one with npm run demo -- --port 9000).`,
        ]
      : []),
    `Table App Sync playground: ${harness.url}/`,
    '',
    `  Service (emulator):   ${harness.emulator.url}  (pre-filled in the sidebar)`,
    `  API key of ${alice ? `${alice.firstName} ${alice.lastName}` : 'alice'}: ${harness.keys[SAMPLE.users.alice]}`,
    `  Table app id:         ${SAMPLE.apps.crm}  (tables ${SAMPLE.tables.deals}, ${SAMPLE.tables.contacts})`,
    ...(service.platform
      ? ['  The service limits requests: 60 a minute and 1,800 an hour per key (429, no Retry-After).']
      : []),
    ...(service.servesDelete === false
      ? ['  The service does not allow deleting rows through its API.']
      : []),
    ...(service.tableAppSearch === false
      ? ['  The service does not list table apps: paste a link or id.']
      : []),
    '',
    'Connect, link the Deals table, Pull, edit a cell in the grid, Push.',
    `The sample data is hostile on purpose (a table app named ${SAMPLE.opsAppName}, titles like`,
    '=IMPORTXML(…) and +cmd): each should read as written; nothing is rendered as HTML or run as a formula.',
    'Extensions › Table App Sync has the add-on menu; its dialogs wait for your answer, as in Sheets.',
    'The simulated clock follows real time (the service\'s with it), and "Advance 1 hour" jumps it',
    '(due schedules fire, and it says how they ended); "Change a row on the service…" edits or deletes',
    'a row as another person; "Outbox" shows the mails the add-on sent. Ctrl-C stops (the emulator too).',
    '',
  ].join('\n'),
);

let stopping = false;
async function stop(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  await harness.close();
  console.log(`Stopped (${signal}): the playground and the service emulator are closed.`);
  process.exit(0);
}
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));
