// The playground page's script, part one: the state drawn from /grid, the grid and its tabs, typing
// into a cell, and the grid actions (paste, sort, insert, delete, undo). Spliced into the page's
// one <script> (spreadsheet-page.ts) with the tools' part; browser JavaScript, kept to ES5.

/** Browser source: state, rendering of the sheet, cells and grid actions. */
export const PAGE_GRID_SCRIPT = String.raw`
'use strict';
var current = null;
var editing = false;
var toastsShown = null;
var toastTimer = null;
var receivedAt = 0;
var shownKeys = {};
/** Runs this page started (menu items) whose answer has not come yet. */
var runsPending = 0;

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

function renderBusy(busy, asking) {
  var el = document.getElementById('busy');
  el.hidden = !busy;
  var note = asking ? ' (it waits for your answer to its question)' : ' (the grid shows the sheet as it was; it updates when the run ends)';
  el.textContent = busy ? busy + '…' + note : '';
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
  renderBusy(data.busy, Boolean(data.dialog));
  if (changed('menu', data.menu)) renderMenu(data.menu);
  renderToast(data);
  renderOutboxButton(data.outbox);
  renderScheduledNews(data.scheduled);
  if (changed('tabs', [data.sheets, data.active.id])) renderTabs(data);
  if (changed('grid', [data.active, data.selectedRow])) renderGrid(data);
  // Last: a question the run waits on opens over the sheet as the run has left it so far.
  renderDialog(data.dialog);
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
  // Room to move into, as in Sheets: a column past the data, and at least A to H.
  var cols = Math.max(snap.rows[0] ? snap.rows[0].length + 1 : 0, 8);
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
  editCell(this);
}

/** Opens the cell for typing: with its content, or (typing over a selected cell) with the typed key instead. */
function editCell(td, typed) {
  if (td.querySelector('input')) return;
  var at = rawOf(td.getAttribute('data-cell'));
  editing = true;
  var input = text('input', null, { 'aria-label': 'Cell ' + td.getAttribute('data-cell') });
  input.value = typed === undefined ? at.text : typed;
  td.textContent = '';
  td.appendChild(input);
  input.focus();
  input.setSelectionRange(input.value.length, input.value.length);
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
// A selected cell's keys, as in Sheets: arrows move, Enter or F2 edits, typing replaces the content,
// Delete or Backspace clears it.
var ARROWS = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
gridElement.addEventListener('keydown', function (e) {
  var td = e.target.tagName === 'TD' ? e.target : null;
  if (!td) return;
  var m = /^([A-Z]+)(\d+)$/.exec(td.getAttribute('data-cell'));
  var row = Number(m[2]);
  var col = lettersToColumn(m[1]);
  var step = ARROWS[e.key];
  if (step) {
    e.preventDefault();
    var next = document.querySelector('[data-cell="' + letters(Math.max(1, col + step[1])) + Math.max(1, row + step[0]) + '"]');
    if (next) next.focus();
  } else if (e.key === 'Enter' || e.key === 'F2') {
    e.preventDefault();
    editCell(td);
  } else if (e.key === 'Delete' || e.key === 'Backspace') {
    e.preventDefault();
    gridAction({ action: 'clear', row: row, col: col });
  } else if (e.key.length === 1 && !e.ctrlKey && !e.metaKey && !e.altKey) {
    e.preventDefault();
    editCell(td, e.key);
  }
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
`;
