// Builds what clasp pushes: dist/Code.js (server bundle + top-level trampolines),
// dist/Sidebar.html (the sidebar with its script and styles inlined) and dist/appsscript.json.
// Everything is built in memory first: a refused input (SERVICE_URL) or a failed bundle leaves the
// previous dist/ as it was, never a dist/ without its manifest for clasp to push.
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'dist');
const NAMESPACE = 'TableAppSync';
// Apps Script's V8 has no class fields support for `#private`/`static x =`; es2020 lowers them.
const TARGET = 'es2020';

async function exportedNames(entry) {
  const probe = await esbuild.build({
    entryPoints: [entry],
    bundle: true,
    format: 'esm',
    write: false,
    metafile: true,
    target: TARGET,
    outfile: 'probe.js',
    logLevel: 'silent',
  });
  const output = Object.values(probe.metafile.outputs)[0];
  return [...output.exports].sort();
}

async function buildServer() {
  const entry = path.join(root, 'src/index.ts');
  const names = await exportedNames(entry);
  const result = await esbuild.build({
    entryPoints: [entry],
    bundle: true,
    format: 'iife',
    globalName: NAMESPACE,
    target: TARGET,
    platform: 'neutral',
    write: false,
    legalComments: 'none',
    charset: 'utf8',
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'warning',
  });
  const bundle = result.outputFiles[0].text;
  // Explicit trampolines: Apps Script finds only top-level function declarations, and these
  // are also the allow-list of what menus, triggers and google.script.run may call.
  const trampolines = names
    .map((name) => `function ${name}() { return ${NAMESPACE}.${name}.apply(this, arguments); }`)
    .join('\n');
  const code = `// Table App Sync — built ${new Date().toISOString().slice(0, 10)}; do not edit, see src/.\n${bundle}\n${trampolines}\n`;
  return { names, code };
}

async function buildSidebar() {
  const dir = path.join(root, 'src/sidebar');
  const html = await readFile(path.join(dir, 'index.html'), 'utf8');
  const css = await readFile(path.join(dir, 'styles.css'), 'utf8');
  const script = await esbuild.build({
    entryPoints: [path.join(dir, 'main.ts')],
    bundle: true,
    format: 'iife',
    target: 'es2020',
    write: false,
    minify: false,
    legalComments: 'none',
    charset: 'utf8',
  });
  // Apps Script cannot serve raw CSS or JS files, so both are inlined into the one page.
  const js = script.outputFiles[0].text.replace(/<\/script/gi, '<\\/script');
  const page = html
    .replace('<!-- inline:styles -->', () => `<style>\n${css}</style>`)
    .replace('<!-- inline:script -->', () => `<script>\n${js}</script>`);
  if (page.includes('<!-- inline:'))
    throw new BuildRefusal('The sidebar template still holds an inline marker.');
  return page;
}

/** A build input a person can fix: said in one message, without a stack trace. */
class BuildRefusal extends Error {}

/** The allow-list entry for SERVICE_URL, or a refusal saying what to set instead. */
function allowListEntry(serviceUrl) {
  const text = serviceUrl.trim();
  const match = /^https:\/\/([a-z0-9.-]+)(:\d+)?(\/\S*)?$/i.exec(text);
  if (match) return `https://${match[1]}${match[2] ?? ''}/`;
  const why = /^http:\/\//i.test(text)
    ? 'Apps Script sends the API key only to an https:// address (it cannot reach plain http or this machine)'
    : 'it must be the https:// address you open the service at';
  throw new BuildRefusal(
    `SERVICE_URL=${text} cannot be used: ${why}. Set it like SERVICE_URL=https://tables.example.com, or leave it unset to build without the allow-list.`,
  );
}

async function buildManifest() {
  const manifest = JSON.parse(await readFile(path.join(root, 'appsscript.json'), 'utf8'));
  const serviceUrl = process.env.SERVICE_URL;
  // A versioned deployment only fetches URLs under urlFetchWhitelist prefixes, each with a path.
  if (serviceUrl) manifest.urlFetchWhitelist = [allowListEntry(serviceUrl)];
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

try {
  const manifest = await buildManifest();
  const { names, code } = await buildServer();
  const sidebar = await buildSidebar();
  await rm(dist, { recursive: true, force: true });
  await mkdir(dist, { recursive: true });
  await writeFile(path.join(dist, 'Code.js'), code);
  await writeFile(path.join(dist, 'Sidebar.html'), sidebar);
  await writeFile(path.join(dist, 'appsscript.json'), manifest);
  console.log(`built dist/Code.js (${names.length} entry points), dist/Sidebar.html, dist/appsscript.json`);
} catch (error) {
  // A refusal is one sentence; esbuild has printed its errors with file and line above this one.
  const message =
    error instanceof BuildRefusal
      ? error.message
      : `The build failed: ${error instanceof Error ? error.message : error}`;
  console.error(`${message}\nNothing was written: dist/ is as it was.`);
  process.exitCode = 1;
}
