// The "Check this spreadsheet" self-check, run in the simulator: every check passes, the temporary
// sheet and trigger are gone afterwards, and the report never carries the API key.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AppsScriptSimulator, createSimulator } from '../../emulators/apps-script';
import { type RunningEmulator, startEmulator } from '../../emulators/table-service';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

interface Report {
  checks: Array<{ name: string; passed: boolean; detail: string; meaning: string }>;
}

/**
 * Bundles src/index.ts plus the self-check the way scripts/build.mjs does (IIFE + top-level
 * trampolines), so the test runs before src/index.ts exports the self-check.
 */
async function bundleWithSelfCheck(): Promise<string> {
  const contents = [
    "export * from './src/index';",
    "export { menuSelfCheck, runSelfCheck } from './src/gas/self-check';",
  ].join('\n');
  const result = await esbuild.build({
    stdin: { contents, resolveDir: ROOT, loader: 'ts', sourcefile: 'self-check-entry.ts' },
    bundle: true,
    format: 'iife',
    globalName: 'TableAppSync',
    target: 'es2020',
    platform: 'neutral',
    write: false,
    metafile: true,
    outfile: 'Code.js',
    legalComments: 'none',
    charset: 'utf8',
    logLevel: 'silent',
  });
  const names = new Set<string>();
  for (const output of Object.values(result.metafile.outputs))
    for (const name of output.exports) names.add(name);
  const probe = await esbuild.build({
    stdin: { contents, resolveDir: ROOT, loader: 'ts' },
    bundle: true,
    format: 'esm',
    write: false,
    metafile: true,
    outfile: 'probe.js',
    logLevel: 'silent',
  });
  for (const output of Object.values(probe.metafile.outputs))
    for (const name of output.exports) names.add(name);
  const trampolines = [...names]
    .sort()
    .map((name) => `function ${name}() { return TableAppSync.${name}.apply(this, arguments); }`)
    .join('\n');
  return `${result.outputFiles[0]?.text}\n${trampolines}\n`;
}

