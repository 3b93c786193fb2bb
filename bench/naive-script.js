// The naive reference: pull and push written the way tutorials do it, run in the same simulator for comparison.
// Sequential UrlFetchApp.fetch per page, appendRow per line, a PATCH (or POST) per marked line with
// every column, setValue per cell it touches. No fetchAll, no batching, no continuation. Types come
// from the table schema only so that the service accepts what is sent back.

const NAIVE_MARK = 'sync?';

function naiveBase_(baseUrl, appId, tableId) {
  return baseUrl + '/api/public/tableApps/' + appId + '/tables/' + tableId;
}

function naiveColumns_(baseUrl, apiKey, appId, tableId) {
  const table = JSON.parse(
    UrlFetchApp.fetch(naiveBase_(baseUrl, appId, tableId), { headers: { auth: apiKey } }).getContentText(),
  );
  return table.columns.filter((column) => !column.deleted);
}

/** Pulls the table into the active sheet: a header row, then one appendRow per service row. */
// biome-ignore lint/correctness/noUnusedVariables: a top-level entry the simulator runs
function naivePull(baseUrl, apiKey, appId, tableId) {
  const sheet = SpreadsheetApp.getActiveSpreadsheet().getActiveSheet();
  const columns = naiveColumns_(baseUrl, apiKey, appId, tableId);
  sheet.clear();
  sheet.appendRow(['id'].concat(columns.map((column) => column.id)).concat([NAIVE_MARK]));
  let offset = 0;
  let lines = 0;
  for (;;) {
    const url = naiveBase_(baseUrl, appId, tableId) + '/rows?offset=' + offset + '&limit=100';
    const page = JSON.parse(UrlFetchApp.fetch(url, { headers: { auth: apiKey } }).getContentText());
    const rows = Array.isArray(page) ? page : page.rows;
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i];
      const line = [row.id];
      for (let j = 0; j < columns.length; j++) {
        const value = row[columns[j].id];
        line.push(
          value === null || value === undefined
            ? ''
            : typeof value === 'object'
              ? JSON.stringify(value)
              : value,
        );
      }
      line.push(false);
      sheet.appendRow(line);
      lines++;
    }
    if (rows.length === 0 || (!Array.isArray(page) && !page.hasMore) || rows.length < 100) break;
    offset += rows.length;
  }
  return lines;
}

function naiveValue_(cell, column) {
  if (cell === '' || cell === null) return null;
  const type = column.cSchema?.type;
  if (type === 'number') return Number(cell);
  if (type === 'boolean') return cell === true || String(cell).toUpperCase() === 'TRUE';
  if (type === 'array' || type === 'object') return typeof cell === 'string' ? JSON.parse(cell) : cell;
  if (Object.prototype.toString.call(cell) === '[object Date]') {
    return Utilities.formatDate(cell, 'Etc/UTC', 'yyyy-MM-dd');
  }
  return String(cell);
}

/**
 * Pushes every line whose "sync?" box is ticked: PATCH with every column when it has an id, else
 * POST and setValue of the new id; then setValue to untick the box.
 */
// biome-ignore lint/correctness/noUnusedVariables: a top-level entry the simulator runs
function naivePush(baseUrl, apiKey, appId, tableId) {
  const sheet = SpreadsheetApp.getActiveSpreadsheet().getActiveSheet();
  const columns = naiveColumns_(baseUrl, apiKey, appId, tableId);
  const values = sheet.getDataRange().getValues();
  const header = values[0];
  const markAt = header.indexOf(NAIVE_MARK);
  let sent = 0;
  for (let i = 1; i < values.length; i++) {
    const line = values[i];
    if (line[markAt] !== true) continue;
    const body = {};
    for (let j = 0; j < columns.length; j++) {
      body[columns[j].id] = naiveValue_(line[header.indexOf(columns[j].id)], columns[j]);
    }
    const options = {
      method: line[0] ? 'patch' : 'post',
      contentType: 'application/json',
      payload: JSON.stringify(body),
      headers: { auth: apiKey },
    };
    const url = naiveBase_(baseUrl, appId, tableId) + '/rows' + (line[0] ? '/' + line[0] : '');
    const answer = JSON.parse(UrlFetchApp.fetch(url, options).getContentText());
    if (!line[0]) sheet.getRange(i + 1, 1).setValue(answer.id);
    sheet.getRange(i + 1, markAt + 1).setValue(false);
    sent++;
  }
  return sent;
}
