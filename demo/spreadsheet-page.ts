// The playground page: the simulated spreadsheet (an Extensions menu with the add-on's items, tabs, an
// editable grid, header notes, status column, alerts and toasts) beside the sidebar, with playground
// controls Sheets does not have: the simulated clock and changing a row on the service as someone else.

/** The page's icon (served at /favicon.ico so the browser finds one). */
export const FAVICON =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="3" fill="#188038"/><path d="M4 4h8v2H4zm0 3h8v2H4zm0 3h8v2H4z" fill="#fff"/></svg>';

/** HTML of `/`. The grid comes from `/grid`; edits go to `/edit`; every value is set as text. */
export const SPREADSHEET_PAGE = String.raw`<!doctype html>
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
  dialog p { white-space: pre-wrap; margin: 0 0 16px; line-height: 1.5; max-height: 60vh; overflow: auto; }
  dialog label { display: block; margin: 8px 0 2px; font-weight: bold; }
  dialog select, dialog input { width: 100%; font: inherit; padding: 4px; }
  dialog .buttons { display: flex; justify-content: flex-end; gap: 8px; margin-top: 14px; }
  #edit-delete { margin-right: auto; color: #b3261e; }
  dialog button { font: inherit; padding: 6px 14px; border-radius: 4px; border: 1px solid #80868b; background: #fff; cursor: pointer; }
  dialog button.primary { background: #1a73e8; border-color: #1a73e8; color: #fff; }
  #edit-error, #sort-error { color: #c5221f; }
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
  <span id="tool-result" role="status"></span>
  <span id="busy" role="status" hidden></span>
</section>
<div id="workspace">
<section id="sheet" aria-label="Simulated spreadsheet">
  <div id="cell-bar"><span id="active-cell" aria-label="Active cell">A1</span><span id="hint">Click a cell (or focus it and press Enter) to type; Enter saves, Escape cancels. Paste tab-separated lines (from Sheets or a spreadsheet) over a cell to fill a block; Ctrl+Z undoes.</span></div>
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
  <h2 id="alert-title"></h2>
  <p id="alert-prompt"></p>
  <div class="buttons"><button type="button" class="primary" id="alert-ok">OK</button></div>
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
'use strict';
var current = null;
var editing = false;
var toastsShown = null;
var toastTimer = null;
var receivedAt = 0;
var shownKeys = {};

function letters(n) {
  var s = '';
  while (n > 0) { var m = (n - 1) % 26; s = String.fromCharCode(65 + m) + s; n = Math.floor((n - 1) / 26); }
  return s;
}

function text(tag, value, attrs) {
  var el = document.createElement(tag);
  if (value !== undefined && value !== null) el.textContent = String(value);
  if (attrs) Object.keys(attrs).forEach(function (k) { el.setAttribute(k, attrs[k]); });
  return el;
}

function post(path, body) {
  return fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body || {}) })
    .then(function (r) { return r.json(); });
}

function refresh() {
  if (editing) return Promise.resolve();
  return fetch('/grid').then(function (r) { return r.json(); }).then(render);
}

/** True when this part of the page differs from what is shown (so a poll does not rebuild, and unfocus, the grid). */
function changed(name, value) {
  var key = JSON.stringify(value);
  if (shownKeys[name] === key) return false;
  shownKeys[name] = key;
  return true;
}

function renderClock() {
  if (!current) return;
  // Between two answers the simulated clock moves with real time when the server says it does.
  var now = current.now + (current.clockFollowsRealTime ? Date.now() - receivedAt : 0);
  document.getElementById('clock').textContent = new Date(now).toLocaleString([], { timeZone: current.timeZone === 'Etc/UTC' ? 'UTC' : current.timeZone, dateStyle: 'medium', timeStyle: 'short' }) + ' (' + current.timeZone + ')';
}

function renderBusy(busy) {
  var el = document.getElementById('busy');
  el.hidden = !busy;
  el.textContent = busy ? busy + '… (the grid shows the sheet as it was; it updates when the run ends)' : '';
}

function reloadSidebar() {
  document.getElementById('sidebar').contentWindow.location.reload();
}

function render(data) {
  data.now = Date.parse(data.now);
  current = data;
  receivedAt = Date.now();
  document.getElementById('title').textContent = data.spreadsheetName;
  renderClock();
  renderBusy(data.busy);
  if (changed('menu', data.menu)) renderMenu(data.menu);
  renderToast(data);
  renderAlerts(data.alerts);
  if (changed('tabs', [data.sheets, data.active.id])) renderTabs(data);
  if (changed('grid', [data.active, data.selectedRow])) renderGrid(data);
}

function renderTabs(data) {
  var tabs = document.getElementById('tabs');
  tabs.textContent = '';
  data.sheets.forEach(function (sheet) {
    var b = text('button', sheet.name, { type: 'button', 'data-sheet-id': String(sheet.id), 'aria-current': String(sheet.id === data.active.id) });
    b.addEventListener('click', function () { activate(sheet.id); });
    tabs.appendChild(b);
  });
}

function renderGrid(data) {
  var snap = data.active;
  var grid = document.getElementById('grid');
  grid.textContent = '';
  grid.setAttribute('data-sheet', snap.name);
  var cols = Math.max(snap.rows[0] ? snap.rows[0].length : 0, 1) + 1;
  var rows = snap.rows.length + 3;
  var head = text('thead');
  var hr = text('tr');
  hr.appendChild(text('th', ''));
  for (var c = 1; c <= cols; c++) hr.appendChild(text('th', letters(c), { scope: 'col' }));
  head.appendChild(hr);
  grid.appendChild(head);
  var statusCol = snap.rows[0] ? snap.rows[0].indexOf('_sync') : -1;
  var body = text('tbody');
  for (var r = 1; r <= rows; r++) {
    var tr = text('tr', null, { 'data-row': String(r) });
    if (r <= snap.frozenRows) tr.className = 'frozen';
    if (data.selectedRow === r) tr.className += ' selected';
    tr.appendChild(text('th', r, { scope: 'row' }));
    for (var c2 = 1; c2 <= cols; c2++) {
      var row = snap.rows[r - 1];
      var shown = row && row[c2 - 1] !== undefined ? row[c2 - 1] : '';
      var td = text('td', shown, { tabindex: '0', 'data-cell': letters(c2) + r });
      var note = snap.notes[r - 1] && snap.notes[r - 1][c2 - 1];
      if (note) td.setAttribute('title', note);
      if (c2 - 1 === statusCol && r > 1) td.className = 'status ' + statusKind(String(shown));
      td.addEventListener('click', startEdit);
      td.addEventListener('keydown', function (e) { if (e.key === 'Enter' || e.key === 'F2') { e.preventDefault(); startEdit.call(this); } });
      tr.appendChild(td);
    }
    body.appendChild(tr);
  }
  grid.appendChild(body);
}

function statusKind(shown) {
  if (shown.charAt(0) === '\u26A0') return 'conflict';
  if (shown.charAt(0) === '\u2716') return 'error';
  return '';
}

// ---------- Extensions menu ----------

function renderMenu(menu) {
  var box = document.getElementById('extensions-menu');
  box.textContent = '';
  if (!menu) { box.appendChild(text('div', 'No add-on menu (onOpen did not run).', { class: 'menu-title' })); return; }
  box.appendChild(text('div', menu.name, { class: 'menu-title', role: 'presentation' }));
  menu.items.forEach(function (item) {
    if (item.caption === '---') { box.appendChild(text('hr', null, { role: 'separator' })); return; }
    var b = text('button', item.caption, { type: 'button', role: 'menuitem', 'data-fn': item.fn });
    b.addEventListener('click', function () { closeMenu(); runMenu(item); });
    box.appendChild(b);
  });
}

function openMenu() {
  var box = document.getElementById('extensions-menu');
  box.hidden = false;
  document.getElementById('extensions').setAttribute('aria-expanded', 'true');
  var first = box.querySelector('button');
  if (first) first.focus();
}

function closeMenu() {
  document.getElementById('extensions-menu').hidden = true;
  document.getElementById('extensions').setAttribute('aria-expanded', 'false');
}

function runMenu(item) {
  toolSay('Running ' + item.caption + '…', false);
  return post('/menu', { fn: item.fn }).then(function (answer) {
    toolSay(answer.ok ? '' : item.caption + ' failed: ' + answer.error, !answer.ok);
    if (answer.sidebarOpened) { document.getElementById('sidebar-pane').hidden = false; reloadSidebar(); }
    return refresh();
  });
}

document.getElementById('extensions').addEventListener('click', function () {
  if (document.getElementById('extensions-menu').hidden) openMenu(); else closeMenu();
});
document.getElementById('extensions-menu').addEventListener('keydown', function (e) {
  var items = Array.prototype.slice.call(this.querySelectorAll('button'));
  var at = items.indexOf(document.activeElement);
  if (e.key === 'Escape') { closeMenu(); document.getElementById('extensions').focus(); }
  if (e.key === 'ArrowDown' && items.length) { e.preventDefault(); items[(at + 1) % items.length].focus(); }
  if (e.key === 'ArrowUp' && items.length) { e.preventDefault(); items[(at - 1 + items.length) % items.length].focus(); }
});
document.addEventListener('click', function (e) {
  if (!document.getElementById('menubar').contains(e.target)) { closeMenu(); closeGridMenus(); }
});
document.getElementById('close-sidebar').addEventListener('click', function () {
  document.getElementById('sidebar-pane').hidden = true;
});

// ---------- toasts and alerts ----------

function renderToast(data) {
  var box = document.getElementById('toast-box');
  if (toastsShown === null) toastsShown = data.toasts;
  if (data.toasts > toastsShown && data.toast) {
    toastsShown = data.toasts;
    document.getElementById('toast-title').textContent = data.toast.title;
    document.getElementById('toast').textContent = data.toast.message;
    box.hidden = false;
    if (toastTimer) clearTimeout(toastTimer);
    toastTimer = setTimeout(function () { box.hidden = true; }, 10000);
  }
}

function renderAlerts(alerts) {
  var dialog = document.getElementById('alert-dialog');
  if (!alerts.length || dialog.open) return;
  var alert = alerts[0];
  document.getElementById('alert-title').textContent = alert.title;
  document.getElementById('alert-prompt').textContent = alert.prompt;
  dialog.showModal();
  document.getElementById('alert-ok').focus();
}

document.getElementById('alert-ok').addEventListener('click', function () {
  document.getElementById('alert-dialog').close();
  post('/alerts/seen').then(refresh);
});

// ---------- playground tools ----------

function toolSay(message, isError) {
  var el = document.getElementById('tool-result');
  el.textContent = message;
  el.className = isError ? 'error' : '';
}

function advance(minutes, label) {
  toolSay('Advancing ' + label + '…', false);
  return post('/clock/advance', { minutes: minutes }).then(function (answer) {
    if (!answer.ok) { toolSay(answer.error, true); return; }
    var runs = answer.fired === 0 ? 'no scheduled run was due' : answer.fired + (answer.fired === 1 ? ' scheduled run' : ' scheduled runs') + ' fired' + (answer.failed ? ' (' + answer.failed + ' failed)' : '');
    toolSay('Advanced ' + label + ': ' + runs + '.', answer.failed > 0);
    // The sidebar shows a run's result when it is opened again.
    if (answer.fired > 0) reloadSidebar();
    return refresh();
  });
}

document.getElementById('advance-minute').addEventListener('click', function () { advance(1, '1 minute'); });
document.getElementById('advance-hour').addEventListener('click', function () { advance(60, '1 hour'); });

function option(value, label) {
  var o = text('option', label, { value: value });
  return o;
}

document.getElementById('service-edit').addEventListener('click', function () {
  if (!current || !current.linked) { toolSay('Link this sheet to a table first: the change goes to its table.', true); return; }
  fetch('/service/columns').then(function (r) { return r.json(); }).then(function (columns) {
    var snap = current.active;
    var headers = snap.rows[0] || [];
    var idCol = headers.indexOf('id');
    var titleCol = headers.indexOf('title');
    var rows = document.getElementById('edit-row');
    rows.textContent = '';
    for (var r = 2; r <= snap.rows.length; r++) {
      var id = snap.rows[r - 1][idCol];
      if (!id) continue;
      var label = 'Row ' + r + ' · ' + (titleCol >= 0 ? snap.rows[r - 1][titleCol] : id);
      rows.appendChild(option(id, label.length > 60 ? label.slice(0, 57) + '…' : label));
    }
    var cols = document.getElementById('edit-column');
    cols.textContent = '';
    columns.forEach(function (column) { cols.appendChild(option(column.id, column.name + ' (' + column.id + ', ' + column.type + ')')); });
    var users = document.getElementById('edit-user');
    users.textContent = '';
    current.users.forEach(function (user) { users.appendChild(option(user.id, user.name + ' (' + user.id + ')')); });
    if (current.users.length > 1) users.selectedIndex = 1;
    document.getElementById('edit-value').value = '';
    document.getElementById('edit-error').textContent = '';
    document.getElementById('edit-dialog').showModal();
    rows.focus();
  });
});

document.getElementById('edit-cancel').addEventListener('click', function () { document.getElementById('edit-dialog').close(); });
// Another person deleting the row in the service's own app: the sheet's line is marked at a whole listing.
document.getElementById('edit-delete').addEventListener('click', function () {
  var rowSelect = document.getElementById('edit-row');
  var rowLabel = rowSelect.options[rowSelect.selectedIndex] ? rowSelect.options[rowSelect.selectedIndex].textContent : '';
  post('/service/delete', { rowId: rowSelect.value }).then(function (answer) {
    if (!answer.ok) { document.getElementById('edit-error').textContent = answer.error; return; }
    document.getElementById('edit-dialog').close();
    toolSay('Deleted ' + rowLabel.split(' · ')[0] + ' on the service. Pull everything to see its line marked removed.', false);
  });
});
document.getElementById('edit-form').addEventListener('submit', function (e) {
  e.preventDefault();
  var rowSelect = document.getElementById('edit-row');
  var rowLabel = rowSelect.options[rowSelect.selectedIndex] ? rowSelect.options[rowSelect.selectedIndex].textContent : '';
  var body = {
    rowId: rowSelect.value,
    columnId: document.getElementById('edit-column').value,
    text: document.getElementById('edit-value').value,
    asUserId: document.getElementById('edit-user').value,
  };
  post('/service/edit', body).then(function (answer) {
    if (!answer.ok) { document.getElementById('edit-error').textContent = answer.error; return; }
    document.getElementById('edit-dialog').close();
    var who = document.getElementById('edit-user');
    toolSay('Changed ' + body.columnId + ' of ' + rowLabel.split(' · ')[0] + ' on the service as ' + who.options[who.selectedIndex].textContent + '. Pull or Sync to see it.', false);
  });
});

// ---------- cells ----------

function rawOf(cell) {
  var m = /^([A-Z]+)(\d+)$/.exec(cell);
  var col = 0;
  for (var i = 0; i < m[1].length; i++) col = col * 26 + (m[1].charCodeAt(i) - 64);
  var row = Number(m[2]);
  var snap = current.active;
  var formula = snap.formulas[row - 1] && snap.formulas[row - 1][col - 1];
  var value = snap.rows[row - 1] && snap.rows[row - 1][col - 1];
  return { row: row, col: col, text: formula || (value === undefined ? '' : String(value)) };
}

function startEdit() {
  var td = this;
  if (td.querySelector('input')) return;
  var at = rawOf(td.getAttribute('data-cell'));
  editing = true;
  var input = text('input', null, { 'aria-label': 'Cell ' + td.getAttribute('data-cell') });
  input.value = at.text;
  td.textContent = '';
  td.appendChild(input);
  input.focus();
  var done = false;
  function finish(save) {
    if (done) return;
    done = true;
    editing = false;
    cancelEditing = null;
    // The cell holds the input: rebuild the grid even if no value changed.
    shownKeys.grid = null;
    var cell = td.getAttribute('data-cell');
    var after = save
      ? post('/edit', { sheetId: current.active.id, row: at.row, col: at.col, text: input.value })
          .then(function (answer) {
            if (!answer.ok) toolSay(answer.error, true);
            else if (answer.said) toolSay(answer.said, /failed/.test(answer.said));
          })
      : Promise.resolve();
    after.then(refresh).then(function () {
      var again = document.querySelector('[data-cell="' + cell + '"]');
      if (again) again.focus();
    });
  }
  setActive(td.getAttribute('data-cell'));
  cancelEditing = function () { finish(false); };
  input.addEventListener('keydown', function (e) {
    if (e.key === 'Enter') { e.preventDefault(); finish(true); }
    if (e.key === 'Escape') { e.preventDefault(); finish(false); }
  });
  input.addEventListener('blur', function () { finish(true); });
}

function activate(id) {
  post('/activate', { sheetId: id })
    .then(refresh)
    .then(reloadSidebar);
}

// ---------- grid actions: paste, sort, insert, delete, undo ----------

var activeCell = { row: 1, col: 1 };
var cancelEditing = null;

function lettersToColumn(text) {
  var col = 0;
  for (var i = 0; i < text.length; i++) col = col * 26 + (text.charCodeAt(i) - 64);
  return col;
}

function setActive(cell) {
  var m = /^([A-Z]+)(\d+)$/.exec(cell);
  if (!m) return;
  activeCell = { row: Number(m[2]), col: lettersToColumn(m[1]) };
  document.getElementById('active-cell').textContent = cell;
}

function gridAction(body) {
  if (!current) return Promise.resolve();
  if (body.action !== 'undo') body.sheetId = current.active.id;
  return post('/grid/action', body).then(function (answer) {
    toolSay(answer.ok ? answer.said : answer.error, !answer.ok);
    shownKeys.grid = null;
    return refresh();
  }).then(function () {
    var again = document.querySelector('[data-cell="' + letters(activeCell.col) + activeCell.row + '"]');
    if (again) again.focus();
  });
}

function closeGridMenus() {
  Array.prototype.forEach.call(document.querySelectorAll('[data-menu]'), function (button) {
    button.setAttribute('aria-expanded', 'false');
    document.getElementById(button.getAttribute('data-menu')).hidden = true;
  });
}

Array.prototype.forEach.call(document.querySelectorAll('[data-menu]'), function (button) {
  var box = document.getElementById(button.getAttribute('data-menu'));
  button.addEventListener('click', function () {
    var open = box.hidden;
    closeGridMenus();
    closeMenu();
    box.hidden = !open;
    button.setAttribute('aria-expanded', String(open));
    if (open) box.querySelector('button').focus();
  });
  box.addEventListener('keydown', function (e) {
    var items = Array.prototype.slice.call(box.querySelectorAll('button'));
    var at = items.indexOf(document.activeElement);
    if (e.key === 'Escape') { closeGridMenus(); button.focus(); }
    if (e.key === 'ArrowDown') { e.preventDefault(); items[(at + 1) % items.length].focus(); }
    if (e.key === 'ArrowUp') { e.preventDefault(); items[(at - 1 + items.length) % items.length].focus(); }
  });
});

document.getElementById('extensions').addEventListener('click', closeGridMenus);

function openSortDialog() {
  var snap = current.active;
  var top = Math.max(snap.frozenRows, 1) + 1;
  var bottom = Math.max(snap.rows.length, top);
  var col = letters(activeCell.col);
  document.getElementById('sort-range').value = col + top + ':' + col + bottom;
  document.getElementById('sort-column').value = col;
  document.getElementById('sort-error').textContent = '';
  document.getElementById('sort-dialog').showModal();
  document.getElementById('sort-range').focus();
}

var GRID_COMMANDS = {
  undo: function () { return { action: 'undo' }; },
  deleteRow: function () { return { action: 'deleteRows', row: activeCell.row, count: 1 }; },
  deleteColumn: function () { return { action: 'deleteColumns', col: activeCell.col, count: 1 }; },
  rowAbove: function () { return { action: 'insertRows', before: activeCell.row, count: 1 }; },
  rowBelow: function () { return { action: 'insertRows', before: activeCell.row + 1, count: 1 }; },
  columnLeft: function () { return { action: 'insertColumns', before: activeCell.col, count: 1 }; },
  columnRight: function () { return { action: 'insertColumns', before: activeCell.col + 1, count: 1 }; },
  sortAsc: function () { return { action: 'sortSheet', col: activeCell.col, ascending: true }; },
  sortDesc: function () { return { action: 'sortSheet', col: activeCell.col, ascending: false }; },
};

Array.prototype.forEach.call(document.querySelectorAll('[data-grid]'), function (item) {
  item.addEventListener('click', function () {
    closeGridMenus();
    var name = item.getAttribute('data-grid');
    if (name === 'sortRange') { openSortDialog(); return; }
    gridAction(GRID_COMMANDS[name]());
  });
});

document.getElementById('sort-cancel').addEventListener('click', function () { document.getElementById('sort-dialog').close(); });
document.getElementById('sort-form').addEventListener('submit', function (e) {
  e.preventDefault();
  var column = document.getElementById('sort-column').value.trim().toUpperCase();
  if (!/^[A-Z]{1,3}$/.test(column)) {
    document.getElementById('sort-error').textContent = 'Write the column as its letter, e.g. C.';
    return;
  }
  var body = { action: 'sortRange', sheetId: current.active.id, range: document.getElementById('sort-range').value, col: lettersToColumn(column), ascending: document.getElementById('sort-order').value === 'asc' };
  post('/grid/action', body).then(function (answer) {
    if (!answer.ok) { document.getElementById('sort-error').textContent = answer.error; return; }
    document.getElementById('sort-dialog').close();
    toolSay(answer.said, false);
    shownKeys.grid = null;
    return refresh();
  });
});

var gridElement = document.getElementById('grid');
gridElement.addEventListener('focusin', function (e) {
  var td = e.target.closest ? e.target.closest('td') : null;
  if (td) setActive(td.getAttribute('data-cell'));
});
// Pasting over a cell fills a block, as in Sheets: lines by line breaks, cells by tabs. Text without
// either, pasted into a cell being edited, goes into that cell as typed.
gridElement.addEventListener('paste', function (e) {
  var td = e.target.closest ? e.target.closest('td') : null;
  if (!td) return;
  var text = e.clipboardData ? e.clipboardData.getData('text/plain') : '';
  var inCell = e.target.tagName === 'INPUT';
  if (inCell && !/[\t\n\r]/.test(text)) return;
  e.preventDefault();
  setActive(td.getAttribute('data-cell'));
  if (inCell && cancelEditing) cancelEditing();
  gridAction({ action: 'paste', row: activeCell.row, col: activeCell.col, text: text });
});
document.addEventListener('keydown', function (e) {
  var tag = e.target.tagName;
  if (tag === 'INPUT' || tag === 'SELECT' || tag === 'TEXTAREA' || document.querySelector('dialog[open]')) return;
  if ((e.ctrlKey || e.metaKey) && !e.shiftKey && (e.key === 'z' || e.key === 'Z')) {
    e.preventDefault();
    gridAction({ action: 'undo' });
  }
});

window.addEventListener('message', function (e) {
  if (e.data && e.data.type === 'tas-rpc') refresh();
});
refresh();
// The page asks for the sheet now and then: a run the sidebar started, a schedule that fired, and the
// clock all show without a click. Parts that did not change are not rebuilt.
setInterval(function () { refresh().catch(function () {}); }, 2000);
setInterval(renderClock, 1000);
</script>
</body>
</html>
`;
