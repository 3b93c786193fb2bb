// The playground page: the simulated spreadsheet (an Extensions menu with the add-on's items, tabs, an
// editable grid, header notes, status column, alerts and toasts) beside the sidebar, with playground
// controls Sheets does not have: the simulated clock and changing a row on the service as someone else.

import { PAGE_GRID_SCRIPT } from './page-grid-script';
import { PAGE_TOOLS_SCRIPT } from './page-tools-script';

/** The page's icon (served at /favicon.ico so the browser finds one). */
export const FAVICON =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="3" fill="#188038"/><path d="M4 4h8v2H4zm0 3h8v2H4zm0 3h8v2H4z" fill="#fff"/></svg>';

/** HTML of `/`. The grid comes from `/grid`; edits go to `/edit`; every value is set as text. */
export const SPREADSHEET_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Table App Sync — playground</title>
<link rel="icon" href="/favicon.ico" type="image/svg+xml">
<style>
  * { box-sizing: border-box; }
  body { margin: 0; font: 13px Arial, sans-serif; color: #202124; display: flex; flex-direction: column; height: 100vh; overflow: hidden; }
  #top { border-bottom: 1px solid #dadce0; padding: 6px 12px 0; }
  #top h1 { font-size: 17px; margin: 0 0 2px; font-weight: normal; }
  #menubar { display: flex; gap: 2px; position: relative; }
  .menu-wrap { position: relative; }
  .menu-wrap > button { font: inherit; background: none; border: 0; padding: 4px 8px; border-radius: 4px; cursor: pointer; }
  .menu-wrap > button[aria-expanded="true"], .menu-wrap > button:hover { background: #e8eaed; }
  .dropdown { position: absolute; top: 100%; left: 0; z-index: 20; background: #fff; border: 1px solid #dadce0; box-shadow: 0 2px 6px rgba(0,0,0,.25); min-width: 260px; padding: 6px 0; }
  .dropdown .menu-title { padding: 4px 16px; color: #5f6368; font-size: 12px; }
  .dropdown button { display: block; width: 100%; text-align: left; font: inherit; background: none; border: 0; padding: 6px 16px 6px 28px; cursor: pointer; }
  .dropdown button:hover, .dropdown button:focus { background: #e8eaed; outline: none; }
  .dropdown hr { border: 0; border-top: 1px solid #dadce0; margin: 4px 0; }
  .dropdown kbd { float: right; color: #5f6368; font: inherit; margin-left: 16px; }
  #cell-bar { display: flex; gap: 8px; align-items: center; padding: 4px 12px; color: #5f6368; }
  #active-cell { display: inline-block; min-width: 48px; border: 1px solid #dadce0; padding: 1px 6px; color: #202124; }
  #tools { display: flex; gap: 8px; align-items: center; flex-wrap: wrap; padding: 6px 12px; background: #fef7e0; border-bottom: 1px solid #f9ab00; }
  #tools strong { font-weight: bold; }
  #tools button { font: inherit; padding: 3px 10px; border: 1px solid #80868b; border-radius: 4px; background: #fff; cursor: pointer; }
  #tool-result { color: #137333; }
  #tool-result.error { color: #c5221f; }
  #busy { color: #5f6368; font-style: italic; }
  #sample-note { flex-basis: 100%; margin: 0; color: #5f6368; font-size: 12px; }
  #sample-note code { font: 12px monospace; color: #202124; }
  #workspace { flex: 1; display: flex; min-height: 0; }
  #sheet { flex: 1; display: flex; flex-direction: column; min-width: 0; }
  #hint { color: #5f6368; padding: 4px 12px; }
  #grid-wrap { flex: 1; overflow: auto; position: relative; }
  table { border-collapse: separate; border-spacing: 0; }
  th, td { border-right: 1px solid #e0e0e0; border-bottom: 1px solid #e0e0e0; padding: 2px 6px; white-space: nowrap; max-width: 220px; overflow: hidden; text-overflow: ellipsis; height: 22px; background: #fff; }
  /* Row numbers and column letters stay in view; cells scroll beneath them, never over them. */
  thead th { position: sticky; top: 0; background: #f8f9fa; color: #5f6368; font-weight: normal; z-index: 3; }
  thead th:first-child { left: 0; z-index: 5; }
  tbody th { background: #f8f9fa; color: #5f6368; font-weight: normal; position: sticky; left: 0; z-index: 2; min-width: 36px; }
  tr.frozen td { background: #e8f0fe; font-weight: bold; position: sticky; top: 23px; z-index: 1; }
  tr.frozen th { top: 23px; z-index: 4; }
  td[title] { text-decoration: underline dotted; }
  td.status { color: #5f6368; font-style: italic; }
  td.status.conflict, td.status.error { color: #c5221f; font-style: normal; font-weight: bold; }
  tr.selected td { background: #fef7e0; }
  td:focus, td input { outline: 2px solid #1a73e8; outline-offset: -2px; }
  td input { width: 100%; border: 0; font: inherit; padding: 0; }
  nav { border-top: 1px solid #dadce0; padding: 4px 8px; display: flex; gap: 4px; background: #f8f9fa; flex-wrap: wrap; }
  nav button { font: inherit; border: 1px solid transparent; background: none; padding: 4px 10px; cursor: pointer; }
  nav button[aria-current="true"] { background: #fff; border-color: #dadce0; color: #1a73e8; font-weight: bold; }
  #sidebar-pane { width: 300px; border-left: 1px solid #dadce0; display: flex; flex-direction: column; }
  #sidebar-pane h2 { font-size: 14px; margin: 0; padding: 8px 12px; border-bottom: 1px solid #dadce0; display: flex; justify-content: space-between; }
  #sidebar-pane h2 button { font: inherit; border: 0; background: none; cursor: pointer; }
  iframe { border: 0; width: 300px; flex: 1; }
  #toast-box { position: fixed; left: 16px; bottom: 48px; max-width: 460px; background: #323232; color: #fff; padding: 10px 14px; border-radius: 4px; box-shadow: 0 2px 6px rgba(0,0,0,.3); z-index: 30; }
  #toast-title { font-weight: bold; display: block; }
  dialog { border: 0; border-radius: 8px; box-shadow: 0 4px 16px rgba(0,0,0,.35); max-width: 520px; padding: 20px 24px; }
  dialog h2 { font-size: 16px; margin: 0 0 10px; font-weight: normal; }
  dialog h2.title-bar { display: flex; justify-content: space-between; gap: 16px; }
  #alert-close { border: 0; padding: 0 4px; color: #5f6368; }
  dialog p { white-space: pre-wrap; margin: 0 0 16px; line-height: 1.5; max-height: 60vh; overflow: auto; }
  dialog label { display: block; margin: 8px 0 2px; font-weight: bold; }
  dialog select, dialog input { width: 100%; font: inherit; padding: 4px; }
  dialog .buttons { display: flex; justify-content: flex-end; gap: 8px; margin-top: 14px; }
  #edit-delete { margin-right: auto; color: #b3261e; }
  dialog button { font: inherit; padding: 6px 14px; border-radius: 4px; border: 1px solid #80868b; background: #fff; cursor: pointer; }
  dialog button.primary { background: #1a73e8; border-color: #1a73e8; color: #fff; }
  #edit-error, #sort-error { color: #c5221f; }
  #outbox-dialog { max-width: 640px; }
  #outbox-list { margin: 0; padding-left: 20px; max-height: 60vh; overflow: auto; }
  #outbox-list li { margin-bottom: 14px; }
  #outbox-list .mail-meta { color: #5f6368; margin: 2px 0 4px; }
  #outbox-list .mail-body { white-space: pre-wrap; margin: 0; max-height: none; }
</style>
</head>
<body>
<div id="top">
  <h1 id="title">Spreadsheet</h1>
  <div id="menubar" role="menubar" aria-label="Spreadsheet menus">
    <span class="menu-wrap">
      <button type="button" id="edit-menu-button" role="menuitem" aria-haspopup="menu" aria-expanded="false" data-menu="edit-menu">Edit</button>
      <div id="edit-menu" class="dropdown" role="menu" aria-labelledby="edit-menu-button" hidden>
        <button type="button" role="menuitem" data-grid="undo">Undo<kbd>Ctrl+Z</kbd></button>
        <hr role="separator">
        <button type="button" role="menuitem" data-grid="deleteRow">Delete row</button>
        <button type="button" role="menuitem" data-grid="deleteColumn">Delete column</button>
      </div>
    </span>
    <span class="menu-wrap">
      <button type="button" id="insert-menu-button" role="menuitem" aria-haspopup="menu" aria-expanded="false" data-menu="insert-menu">Insert</button>
      <div id="insert-menu" class="dropdown" role="menu" aria-labelledby="insert-menu-button" hidden>
        <button type="button" role="menuitem" data-grid="rowAbove">Row above</button>
        <button type="button" role="menuitem" data-grid="rowBelow">Row below</button>
        <button type="button" role="menuitem" data-grid="columnLeft">Column left</button>
        <button type="button" role="menuitem" data-grid="columnRight">Column right</button>
      </div>
    </span>
    <span class="menu-wrap">
      <button type="button" id="data-menu-button" role="menuitem" aria-haspopup="menu" aria-expanded="false" data-menu="data-menu">Data</button>
      <div id="data-menu" class="dropdown" role="menu" aria-labelledby="data-menu-button" hidden>
        <button type="button" role="menuitem" data-grid="sortAsc">Sort sheet by this column, A → Z</button>
        <button type="button" role="menuitem" data-grid="sortDesc">Sort sheet by this column, Z → A</button>
        <button type="button" role="menuitem" data-grid="sortRange">Sort range…</button>
      </div>
    </span>
    <span class="menu-wrap">
      <button type="button" id="extensions" role="menuitem" aria-haspopup="menu" aria-expanded="false">Extensions</button>
      <div id="extensions-menu" class="dropdown" role="menu" aria-labelledby="extensions" hidden></div>
    </span>
  </div>
</div>
<section id="tools" aria-label="Playground controls (not part of Google Sheets)">
  <strong>Playground</strong>
  <span>Simulated time: <time id="clock"></time></span>
  <button type="button" id="advance-minute">Advance 1 minute</button>
  <button type="button" id="advance-hour">Advance 1 hour</button>
  <button type="button" id="service-edit">Change a row on the service…</button>
  <button type="button" id="outbox-button" aria-haspopup="dialog">Outbox (0)</button>
  <span id="tool-result" role="status"></span>
  <span id="busy" role="status" hidden></span>
  <p id="sample-note">The sample data is hostile on purpose: a table app named <code>&lt;img src=x onerror=alert(1)&gt; Ops</code>, a table <code>Tasks &lt;b&gt;bold&lt;/b&gt;</code>, deal titles like <code>=IMPORTXML(…)</code>, <code>+cmd</code>, <code>00123</code> and <code>TRUE</code>. Each should read exactly as written, in the sidebar and in the grid: nothing is rendered as HTML, run as a formula or turned into a number.</p>
</section>
<div id="workspace">
<section id="sheet" aria-label="Simulated spreadsheet">
  <div id="cell-bar"><span id="active-cell" aria-label="Active cell">A1</span><span id="hint">Arrow keys move; type over a cell, or click it (Enter, F2) to edit; Enter saves, Escape cancels; Delete clears. Paste tab-separated lines (from Sheets or a spreadsheet) over a cell to fill a block; Ctrl+Z undoes.</span></div>
  <div id="grid-wrap"><table id="grid" aria-label="Active sheet"></table></div>
  <nav id="tabs" aria-label="Sheets"></nav>
</section>
<aside id="sidebar-pane" aria-label="Add-on sidebar">
  <h2><span>Table App Sync</span><button type="button" id="close-sidebar" aria-label="Close the sidebar">✕</button></h2>
  <iframe id="sidebar" title="Table App Sync sidebar" src="/sidebar"></iframe>
</aside>
</div>
<div id="toast-box" role="status" aria-live="polite" hidden><span id="toast-title"></span><span id="toast"></span></div>
<dialog id="alert-dialog" aria-labelledby="alert-title">
  <h2 class="title-bar"><span id="alert-title"></span><button type="button" id="alert-close" aria-label="Close">✕</button></h2>
  <p id="alert-prompt"></p>
  <div class="buttons" id="alert-buttons"></div>
</dialog>
<dialog id="outbox-dialog" aria-labelledby="outbox-title">
  <h2 class="title-bar"><span id="outbox-title">Outbox</span><button type="button" id="outbox-close" aria-label="Close">✕</button></h2>
  <p class="hint">The mails the add-on sent with MailApp (a schedule's failure streak and its pause, a scheduled push held as an accident), newest first. Nothing leaves the playground.</p>
  <ol id="outbox-list" aria-label="Mails sent"></ol>
</dialog>
<dialog id="sort-dialog" aria-labelledby="sort-title">
  <form id="sort-form" method="dialog">
    <h2 id="sort-title">Sort range</h2>
    <p class="hint">Only the cells of the range move. Sorting one column alone (e.g. C2:C26) leaves the other columns where they are, so its cells no longer sit beside their lines.</p>
    <label for="sort-range">Range</label><input id="sort-range" autocomplete="off">
    <label for="sort-column">Sort by column (letter)</label><input id="sort-column" autocomplete="off">
    <label for="sort-order">Order</label><select id="sort-order"><option value="asc">A → Z</option><option value="desc">Z → A</option></select>
    <p id="sort-error" role="alert"></p>
    <div class="buttons"><button type="button" id="sort-cancel">Cancel</button><button type="submit" class="primary" id="sort-submit">Sort</button></div>
  </form>
</dialog>
<dialog id="edit-dialog" aria-labelledby="edit-title">
  <form id="edit-form" method="dialog">
    <h2 id="edit-title">Change a row on the service</h2>
    <p class="hint">As another person would in the service's own app: the sheet learns of it at the next pull (or sees a conflict if you edited the same cell).</p>
    <label for="edit-row">Row</label><select id="edit-row"></select>
    <label for="edit-column">Column</label><select id="edit-column"></select>
    <label for="edit-value">New value</label><input id="edit-value" autocomplete="off">
    <label for="edit-user">Changed by</label><select id="edit-user"></select>
    <p id="edit-error" role="alert"></p>
    <div class="buttons"><button type="button" id="edit-delete">Delete the row on the service</button><button type="button" id="edit-cancel">Cancel</button><button type="submit" class="primary" id="edit-submit">Change on the service</button></div>
  </form>
</dialog>
<script>
${PAGE_GRID_SCRIPT}
${PAGE_TOOLS_SCRIPT}
// The page asks for the sheet now and then: a run the sidebar started, a schedule that fired, and the
// clock all show without a click; parts that did not change are not rebuilt. While a run is under
// way it asks often, so a question the run waits on shows at once.
function poll() {
  var quick = runsPending > 0 || (current !== null && Boolean(current.busy));
  setTimeout(function () { refresh().catch(function () {}).then(poll); }, quick ? 250 : 2000);
}
refresh().catch(function () {}).then(poll);
setInterval(renderClock, 1000);
</script>
</body>
</html>
`;
