// The built bundle, exactly as clasp pushes it: loads in a bare V8 context, exposes exactly the
// exports of src/index.ts as top-level functions, builds the menu; and clasp sees the three files.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createSimulator, ScriptSyntaxError } from '../emulators/apps-script';
import * as entry from '../src/index';

const code = readFileSync('dist/Code.js', 'utf8');
const exported = Object.keys(entry).sort();

describe('dist/Code.js', () => {
  it('declares one top-level function per export of src/index.ts and nothing else callable', () => {
    const sim = createSimulator({ code });
    expect([...sim.functionNames].sort()).toEqual(exported);
  });

  it('adds exactly the exported functions and its one namespace to a bare context’s globals', () => {
    const lister = '\nfunction listGlobals_() { return Object.getOwnPropertyNames(globalThis); }';
    const baseline = createSimulator({ code: lister }).run('listGlobals_').value as string[];
    const withBundle = createSimulator({ code: code + lister }).run('listGlobals_').value as string[];
    const added = withBundle.filter((name) => !baseline.includes(name)).sort();
    expect(added).toEqual([...exported, 'TableAppSync'].sort());
  });

  it('builds the menu on open, and only authorisation-free items in AuthMode.NONE', () => {
    const sim = createSimulator({ code });
    expect(sim.run('onOpen', [{ authMode: 'FULL' }]).ok).toBe(true);
    const full = sim.ui.menus.at(-1);
    expect(full?.items.map((item) => item.fn)).toEqual(
      expect.arrayContaining([
        'showSidebar',
        'menuPull',
        'menuPush',
        'menuSync',
        'menuImportMembers',
        'menuHelp',
      ]),
    );
    for (const item of full?.items ?? []) if (item.fn) expect(exported).toContain(item.fn);
    const sim2 = createSimulator({ code });
    sim2.run('onOpen', [{ authMode: 'NONE' }], { authMode: 'NONE' });
    expect(
      sim2.ui.menus
        .at(-1)
        ?.items.map((item) => item.fn)
        .filter(Boolean),
    ).toEqual(['showSidebar', 'menuHelp']);
  });

  it('opens the sidebar from the built Sidebar.html', () => {
    const sim = createSimulator({ code });
    expect(sim.run('showSidebar').ok).toBe(true);
    expect(sim.ui.sidebars[0]?.title).toBe('Table App Sync');
    expect(sim.ui.sidebars[0]?.html).toContain('<script>');
  });

  it('targets what Apps Script V8 runs: no class fields, no import/export, no Node or web globals', () => {
    expect(code).not.toMatch(/^\s*(import|export)\s/m);
    expect(code).not.toMatch(/\b(setTimeout|URLSearchParams|TextEncoder|require\(|process\.)/);
  });
});

describe('the simulator refuses what Apps Script cannot run', () => {
  it('fails a bundle that uses URL or setTimeout at run time', () => {
    const sim = createSimulator({
      code: 'function a() { return new URL("https://x"); }\nfunction b() { setTimeout(() => 1, 1); }',
    });
    expect(sim.run('a').error?.message).toMatch(/URL is not defined/);
    expect(sim.run('b').error?.message).toMatch(/setTimeout is not defined/);
  });

  it('refuses class #private and static fields at load time', () => {
    expect(() => createSimulator({ code: 'class A { #x = 1; }' })).toThrow(ScriptSyntaxError);
    expect(() => createSimulator({ code: 'class A { static y = 1; }' })).toThrow(ScriptSyntaxError);
  });
});

describe('the manifest and clasp', () => {
  it('asks for exactly the narrow scopes, on V8, with exception logging', () => {
    const manifest = JSON.parse(readFileSync('dist/appsscript.json', 'utf8'));
    expect(manifest.runtimeVersion).toBe('V8');
    expect(manifest.exceptionLogging).toBe('STACKDRIVER');
    expect([...manifest.oauthScopes].sort()).toEqual(
      [
        'https://www.googleapis.com/auth/script.container.ui',
        'https://www.googleapis.com/auth/script.external_request',
        'https://www.googleapis.com/auth/script.scriptapp',
        'https://www.googleapis.com/auth/script.send_mail',
        'https://www.googleapis.com/auth/spreadsheets.currentonly',
      ].sort(),
    );
  });

  it('clasp status (offline) lists exactly the three dist files', () => {
    const output = execFileSync('npx', ['clasp', 'status', '--json'], { encoding: 'utf8' });
    const status = JSON.parse(output.slice(output.indexOf('{')));
    expect([...status.filesToPush].sort()).toEqual([
      'dist/Code.js',
      'dist/Sidebar.html',
      'dist/appsscript.json',
    ]);
  });
});
