// HtmlService (§7) and the spreadsheet Ui: menus, sidebars, dialogs and alerts recorded for tests.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { GasError, GasObject } from './realm';
import type { AlertAnswer, AlertRecord, Runtime } from './runtime';

export class HtmlOutputImpl
  extends GasObject
  implements Pick<GoogleAppsScript.HTML.HtmlOutput, 'getContent' | 'getTitle' | 'getWidth' | 'getHeight'>
{
  protected readonly _gasType = 'HtmlOutput';
  private _title = '';
  private _width = 300;
  private _height = 500;
  constructor(private _content: string) {
    super();
  }
  getContent(): string {
    return this._content;
  }
  setContent(content: string): HtmlOutputImpl {
    this._content = String(content);
    return this;
  }
  append(addedContent: string): HtmlOutputImpl {
    this._content += String(addedContent);
    return this;
  }
  appendUntrusted(addedContent: string): HtmlOutputImpl {
    this._content += escapeHtml(String(addedContent));
    return this;
  }
  clear(): HtmlOutputImpl {
    this._content = '';
    return this;
  }
  getTitle(): string {
    return this._title;
  }
  setTitle(title: string): HtmlOutputImpl {
    this._title = String(title);
    return this;
  }
  getWidth(): number {
    return this._width;
  }
  setWidth(width: number): HtmlOutputImpl {
    this._width = Number(width);
    return this;
  }
  getHeight(): number {
    return this._height;
  }
  setHeight(height: number): HtmlOutputImpl {
    this._height = Number(height);
    return this;
  }
  /** §7: IFRAME is the only mode; the call has no effect. */
  setSandboxMode(): HtmlOutputImpl {
    return this;
  }
  setXFrameOptionsMode(): HtmlOutputImpl {
    return this;
  }
  setFaviconUrl(): HtmlOutputImpl {
    return this;
  }
  addMetaTag(): HtmlOutputImpl {
    return this;
  }
}

function escapeHtml(s: string): string {
  return s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );
}

/** A template: scripts set properties on it, then `evaluate()` runs its scriptlets in the execution's context. */
export class HtmlTemplateImpl extends GasObject {
  protected readonly _gasType = 'HtmlTemplate';
  /** Properties a script assigns (`t.rows = ...`) land here (see the proxy in the simulator). */
  readonly _props: Record<string, unknown> = {};
  constructor(
    private readonly _rt: Runtime,
    private readonly _source: string,
  ) {
    super();
  }
  getCode(): string {
    return compileTemplate(this._source);
  }
  evaluate(): HtmlOutputImpl {
    const html = this._rt.evaluateInContext(compileTemplate(this._source), this._props);
    return new HtmlOutputImpl(String(html));
  }
}

/** Compiles `<? ?>`, `<?= ?>` (escaped) and `<?!= ?>` (raw) scriptlets to a function source. */
function compileTemplate(source: string): string {
  let body = '';
  let last = 0;
  const re = /<\?(!=|=)?([\s\S]*?)\?>/g;
  for (let m = re.exec(source); m; m = re.exec(source)) {
    body += `__o.push(${JSON.stringify(source.slice(last, m.index))});\n`;
    const code = (m[2] as string).trim().replace(/;$/, '');
    if (m[1] === '=') body += `__o.push(__esc(${code}));\n`;
    else if (m[1] === '!=') body += `__o.push(String(${code}));\n`;
    else body += `${m[2]}\n`;
    last = re.lastIndex;
  }
  body += `__o.push(${JSON.stringify(source.slice(last))});\n`;
  return `(function (__scope, __esc) { var __o = []; with (__scope) {\n${body}} return __o.join(''); })`;
}

export const templateEscape = (v: unknown): string =>
  escapeHtml(v === undefined || v === null ? '' : String(v));

export class HtmlServiceImpl extends GasObject {
  protected readonly _gasType = 'HtmlService';
  readonly SandboxMode = { EMULATED: 'EMULATED', IFRAME: 'IFRAME', NATIVE: 'NATIVE' };
  readonly XFrameOptionsMode = { ALLOWALL: 'ALLOWALL', DEFAULT: 'DEFAULT' };
  constructor(private readonly _rt: Runtime) {
    super();
  }
  private _read(name: string): string {
    const base = String(name).replace(/\.html$/, '');
    const file = path.join(this._rt.distDir, `${base}.html`);
    if (!existsSync(file)) throw new GasError(`No HTML file named ${base} was found.`);
    return readFileSync(file, 'utf8');
  }
  createHtmlOutput(html?: string): HtmlOutputImpl {
    return new HtmlOutputImpl(html === undefined ? '' : String(html));
  }
  createHtmlOutputFromFile(filename: string): HtmlOutputImpl {
    return new HtmlOutputImpl(this._read(filename));
  }
  createTemplate(html: string): HtmlTemplateImpl {
    return new HtmlTemplateImpl(this._rt, String(html));
  }
  createTemplateFromFile(filename: string): HtmlTemplateImpl {
    return new HtmlTemplateImpl(this._rt, this._read(filename));
  }
}

interface MenuItem {
  caption: string;
  fn: string;
}

export class MenuImpl extends GasObject {
  protected readonly _gasType = 'Menu';
  readonly _items: MenuItem[] = [];
  constructor(
    private readonly _rt: Runtime,
    readonly _name: string,
    private readonly _addon: boolean,
  ) {
    super();
  }
  addItem(caption: string, functionName: string): MenuImpl {
    this._items.push({ caption: String(caption), fn: String(functionName) });
    return this;
  }
  addSeparator(): MenuImpl {
    this._items.push({ caption: '---', fn: '' });
    return this;
  }
  addSubMenu(menu: MenuImpl): MenuImpl {
    for (const item of menu._items)
      this._items.push({ caption: `${menu._name} > ${item.caption}`, fn: item.fn });
    return this;
  }
  addToUi(): void {
    const menus = this._rt.ui.menus;
    const i = menus.findIndex((m) => m.name === this._name && m.addon === this._addon);
    const entry = { name: this._name, items: this._items.map((x) => ({ ...x })), addon: this._addon };
    if (i >= 0) menus[i] = entry;
    else menus.push(entry);
  }
}

