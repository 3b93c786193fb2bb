// The playground page's script, part two: the Extensions menu, toasts, the add-on's dialogs and the
// playground's own controls (the clock, changing a row on the service). Spliced into the page's one
// <script> (spreadsheet-page.ts) after the grid's part; browser JavaScript, kept to ES5.

/** Browser source: menus, toasts, dialogs and the playground tools. */
export const PAGE_TOOLS_SCRIPT = `
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
  runsPending++;
  return post('/menu', { fn: item.fn }).then(function (answer) {
    runsPending--;
    toolSay(answer.ok ? '' : item.caption + ' failed: ' + answer.error, !answer.ok);
    if (answer.sidebarOpened) { document.getElementById('sidebar-pane').hidden = false; reloadSidebar(); }
    return refresh();
  }, function (error) {
    runsPending--;
    toolSay(item.caption + ' failed: the playground did not answer (' + error.message + ').', true);
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

// ---------- toasts and dialogs ----------

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

// The add-on's question its run waits on (Ui.alert), with its own buttons and the title bar's close
// button; the run goes on once the answer reaches the server. Nothing answers it but a person.
var BUTTON_LABELS = { OK: 'OK', CANCEL: 'Cancel', YES: 'Yes', NO: 'No' };
var dialogShown = null;
var dialogsAnswered = {};

function renderDialog(open) {
  var box = document.getElementById('alert-dialog');
  if (!open || dialogsAnswered[open.id]) {
    if (box.open) box.close();
    dialogShown = null;
    return;
  }
  if (dialogShown === open.id) return;
  dialogShown = open.id;
  box.setAttribute('data-dialog-id', String(open.id));
  document.getElementById('alert-title').textContent = open.title;
  document.getElementById('alert-prompt').textContent = open.prompt;
  var row = document.getElementById('alert-buttons');
  row.textContent = '';
  open.buttons.forEach(function (button) {
    if (button === 'CLOSE') return;
    var b = text('button', BUTTON_LABELS[button] || button, { type: 'button', 'data-button': button });
    if (!row.firstChild) b.className = 'primary';
    b.addEventListener('click', function () { answerDialog(open.id, button); });
    row.appendChild(b);
  });
  if (!box.open) box.showModal();
  if (row.firstChild) row.firstChild.focus();
}

function answerDialog(id, button) {
  dialogsAnswered[id] = true;
  dialogShown = null;
  var box = document.getElementById('alert-dialog');
  if (box.open) box.close();
  return post('/dialog/answer', { id: id, button: button }).then(function (answer) {
    if (!answer.ok) toolSay(answer.error, true);
    return refresh();
  });
}

document.getElementById('alert-close').addEventListener('click', function () {
  if (dialogShown !== null) answerDialog(dialogShown, 'CLOSE');
});
// Escape closes the dialog as its title bar's button does.
document.getElementById('alert-dialog').addEventListener('cancel', function (e) {
  e.preventDefault();
  if (dialogShown !== null) answerDialog(dialogShown, 'CLOSE');
});

// ---------- playground tools ----------

function toolSay(message, isError) {
  var el = document.getElementById('tool-result');
  el.textContent = message;
  el.className = isError ? 'error' : '';
}

// The server says how the runs that fired ended: a failure, or a schedule that paused itself, in red.
function advance(minutes, label) {
  toolSay('Advancing ' + label + '…', false);
  return post('/clock/advance', { minutes: minutes }).then(function (answer) {
    if (!answer.ok) { toolSay(answer.error, true); return; }
    toolSay(answer.said, answer.failed);
    // The sidebar shows a run's result when it is opened again.
    if (answer.fired > 0) reloadSidebar();
    return refresh();
  });
}

// Schedules that fired as the clock followed real time: said once each, a failure in red. What
// happened before the page opened stays with the sidebar's last run.
var scheduledShown;
function renderScheduledNews(news) {
  var id = news ? news.id : 0;
  if (scheduledShown === undefined) { scheduledShown = id; return; }
  if (id === scheduledShown) return;
  scheduledShown = id;
  toolSay(news.said, news.failed);
  reloadSidebar();
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


// ---------- outbox: the mails the add-on sent ----------

function renderOutboxButton(count) {
  document.getElementById('outbox-button').textContent = 'Outbox (' + count + ')';
}

function showOutbox() {
  return fetch('/outbox').then(function (r) { return r.json(); }).then(function (mails) {
    var list = document.getElementById('outbox-list');
    list.textContent = '';
    if (!mails.length) list.appendChild(text('li', 'No mail sent yet.'));
    mails.forEach(function (mail) {
      var item = text('li');
      item.appendChild(text('strong', mail.subject));
      var when = new Date(mail.at).toLocaleString([], { timeZone: current && current.timeZone !== 'Etc/UTC' ? current.timeZone : 'UTC', dateStyle: 'medium', timeStyle: 'short' });
      item.appendChild(text('p', 'To ' + mail.to + ' · ' + when, { class: 'mail-meta' }));
      item.appendChild(text('p', mail.body, { class: 'mail-body' }));
      list.appendChild(item);
    });
    document.getElementById('outbox-dialog').showModal();
  });
}

document.getElementById('outbox-button').addEventListener('click', showOutbox);
document.getElementById('outbox-close').addEventListener('click', function () { document.getElementById('outbox-dialog').close(); });
`;
