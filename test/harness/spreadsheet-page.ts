// The demo page: the simulated spreadsheet (tabs, an editable grid, header notes, status column) beside the sidebar.

/** HTML of `/`. The grid comes from `/grid`; edits go to `/edit`; every value is set as text. */
export const SPREADSHEET_PAGE = String.raw`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Table App Sync — playground</title>
<style>
  * { box-sizing: border-box; }
  body { margin: 0; font: 13px Arial, sans-serif; color: #202124; display: flex; height: 100vh; overflow: hidden; }
  #sheet { flex: 1; display: flex; flex-direction: column; min-width: 0; }
  header { padding: 8px 12px; border-bottom: 1px solid #dadce0; display: flex; gap: 16px; align-items: baseline; flex-wrap: wrap; }
  header h1 { font-size: 16px; margin: 0; }
  #toast { color: #137333; }
  #grid-wrap { flex: 1; overflow: auto; }
  table { border-collapse: collapse; }
  th, td { border: 1px solid #e0e0e0; padding: 2px 6px; white-space: nowrap; max-width: 220px; overflow: hidden; text-overflow: ellipsis; height: 22px; }
  thead th { position: sticky; top: 0; background: #f8f9fa; color: #5f6368; font-weight: normal; z-index: 2; }
  tbody th { background: #f8f9fa; color: #5f6368; font-weight: normal; position: sticky; left: 0; z-index: 1; min-width: 36px; }
  tr.frozen td { background: #e8f0fe; font-weight: bold; position: sticky; top: 23px; z-index: 1; }
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
  #sidebar-pane h2 { font-size: 14px; margin: 0; padding: 8px 12px; border-bottom: 1px solid #dadce0; }
  iframe { border: 0; width: 300px; flex: 1; }
</style>
</head>
<body>
<section id="sheet" aria-label="Simulated spreadsheet">
  <header><h1 id="title">Spreadsheet</h1><span id="hint">Click a cell (or focus it and press Enter) to type; Enter saves, Escape cancels.</span><span id="toast" role="status"></span></header>
  <div id="grid-wrap"><table id="grid" aria-label="Active sheet"></table></div>
  <nav id="tabs" aria-label="Sheets"></nav>
</section>
<aside id="sidebar-pane" aria-label="Add-on sidebar">
  <h2>Table App Sync</h2>
  <iframe id="sidebar" title="Table App Sync sidebar" src="/sidebar"></iframe>
</aside>
<script>
'use strict';
var current = null;
var editing = false;

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

function refresh() {
  if (editing) return Promise.resolve();
  return fetch('/grid').then(function (r) { return r.json(); }).then(render);
}

function render(data) {
  current = data;
  document.getElementById('title').textContent = data.spreadsheetName;
  document.getElementById('toast').textContent = data.toast ? data.toast : '';
  var tabs = document.getElementById('tabs');
  tabs.textContent = '';
  data.sheets.forEach(function (sheet) {
    var b = text('button', sheet.name, { type: 'button', 'data-sheet-id': String(sheet.id), 'aria-current': String(sheet.id === data.active.id) });
    b.addEventListener('click', function () { activate(sheet.id); });
    tabs.appendChild(b);
  });
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
      if (c2 - 1 === statusCol && r > 1) td.className = 'status ' + String(shown).split(/[\s:]/)[0].toLowerCase();
      td.addEventListener('click', startEdit);
      td.addEventListener('keydown', function (e) { if (e.key === 'Enter' || e.key === 'F2') { e.preventDefault(); startEdit.call(this); } });
      tr.appendChild(td);
    }
    body.appendChild(tr);
  }
  grid.appendChild(body);
}

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
    var cell = td.getAttribute('data-cell');
    var after = save
      ? fetch('/edit', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ sheetId: current.active.id, row: at.row, col: at.col, text: input.value }) })
          .then(function (r) { return r.json(); })
          .then(function (answer) { if (!answer.ok) alert(answer.error); })
      : Promise.resolve();
    after.then(refresh).then(function () {
      var again = document.querySelector('[data-cell="' + cell + '"]');
      if (again) again.focus();
    });
  }
  input.addEventListener('keydown', function (e) {
    if (e.key === 'Enter') { e.preventDefault(); finish(true); }
    if (e.key === 'Escape') { e.preventDefault(); finish(false); }
  });
  input.addEventListener('blur', function () { finish(true); });
}

function activate(id) {
  fetch('/activate', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ sheetId: id }) })
    .then(refresh)
    .then(function () { document.getElementById('sidebar').contentWindow.location.reload(); });
}

window.addEventListener('message', function (e) {
  if (e.data && e.data.type === 'tas-rpc') refresh();
});
refresh();
</script>
</body>
</html>
`;