describe('self-check', () => {
  let emulator: RunningEmulator;
  let code: string;
  let sim: AppsScriptSimulator;

  beforeAll(async () => {
    code = await bundleWithSelfCheck();
    emulator = await startEmulator();
    sim = createSimulator({ code, distDir: path.join(ROOT, 'dist'), spreadsheetName: 'Self-check' });
  });
  afterAll(async () => emulator?.close());

  const run = (fn: string): Report => {
    const result = sim.run(fn);
    expect(result.ok, result.error?.message).toBe(true);
    return result.value as Report;
  };

  it('without a connection: the spreadsheet checks pass and fetchAll says to connect first', () => {
    const report = run('runSelfCheck');
    expect(report.checks.map((c) => c.name)).toHaveLength(8);
    const fetchAll = report.checks.find((c) => /fetchAll/.test(c.name));
    expect(fetchAll?.passed).toBe(false);
    expect(fetchAll?.detail).toMatch(/connect/i);
    for (const check of report.checks.filter((c) => c !== fetchAll))
      expect(check.passed, `${check.name}: ${check.detail}`).toBe(true);
  });

  it('connected and linked: every check passes, and the temporary sheet and trigger are gone', () => {
    const saved = sim.callFromClient('saveConnection', [
      { baseUrl: emulator.url, apiKey: emulator.keys.u_alice },
    ]);
    expect(saved.ok, saved.error?.message).toBe(true);
    expect(sim.callFromClient('linkActiveSheet', [{ tableAppId: 'ta_crm', tableId: 'tbl_deals' }]).ok).toBe(
      true,
    );
    const sheetsBefore = sim.spreadsheet.getSheets().map((s) => s.getName());
    const activeBefore = sim.spreadsheet.getActiveSheet().getName();
    const report = run('runSelfCheck');
    for (const check of report.checks) {
      expect(check.passed, `${check.name}: ${check.detail}`).toBe(true);
      expect(check.meaning.length).toBeGreaterThan(20);
    }
    expect(report.checks.find((c) => /fetchAll/.test(c.name))?.detail).toMatch(/me, page, me/);
    // The simulator keeps a leading apostrophe in plain-text cells (its stricter reading).
    expect(report.checks.find((c) => /apostrophe/i.test(c.name))?.detail).toMatch(/^Kept|^Stripped/);
    expect(sim.spreadsheet.getSheets().map((s) => s.getName())).toEqual(sheetsBefore);
    expect(sim.spreadsheet.getActiveSheet().getName()).toBe(activeBefore);
    expect(sim.triggers()).toEqual([]);
    expect(JSON.stringify(report)).not.toContain(emulator.keys.u_alice);
  });

  it('says how many linked sheets the edit trigger serves, in words (no "sheet(s)")', () => {
    const on = sim.callFromClient('setLinkOptions', [{ live: true }]);
    expect(on.ok, on.error?.message).toBe(true);
    const report = run('runSelfCheck');
    expect(report.checks.find((c) => /edit trigger/.test(c.name))?.detail).toBe(
      'Your edit trigger serves 1 linked sheet.',
    );
    const off = sim.callFromClient('setLinkOptions', [{ live: false }]);
    expect(off.ok, off.error?.message).toBe(true);
    expect(sim.triggers()).toEqual([]);
  });

  it('the menu item shows the results in an alert', () => {
    const result = sim.run('menuSelfCheck');
    expect(result.ok, result.error?.message).toBe(true);
    const alert = JSON.stringify(sim.ui.alerts[sim.ui.alerts.length - 1]);
    expect(alert).toContain('All checks passed');
    expect(alert).toContain('Literal text in plain-text cells');
  });

  it('reports what the sheet keeps of numbers and that date-formatted cells read back as dates', () => {
    const report = run('runSelfCheck');
    const numbers = report.checks.find((c) => /Numbers keep/.test(c.name));
    expect(numbers?.passed).toBe(true);
    expect(numbers?.detail).toMatch(/^Kept every digit: 0.30000000000000004 → 0.30000000000000004/);
    const dates = report.checks.find((c) => /Date-formatted/.test(c.name));
    expect(dates?.passed).toBe(true);
    expect(dates?.detail).toMatch(/read back as Date\(2024-01-05/);
    const rounding = createSimulator({ code, distDir: path.join(ROOT, 'dist'), cellSignificantDigits: 15 });
    const rounded = (rounding.run('runSelfCheck').value as Report).checks.find((c) =>
      /Numbers keep/.test(c.name),
    );
    expect(rounded?.passed).toBe(true);
    expect(rounded?.detail).toMatch(/the rest at 15 significant digits: 0.30000000000000004 → 0.3;/);
  });

  it('the trigger check passes with the schedule an add-on already has (one clock trigger per person)', () => {
    const addon = createSimulator({ code, distDir: path.join(ROOT, 'dist'), installation: 'addon' });
    expect(
      addon.callFromClient('saveConnection', [{ baseUrl: emulator.url, apiKey: emulator.keys.u_alice }]).ok,
    ).toBe(true);
    expect(addon.callFromClient('linkActiveSheet', [{ tableAppId: 'ta_crm', tableId: 'tbl_deals' }]).ok).toBe(
      true,
    );
    const scheduled = addon.callFromClient('setSchedule', [{ mode: 'pull', every: 'h1' }]);
    expect(scheduled.ok, scheduled.error?.message).toBe(true);
    const report = addon.run('runSelfCheck').value as Report;
    const trigger = report.checks.find((c) => /triggers/.test(c.name));
    expect(trigger?.passed, trigger?.detail).toBe(true);
    expect(trigger?.detail).toMatch(/^Passed with schedule/);
    // The schedule's trigger is still the only one.
    expect(addon.triggers().filter((t) => t.source === 'CLOCK')).toHaveLength(1);
  });

  it('reports a failed check when the platform changes text (a cell that is not plain text)', () => {
    // A stand-in platform where setNumberFormat('@') does nothing: literals become numbers and dates.
    expect(code).toMatch(/range\.setNumberFormat\("@"\);\s+range\.setValues\(inputs/);
    const broken = createSimulator({
      code: code.replace(/range\.setNumberFormat\("@"\);(\s+range\.setValues\(inputs)/, '$1'),
      distDir: path.join(ROOT, 'dist'),
    });
    const result = broken.run('runSelfCheck');
    expect(result.ok, result.error?.message).toBe(true);
    const checks = (result.value as Report).checks;
    const literal = checks.find((c) => /Literal/.test(c.name));
    expect(literal?.passed).toBe(false);
    expect(literal?.detail).toMatch(/00123 → 123/);
    expect(checks.find((c) => /= \+ - @/.test(c.name))?.passed).toBe(false);
  });
});