class PromptResponseImpl extends GasObject {
  protected readonly _gasType = 'PromptResponse';
  constructor(
    private readonly _text: string,
    private readonly _button: string,
  ) {
    super();
  }
  getResponseText(): string {
    return this._text;
  }
  getSelectedButton(): string {
    return this._button;
  }
}

const CONTAINER_UI = 'https://www.googleapis.com/auth/script.container.ui';

/**
 * The buttons a person can press in an alert of a ButtonSet: its own, and CLOSE, the close button in
 * every dialog's title bar [REF developers.google.com/apps-script/reference/base/ui: "The user can
 * also close the dialog by clicking the close button in its title bar"].
 */
export function buttonsOf(buttonSet: string): string[] {
  const own: Record<string, string[]> = {
    OK: ['OK'],
    OK_CANCEL: ['OK', 'CANCEL'],
    YES_NO: ['YES', 'NO'],
    YES_NO_CANCEL: ['YES', 'NO', 'CANCEL'],
  };
  return [...(own[buttonSet] ?? ['OK']), 'CLOSE'];
}

export class UiImpl extends GasObject {
  protected readonly _gasType = 'Ui';
  readonly ButtonSet = { OK: 'OK', OK_CANCEL: 'OK_CANCEL', YES_NO: 'YES_NO', YES_NO_CANCEL: 'YES_NO_CANCEL' };
  readonly Button = { CLOSE: 'CLOSE', OK: 'OK', CANCEL: 'CANCEL', YES: 'YES', NO: 'NO' };
  constructor(private readonly _rt: Runtime) {
    super();
  }
  /** §6: in an add-on the caption is ignored and the menu goes under Extensions. */
  createMenu(caption: string): MenuImpl {
    const addon = this._rt.installation === 'addon';
    return new MenuImpl(this._rt, addon ? this._rt.scriptName : String(caption), addon);
  }
  createAddonMenu(): MenuImpl {
    return new MenuImpl(this._rt, this._rt.scriptName, true);
  }
  showSidebar(userInterface: HtmlOutputImpl): void {
    this._rt.requireAuth('Ui.showSidebar', CONTAINER_UI, 'FULL');
    if (!(userInterface instanceof HtmlOutputImpl))
      throw new GasError("The parameters don't match the method signature for Ui.showSidebar.");
    this._rt.ui.sidebars.push({
      title: userInterface.getTitle(),
      html: userInterface.getContent(),
      at: this._rt.clock.now(),
    });
  }
  private _dialog(ui: HtmlOutputImpl, title: string, modal: boolean): void {
    this._rt.requireAuth('Ui.showModalDialog', CONTAINER_UI, 'FULL');
    if (!(ui instanceof HtmlOutputImpl))
      throw new GasError("The parameters don't match the method signature for Ui.showModalDialog.");
    this._rt.ui.dialogs.push({
      title: String(title ?? ui.getTitle()),
      html: ui.getContent(),
      modal,
      at: this._rt.clock.now(),
    });
  }
  showModalDialog(userInterface: HtmlOutputImpl, title: string): void {
    this._dialog(userInterface, title, true);
  }
  showModelessDialog(userInterface: HtmlOutputImpl, title: string): void {
    this._dialog(userInterface, title, false);
  }
  /**
   * alert(prompt) | alert(prompt, buttons) | alert(title, prompt, buttons). "Alerts suspend the
   * server-side script while the dialog is open. The script resumes after the user closes the dialog"
   * [DOC developers.google.com/apps-script/guides/dialogs]: the answer comes from the queued answers,
   * else from `ui.answerAlert` (the person), else OK (YES for YES_NO sets) at once.
   */
  alert(a: string, b?: string, c?: string): string {
    let title = '';
    let prompt = String(a);
    let buttons = 'OK';
    if (c !== undefined) {
      title = String(a);
      prompt = String(b);
      buttons = String(c);
    } else if (b !== undefined) buttons = String(b);
    const at = this._rt.clock.now();
    const record: AlertRecord = { title, prompt, buttons, at };
    this._rt.ui.alerts.push(record);
    const answer = this._answer(record);
    const allowed = buttonsOf(buttons);
    if (!allowed.includes(answer.button))
      throw new Error(
        `An alert with buttons ${buttons} was answered ${answer.button}: a person can press ${allowed.join(', ')}`,
      );
    if (answer.afterMs !== undefined && answer.afterMs > 0) this._rt.clock.advance(answer.afterMs);
    return answer.button;
  }
  private _answer(record: AlertRecord): AlertAnswer {
    const ui = this._rt.ui;
    const scripted = ui.alertAnswers?.shift();
    if (typeof scripted === 'string') return { button: scripted };
    if (scripted !== undefined) return scripted;
    if (ui.answerAlert) {
      const exec = this._rt.current();
      const endsAt = exec ? exec.startedAt + exec.limitMs : Number.POSITIVE_INFINITY;
      return ui.answerAlert({ ...record, endsAt });
    }
    return { button: record.buttons.startsWith('YES') ? 'YES' : 'OK' };
  }
  prompt(a: string, b?: string, c?: string): PromptResponseImpl {
    return new PromptResponseImpl('', this.alert(a, b, c));
  }
  showDialog(): void {}
}
