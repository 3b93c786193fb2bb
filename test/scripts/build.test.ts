// scripts/build.mjs refuses a SERVICE_URL it cannot use with one clear sentence and leaves dist/ as it
// was (issue 26, point 10: `SERVICE_URL=http://… npm run deploy` printed a stack trace and left dist/
// without its manifest, ready for clasp to push a broken project).
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
let temp: string;

/** Runs the build in a temporary copy of the project, so the checkout's dist/ is never touched. */
function build(serviceUrl?: string): { status: number | null; stdout: string; stderr: string } {
  const env = { ...process.env };
  delete env.SERVICE_URL;
  if (serviceUrl !== undefined) env.SERVICE_URL = serviceUrl;
  const run = spawnSync(process.execPath, [path.join(temp, 'scripts/build.mjs')], { env, encoding: 'utf8' });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

function distFiles(): Record<string, string> {
  const dist = path.join(temp, 'dist');
  return Object.fromEntries(
    readdirSync(dist).map((name) => [name, readFileSync(path.join(dist, name), 'utf8')]),
  );
}

beforeAll(() => {
  temp = mkdtempSync(path.join(tmpdir(), 'tas-build-'));
  mkdirSync(path.join(temp, 'scripts'));
  copyFileSync(path.join(ROOT, 'scripts/build.mjs'), path.join(temp, 'scripts/build.mjs'));
  copyFileSync(path.join(ROOT, 'appsscript.json'), path.join(temp, 'appsscript.json'));
  symlinkSync(path.join(ROOT, 'src'), path.join(temp, 'src'));
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(temp, 'node_modules'));
});

afterAll(() => {
  rmSync(temp, { recursive: true, force: true });
});

describe('npm run build with a SERVICE_URL it cannot use', () => {
  it.each([
    ['http://tables.example.com', /only to an https:\/\/ address/],
    ['tables.example.com', /must be the https:\/\/ address you open the service at/],
  ])('refuses %s in one sentence and leaves dist/ as it was', (serviceUrl, why) => {
    expect(build().status).toBe(0);
    const before = distFiles();
    expect(Object.keys(before).sort()).toEqual(['Code.js', 'Sidebar.html', 'appsscript.json']);

    const refused = build(serviceUrl);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(why);
    expect(refused.stderr).toContain('Set it like SERVICE_URL=https://tables.example.com');
    expect(refused.stderr).toContain('Nothing was written: dist/ is as it was.');
    expect(refused.stderr, 'no stack trace').not.toMatch(/^\s+at /m);
    expect(distFiles()).toEqual(before);
  });
});
