// script.cpp: the approvals console's JavaScript (see console.hpp).
//
// The staff token lives in one variable of this closure: never in storage,
// a cookie or the address, so it is gone with the tab. Every call goes to
// /console/api on this origin; the tier attaches the console's key. Approve
// is hidden on the staff member's own changes, but the database refuses a
// maker's approval whatever the page shows.
#include "console/console.hpp"

namespace corebank::httpd::console {

namespace {

const char script[] = R"JS('use strict';
(function () {
  var token = null;
  var me = null;
  var shown = null;
  var $ = function (id) { return document.getElementById(id); };

  function say(text, ok) {
    $('message').textContent = text || '';
    $('message').className = ok ? 'ok' : '';
  }

  function subjectOf(jwt) {
    var part = jwt.split('.')[1].replace(/-/g, '+').replace(/_/g, '/');
    while (part.length % 4) part += '=';
    return JSON.parse(atob(part)).sub;
  }

  function call(method, path, body) {
    var headers = { 'Accept': 'application/json' };
    if (token) headers['Authorization'] = 'Bearer ' + token;
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    return fetch('/console/api' + path, {
      method: method, headers: headers, credentials: 'omit', cache: 'no-store',
      body: body === undefined ? undefined : JSON.stringify(body)
    }).then(function (response) {
      return response.text().then(function (text) {
        var data = null;
        try { data = text ? JSON.parse(text) : null; } catch (e) { data = null; }
        if (!response.ok) {
          var error = new Error((data && data.message) || ('HTTP ' + response.status));
          error.status = response.status;
          throw error;
        }
        return data;
      });
    });
  }

  function cell(row, text, className) {
    var td = document.createElement('td');
    td.textContent = text === undefined || text === null ? '' : text;
    if (className) td.className = className;
    row.appendChild(td);
    return td;
  }

  function shownValue(value) {
    if (value === undefined) return '';
    if (value === null) return 'null';
    return typeof value === 'object' ? JSON.stringify(value) : String(value);
  }

  function lapseText(expiresAt) {
    var ms = Date.parse(expiresAt) - Date.now();
    if (ms <= 0) return 'lapsed';
    var hours = Math.floor(ms / 3600000);
    return hours + ' h ' + Math.floor((ms % 3600000) / 60000) + ' min';
  }

  function loadQueue() {
    var status = $('status-filter').value;
    return call('GET', '/approvals?status=' + encodeURIComponent(status) + '&size=100').then(function (page) {
      var items = (page && page.content) || [];
      items.sort(function (a, b) { return Date.parse(a.createdAt) - Date.parse(b.createdAt); });  // oldest first
      var body = $('queue');
      body.textContent = '';
      items.forEach(function (item) {
        var row = document.createElement('tr');
        row.dataset.id = item.id;
        cell(row, item.createdAt);
        cell(row, item.operation);
        cell(row, item.summary);
        cell(row, item.makerId);
        cell(row, item.checkerId);
        cell(row, item.status === 'PENDING' ? lapseText(item.expiresAt) : '');
        cell(row, item.status);
        row.addEventListener('click', function () { openChange(item.id); });
        body.appendChild(row);
      });
    }).catch(function (e) { say(e.message); });
  }

  function renderDiff(change) {
    var before = change.before || {}, current = change.current || {}, proposed = change.payload || {};
    var fields = [];
    [before, proposed, current].forEach(function (o) {
      Object.keys(o).forEach(function (k) { if (k !== 'entries' && fields.indexOf(k) < 0) fields.push(k); });
    });
    var body = $('diff');
    body.textContent = '';
    fields.forEach(function (field) {
      var row = document.createElement('tr');
      row.dataset.field = field;
      cell(row, field);
      cell(row, shownValue(before[field]));
      cell(row, shownValue(proposed[field]), field in proposed ? 'changed' : '');
      cell(row, shownValue(current[field]),
           shownValue(current[field]) !== shownValue(before[field]) && change.before ? 'changed' : '');
      body.appendChild(row);
    });
    var entries = (change.current && change.current.entries) || (change.before && change.before.entries) || [];
    $('entries').textContent = '';
    entries.forEach(function (e) {
      var row = document.createElement('tr');
      cell(row, e.lineNo);
      cell(row, e.ledgerAccountId || e.glAccountId);
      cell(row, e.side);
      cell(row, e.amountMinor);
      cell(row, e.currency);
      cell(row, e.narrative);
      $('entries').appendChild(row);
    });
    $('entries-title').hidden = $('entries-table').hidden = entries.length === 0;
  }

  function showChange(change) {
    shown = change;
    $('detail').hidden = false;
    $('detail').dataset.id = change.id;
    $('detail-title').textContent = change.operation + ': ' + change.summary;
    $('detail-status').textContent = change.status;
    $('detail-maker').textContent = change.makerId;
    $('detail-checker').textContent = change.checkerId || '-';
    renderDiff(change);
    var pending = change.status === 'PENDING';
    var own = change.makerId === me;
    $('decide').hidden = !pending;
    $('approve-box').hidden = own;
    $('own-change').hidden = !own;
    $('detail-result').textContent = change.result ? JSON.stringify(change.result, null, 2) : '';
  }

  function openChange(id) {
    say('');
    return call('GET', '/approvals/' + encodeURIComponent(id)).then(showChange).catch(function (e) { say(e.message); });
  }

  function decide(verb, body) {
    var id = shown.id;
    return call('POST', '/approvals/' + encodeURIComponent(id) + '/' + verb, body).then(function () {
      say(verb === 'approve' ? 'Approved and applied.' : 'Rejected.', true);
      return openChange(id).then(loadQueue).then(function () { say(verb === 'approve' ? 'Approved and applied.' : 'Rejected.', true); });
    }).catch(function (e) {
      say(e.message);
      return openChange(id);
    });
  }

  $('login-submit').addEventListener('click', function () {
    var body = { email: $('login-email').value, password: $('login-password').value, channel: 'console' };
    if ($('login-totp').value) body.totpCode = $('login-totp').value;
    say('');
    call('POST', '/login', body).then(function (answer) {
      token = answer.accessToken;
      me = subjectOf(token);
      $('login-password').value = '';
      $('login').hidden = true;
      $('queue-section').hidden = false;
      $('who').textContent = $('login-email').value;
      return loadQueue();
    }).catch(function (e) { say(e.message); });
  });
  $('status-filter').addEventListener('change', loadQueue);
  $('refresh').addEventListener('click', loadQueue);
  $('approve').addEventListener('click', function () {
    var comment = $('approve-comment').value.trim();
    decide('approve', comment ? { comment: comment } : {});
  });
  $('reject').addEventListener('click', function () {
    var reason = $('reject-reason').value.trim();
    if (!reason) { say('A rejection needs a reason.'); return; }
    decide('reject', { reason: reason });
  });
}());
)JS";

}  // namespace

HttpResponse page_script(const HttpRequest& request) {
    HttpResponse response = page_style(request);  // the same headers
    response.body = script;
    response.content_type = "text/javascript; charset=utf-8";
    return response;
}

}  // namespace corebank::httpd::console
