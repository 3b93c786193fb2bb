// The CLI behind `npm run emulator`: starts the emulator with sample data and prints the URL, prefixes, a key and ids.

import { parseArgs } from 'node:util';
import type { PollMode } from './poll.js';
import type { QueryMode } from './query.js';
import { SAMPLE } from './sample-data.js';
import { createTableService } from './server.js';
import type { DataSetName, ListShape } from './types.js';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '8787' },
    host: { type: 'string', default: '127.0.0.1' },
    data: { type: 'string', default: 'sample' },
    'data-file': { type: 'string' },
    'list-shape': { type: 'string', default: 'object' },
    poll: { type: 'string', default: 'on' },
    query: { type: 'string', default: 'on' },
    seed: { type: 'string', default: '1' },
    secret: { type: 'string' },
    latency: { type: 'string' },
    'without-app-search': { type: 'boolean', default: false },
    'no-delete': { type: 'boolean', default: false },
    platform: { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  },
});

if (values.help) {
  process.stdout.write(
    'Usage: npm run emulator -- [--port 8787] [--host 127.0.0.1] [--data sample|playground|empty] [--data-file state.json]\n' +
      '                          [--list-shape object|array] [--poll on|off|ignore-since]\n' +
      '                          [--query on|off|ignore-body] [--seed 1] [--secret S] [--latency ms]\n' +
      '                          [--without-app-search]   (GET /tableApps answers 404, as a service without it)\n' +
      '                          [--no-delete]   (answer DELETE of a row 405, as a service without it)\n' +
      '                          [--platform]   (platform error bodies; 60 requests a minute, 1,800 an hour)\n',
  );
  process.exit(0);
}

const service = await createTableService({
  port: Number(values.port),
  host: values.host,
  data: values.data as DataSetName,
  listShape: values['list-shape'] as ListShape,
  servesDelete: !values['no-delete'],
  poll: values.poll as PollMode,
  query: values.query as QueryMode,
  seed: Number(values.seed),
  tableAppSearch: !values['without-app-search'],
  ...(values['data-file'] ? { dataFile: values['data-file'] } : {}),
  ...(values.secret ? { secret: values.secret } : {}),
  ...(values.latency ? { faults: { latencyMs: Number(values.latency) } } : {}),
  ...(values.platform ? { platform: true as const } : {}),
});

const alice = service.keys[SAMPLE.users.alice];
const lines = [
  `Table service emulator listening on ${service.url}`,
  '',
  `  Base URL:   ${service.url}`,
  `  Prefixes:   ${service.url}/api/public   and   ${service.url}/public`,
  `  Admin:      ${service.url}/__admin/state   (loopback only)`,
  ...(values.platform
    ? [
        '  Platform mode: platform error bodies; 60 requests a minute and 1,800 an hour per key (429, no Retry-After)',
      ]
    : []),
  '',
];
if (alice) {
  lines.push(
    '  API key for alice@acme.test (u_alice, account acc_acme):',
    `  ${alice}`,
    '',
    `  Table app:  ${SAMPLE.apps.crm} (CRM)   tables: ${SAMPLE.tables.deals} (Deals), ${SAMPLE.tables.contacts} (Contacts)`,
    `  Also:       ${SAMPLE.apps.ops} (HTML-injection name), ${SAMPLE.apps.globex} (account acc_globex: 403 for alice)`,
    '',
    '  Try:',
    `  curl -H "auth: ${alice}" ${service.url}/api/public/tableApps/${SAMPLE.apps.crm}`,
  );
} else {
  lines.push(`  Users: ${service.users.map((u) => u.userId).join(', ') || '(none)'}`);
}
process.stdout.write(lines.join('\n') + '\n');

const stop = (): void => {
  void service.close().then(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
