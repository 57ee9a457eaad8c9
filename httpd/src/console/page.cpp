// page.cpp: the approvals console's HTML and CSS, and the headers every
// console asset carries (see console.hpp). No inline script or style exists,
// so the CSP can forbid both.
#include "console/console.hpp"

namespace corebank::httpd::console {

namespace {

const char html[] = R"HTML(<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>Approvals console</title>
<link rel="stylesheet" href="/console/app.css">
<script src="/console/app.js" defer></script>
</head>
<body>
<header><h1>Approvals console</h1><span id="who"></span></header>
<p id="message" role="status"></p>
<section id="login">
  <h2>Staff login</h2>
  <label>Email <input id="login-email" type="email" autocomplete="username"></label>
  <label>Password <input id="login-password" type="password" autocomplete="current-password"></label>
  <label>Authenticator code (if asked) <input id="login-totp" inputmode="numeric" autocomplete="one-time-code"></label>
  <button id="login-submit" type="button">Log in</button>
</section>
<section id="queue-section" hidden>
  <h2>Changes</h2>
  <label>Status
    <select id="status-filter">
      <option value="PENDING">Pending</option><option value="APPROVED">Approved</option>
      <option value="REJECTED">Rejected</option><option value="LAPSED">Lapsed</option>
    </select>
  </label>
  <button id="refresh" type="button">Refresh</button>
  <table><thead><tr><th>Parked</th><th>Operation</th><th>Summary</th><th>Maker</th><th>Checker</th>
    <th>Lapses in</th><th>Status</th></tr></thead><tbody id="queue"></tbody></table>
</section>
<section id="detail" hidden>
  <h2 id="detail-title"></h2>
  <p>Status: <strong id="detail-status"></strong>. Maker <span id="detail-maker"></span>,
     checker <span id="detail-checker"></span>.</p>
  <table><thead><tr><th>Field</th><th>Before (when parked)</th><th>Proposed</th><th>Current</th></tr></thead>
    <tbody id="diff"></tbody></table>
  <h3 id="entries-title" hidden>Journal entries</h3>
  <table id="entries-table" hidden><thead><tr><th>Line</th><th>Account</th><th>Side</th><th>Amount (minor)</th>
    <th>Currency</th><th>Narrative</th></tr></thead><tbody id="entries"></tbody></table>
  <div id="decide">
    <div id="approve-box"><label>Comment (optional) <input id="approve-comment" maxlength="1000"></label>
      <button id="approve" type="button">Approve</button></div>
    <p id="own-change" hidden>You made this change: another staff member must decide it.</p>
    <label>Reason (required to reject) <input id="reject-reason" maxlength="1000"></label>
    <button id="reject" type="button">Reject</button>
  </div>
  <pre id="detail-result"></pre>
</section>
</body>
</html>
)HTML";

const char css[] = R"CSS(body { font-family: system-ui, sans-serif; margin: 1rem 2rem; color: #1b1b1b; }
header { display: flex; justify-content: space-between; align-items: baseline; }
table { border-collapse: collapse; margin: .5rem 0 1rem; }
th, td { border: 1px solid #ccc; padding: .25rem .5rem; text-align: left; vertical-align: top; }
tbody#queue tr { cursor: pointer; }
tbody#queue tr:hover { background: #eef3ff; }
td.changed { background: #fff1c2; }
label { display: block; margin: .4rem 0; }
button { margin: .3rem .3rem .3rem 0; }
#message { min-height: 1.2em; color: #8a1c1c; }
#message.ok { color: #1c6b2a; }
[hidden] { display: none !important; }
)CSS";

HttpResponse asset(const char* content, const char* content_type) {
    HttpResponse response;
    response.body = content;
    response.content_type = content_type;
    response.headers.emplace_back("Content-Security-Policy", content_security_policy());
    response.headers.emplace_back("X-Content-Type-Options", "nosniff");
    response.headers.emplace_back("Cache-Control", "no-store");
    response.headers.emplace_back("Referrer-Policy", "no-referrer");
    response.headers.emplace_back("X-Frame-Options", "DENY");
    return response;
}

}  // namespace

// connect-src 'self' only: the login goes through /console/api/login.
std::string content_security_policy() {
    return "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; "
           "frame-ancestors 'none'; base-uri 'none'; form-action 'none'";
}

HttpResponse page_html(const HttpRequest&) { return asset(html, "text/html; charset=utf-8"); }

HttpResponse page_style(const HttpRequest&) { return asset(css, "text/css; charset=utf-8"); }

}  // namespace corebank::httpd::console
