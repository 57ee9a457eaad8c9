// hosted_page.cpp: the hosted capture page, served from the binary.
//
// Plain HTML, CSS and JavaScript, no framework and nothing fetched from
// anywhere else. The HTML is a shell without data; everything the page
// shows comes from /v1/hosted/sessions/{id}, authorised by the client token
// the page reads from its URL fragment (#token=...). Fragments are never
// sent to a server, so the token is in no access log and no Referer; the
// page moves it to sessionStorage (for a reload) and removes it from the
// address bar at once.
//
// Steps: consent (biometric flows) -> selfie (camera through getUserMedia,
// or an uploaded photo when there is no camera or the user prefers) ->
// document image (flows with document or facematch) -> submit -> progress ->
// outcome -> back to redirectUrl. Every write carries an Idempotency-Key
// that the page keeps for its retries, so a retry after a lost response
// cannot record anything twice.
//
// A strict Content-Security-Policy allows only this origin's script and
// style, so no inline script or style exists anywhere in these files.
#include "verify/handlers.hpp"

namespace corebank::httpd::verify {

namespace {

constexpr const char consent_version[] = "2026-11-v1";

const char page_html[] = R"HTML(<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>Identity verification</title>
<link rel="stylesheet" href="/hosted/assets/app.css">
<script src="/hosted/assets/app.js" defer></script>
</head>
<body data-status="loading">
<main id="app">
  <header>
    <h1>Identity verification</h1>
    <ol id="progress" class="progress" aria-label="Progress"></ol>
  </header>
  <div id="live" class="visually-hidden" aria-live="polite"></div>

  <section id="step-loading" class="step">
    <p>Loading&hellip;</p>
  </section>

  <section id="step-error" class="step" hidden>
    <h2>This link cannot be used</h2>
    <p id="error-text"></p>
  </section>

  <section id="step-consent" class="step" hidden>
    <h2>Your consent</h2>
    <div id="consent-text" class="consent"></div>
    <div class="actions">
      <button id="consent-accept" type="button">I agree</button>
      <button id="consent-decline" type="button" class="secondary">I do not agree</button>
    </div>
    <p id="consent-message" class="message" role="alert"></p>
  </section>

  <section id="step-selfie" class="step" hidden>
    <h2>Take a selfie</h2>
    <p>Face the camera in good, even light. Remove sunglasses or a hat.</p>
    <div id="camera" class="camera" hidden>
      <video id="camera-video" autoplay playsinline muted></video>
      <button id="selfie-capture" type="button">Take photo</button>
    </div>
    <div class="actions">
      <button id="selfie-camera-start" type="button">Use my camera</button>
      <label class="upload">Upload a photo instead
        <input id="selfie-file" type="file" accept="image/jpeg,image/png" capture="user">
      </label>
    </div>
    <p id="selfie-message" class="message" role="alert"></p>
  </section>

  <section id="step-document" class="step" hidden>
    <h2>Photograph your identity document</h2>
    <p>Lay the front of your ID card or the photo page of your passport flat. Fill the frame and avoid glare.</p>
    <div class="actions">
      <label class="upload">Choose or take a photo
        <input id="document-file" type="file" accept="image/jpeg,image/png" capture="environment">
      </label>
    </div>
    <p id="document-message" class="message" role="alert"></p>
  </section>

  <section id="step-review" class="step" hidden>
    <h2>Ready to check</h2>
    <p>Your photos have been received. Submit them to finish.</p>
    <div class="actions">
      <button id="submit" type="button">Submit for verification</button>
      <button id="retake-selfie" type="button" class="secondary" hidden>Retake selfie</button>
      <button id="retake-document" type="button" class="secondary" hidden>Retake document</button>
    </div>
    <p id="submit-message" class="message" role="alert"></p>
  </section>

  <section id="step-processing" class="step" hidden>
    <h2>Checking your photos&hellip;</h2>
    <div class="spinner" role="progressbar" aria-label="Checking"></div>
  </section>

  <section id="step-outcome" class="step" hidden>
    <h2 id="outcome-title"></h2>
    <p id="outcome-text"></p>
    <div class="actions">
      <button id="continue" type="button" hidden>Continue</button>
    </div>
  </section>
</main>
</body>
</html>
)HTML";

const char page_css[] = R"CSS(:root { color-scheme: light; --ink: #1d2430; --muted: #5b6472; --accent: #0b5cad; --bad: #b3261e; }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: #f4f6f9; }
main { max-width: 34rem; margin: 0 auto; padding: 1.5rem 1rem 3rem; }
h1 { font-size: 1.25rem; margin: 0 0 .75rem; }
h2 { font-size: 1.15rem; margin: 0 0 .5rem; }
.step { background: #fff; border-radius: .75rem; padding: 1.25rem; box-shadow: 0 1px 3px rgba(0,0,0,.08); margin-top: 1rem; }
.progress { display: flex; gap: .5rem; list-style: none; padding: 0; margin: 0; flex-wrap: wrap; }
.progress li { font-size: .85rem; padding: .2rem .6rem; border-radius: 1rem; background: #e3e8ef; color: var(--muted); }
.progress li.done { background: #d7ecd9; color: #1e5b28; }
.progress li.current { background: var(--accent); color: #fff; }
.consent { white-space: pre-line; font-size: .95rem; background: #f7f9fc; border-radius: .5rem; padding: .75rem; max-height: 16rem; overflow: auto; }
.actions { display: flex; gap: .75rem; flex-wrap: wrap; align-items: center; margin-top: 1rem; }
button, .upload { font: inherit; border: 0; border-radius: .5rem; padding: .6rem 1rem; background: var(--accent); color: #fff; cursor: pointer; }
button.secondary { background: #e3e8ef; color: var(--ink); }
button:disabled { opacity: .6; cursor: progress; }
.upload { background: #e3e8ef; color: var(--ink); display: inline-flex; gap: .5rem; align-items: center; }
.upload input { max-width: 12rem; }
.camera video { width: 100%; border-radius: .5rem; background: #000; transform: scaleX(-1); }
.camera { margin-top: .75rem; display: grid; gap: .75rem; }
.message { color: var(--bad); min-height: 1.5em; margin: .75rem 0 0; }
.spinner { width: 2.5rem; height: 2.5rem; border: .3rem solid #e3e8ef; border-top-color: var(--accent); border-radius: 50%; animation: spin 1s linear infinite; margin: 1rem auto; }
@keyframes spin { to { transform: rotate(360deg); } }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
[hidden] { display: none !important; }
)CSS";

const char page_js[] = R"JS((function () {
  'use strict';

  var parts = location.pathname.split('/');
  var sessionId = parts[parts.length - 1];
  var api = '/v1/hosted/sessions/' + encodeURIComponent(sessionId);
  var storeKey = 'corebank-verify:' + sessionId;
  var token = null;
  var state = null;
  var pendingKeys = {};  // action -> Idempotency-Key, kept for retries
  var stream = null;
  var pollTimer = null;
  var retaking = null;

  var match = /(?:^#|&)token=([^&]+)/.exec(location.hash);
  if (match) {
    token = decodeURIComponent(match[1]);
    try { sessionStorage.setItem(storeKey, token); } catch (e) { /* private mode: keep it in memory */ }
    history.replaceState(null, '', location.pathname + location.search);
  } else {
    try { token = sessionStorage.getItem(storeKey); } catch (e) { token = null; }
  }

  function $(id) { return document.getElementById(id); }

  function newKey() {
    var bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return ('0' + b.toString(16)).slice(-2); }).join('');
  }

  function keyFor(action) {
    if (!pendingKeys[action]) pendingKeys[action] = newKey();
    return pendingKeys[action];
  }

  function sleep(ms) { return new Promise(function (resolve) { setTimeout(resolve, ms); }); }

  // One API call; network failures are retried with the same key.
  function call(method, path, body, action, contentType) {
    var headers = { 'Authorization': 'Bearer ' + token, 'Accept': 'application/json' };
    if (action) headers['Idempotency-Key'] = keyFor(action);
    if (contentType) headers['Content-Type'] = contentType;
    var attempt = 0;
    function once() {
      return fetch(api + path, { method: method, headers: headers, body: body, cache: 'no-store',
                                 credentials: 'omit', referrerPolicy: 'no-referrer' })
        .then(function (response) {
          return response.text().then(function (text) {
            var json = null;
            try { json = text ? JSON.parse(text) : null; } catch (e) { json = null; }
            if (response.status === 409 && json && /still being processed/.test(json.message || '') && attempt < 5) {
              attempt += 1;
              return sleep(1000).then(once);
            }
            if (action && response.status < 500) delete pendingKeys[action];
            return { status: response.status, body: json };
          });
        }, function (error) {
          if (attempt >= 3) throw error;
          attempt += 1;
          return sleep(500 * attempt).then(once);
        });
    }
    return once();
  }

  function show(stepId) {
    var steps = document.querySelectorAll('.step');
    for (var i = 0; i < steps.length; i += 1) steps[i].hidden = steps[i].id !== stepId;
    var heading = document.querySelector('#' + stepId + ' h2');
    $('live').textContent = heading ? heading.textContent : '';
  }

  function fail(message) {
    document.body.dataset.status = 'error';
    $('error-text').textContent = message;
    show('step-error');
  }

  function problem(response) {
    if (response.status === 401) return 'This verification link is invalid or has expired. Ask for a new link.';
    if (response.body && response.body.message) return response.body.message;
    return 'Something went wrong (HTTP ' + response.status + '). Please try again.';
  }

  function drawProgress(s, current) {
    var list = $('progress');
    while (list.firstChild) list.removeChild(list.firstChild);
    var items = [];
    if (s.consentRequired) items.push(['consent', 'Consent', s.consent !== 'not_recorded']);
    if (s.captures.selfie !== 'not_needed') items.push(['selfie', 'Selfie', s.captures.selfie === 'received']);
    if (s.captures.document !== 'not_needed') items.push(['document', 'Document', s.captures.document === 'received']);
    items.push(['result', 'Result', s.status === 'completed']);
    items.forEach(function (item) {
      var li = document.createElement('li');
      li.textContent = item[1];
      if (item[0] === current) li.className = 'current';
      else if (item[2]) li.className = 'done';
      list.appendChild(li);
    });
  }

  function outcome(s) {
    var title = '', text = '';
    if (s.status === 'completed') {
      if (s.decision === 'approved') { title = 'You are verified'; text = 'Thank you. Your identity has been verified.'; }
      else if (s.decision === 'review') { title = 'Your verification is being reviewed'; text = 'A person needs to look at your photos. You will hear back from the service that sent you here.'; }
      else { title = 'We could not verify you'; text = 'Your photos did not pass our checks. Please contact the service that sent you here.'; }
    } else if (s.status === 'cancelled') {
      title = 'Verification cancelled'; text = 'This verification has been cancelled. Nothing more is needed here.';
    } else {
      title = 'This verification has expired'; text = 'Ask the service that sent you here for a new link.';
    }
    $('outcome-title').textContent = title;
    $('outcome-text').textContent = text;
    var button = $('continue');
    button.hidden = !s.redirectUrl;
    show('step-outcome');
  }

  function render(s) {
    state = s;
    document.body.dataset.status = s.status;
    document.body.dataset.decision = s.decision || '';
    if (pollTimer) { clearTimeout(pollTimer); pollTimer = null; }
    if (s.status === 'completed' || s.status === 'cancelled' || s.status === 'expired') {
      stopCamera();
      drawProgress(s, 'result');
      outcome(s);
      return;
    }
    if (s.status === 'processing') {
      drawProgress(s, 'result');
      show('step-processing');
      pollTimer = setTimeout(refresh, 1500);
      return;
    }
    if (s.consentRequired && s.consent === 'not_recorded') {
      drawProgress(s, 'consent');
      $('consent-text').textContent = s.consentText;
      show('step-consent');
    } else if (s.captures.selfie === 'required' || retaking === 'selfie') {
      drawProgress(s, 'selfie');
      show('step-selfie');
    } else if (s.captures.document === 'required' || retaking === 'document') {
      drawProgress(s, 'document');
      show('step-document');
    } else {
      drawProgress(s, 'result');
      $('retake-selfie').hidden = s.captures.selfie === 'not_needed';
      $('retake-document').hidden = s.captures.document === 'not_needed';
      show('step-review');
    }
  }

  function refresh() {
    return call('GET', '', undefined, null).then(function (response) {
      if (response.status === 200) render(response.body);
      else fail(problem(response));
    }, function () { fail('The service cannot be reached. Check your connection and reload this page.'); });
  }

  function busy(ids, on) { ids.forEach(function (id) { $(id).disabled = on; }); }

  function consent(granted) {
    busy(['consent-accept', 'consent-decline'], true);
    $('consent-message').textContent = '';
    call('POST', '/consent', JSON.stringify({ granted: granted }), 'consent', 'application/json')
      .then(function (response) {
        busy(['consent-accept', 'consent-decline'], false);
        if (response.status === 200) render(response.body);
        else $('consent-message').textContent = problem(response);
      }, function () {
        busy(['consent-accept', 'consent-decline'], false);
        $('consent-message').textContent = 'The service cannot be reached. Please try again.';
      });
  }

  function upload(kind, blob, messageId) {
    $(messageId).textContent = '';
    if (!blob || blob.size === 0) { $(messageId).textContent = 'The photo is empty. Please choose another.'; return; }
    if (state && blob.size > state.imageBytesMax) {
      $(messageId).textContent = 'The photo is too large (at most ' + Math.floor(state.imageBytesMax / 1048576) + ' MB).';
      return;
    }
    var type = blob.type === 'image/png' ? 'image/png' : 'image/jpeg';
    pendingKeys['capture-' + kind] = newKey();  // a new photo is a new request
    $(messageId).textContent = 'Uploading\u2026';
    call('POST', '/captures/' + kind, blob, 'capture-' + kind, type).then(function (response) {
      if (response.status === 200) {
        $(messageId).textContent = '';
        if (retaking === kind) retaking = null;
        render(response.body);
      } else {
        $(messageId).textContent = problem(response);
      }
    }, function () { $(messageId).textContent = 'The upload failed. Please try again.'; });
  }

  function stopCamera() {
    if (stream) { stream.getTracks().forEach(function (t) { t.stop(); }); stream = null; }
    $('camera').hidden = true;
    $('selfie-camera-start').hidden = false;
  }

  function startCamera() {
    $('selfie-message').textContent = '';
    if (!navigator.mediaDevices || !navigator.mediaDevices.getUserMedia) {
      $('selfie-message').textContent = 'No camera is available here. Upload a photo instead.';
      return;
    }
    navigator.mediaDevices.getUserMedia({ video: { facingMode: 'user', width: { ideal: 1280 }, height: { ideal: 720 } }, audio: false })
      .then(function (s) {
        stream = s;
        $('camera-video').srcObject = s;
        $('camera').hidden = false;
        $('selfie-camera-start').hidden = true;
      }, function () {
        $('selfie-message').textContent = 'The camera could not be started. Upload a photo instead.';
      });
  }

  function captureFrame() {
    var video = $('camera-video');
    if (!stream || !video.videoWidth) { $('selfie-message').textContent = 'The camera is not ready yet.'; return; }
    var canvas = document.createElement('canvas');
    canvas.width = video.videoWidth;
    canvas.height = video.videoHeight;
    canvas.getContext('2d').drawImage(video, 0, 0, canvas.width, canvas.height);
    canvas.toBlob(function (blob) {
      stopCamera();
      upload('selfie', blob, 'selfie-message');
    }, 'image/jpeg', 0.92);
  }

  function submit() {
    busy(['submit'], true);
    $('submit-message').textContent = '';
    show('step-processing');
    call('POST', '/submit', undefined, 'submit').then(function (response) {
      busy(['submit'], false);
      if (response.status === 200) render(response.body);
      else { show('step-review'); $('submit-message').textContent = problem(response); }
    }, function () {
      busy(['submit'], false);
      show('step-review');
      $('submit-message').textContent = 'The service cannot be reached. Please try again.';
    });
  }

  document.addEventListener('DOMContentLoaded', function () {
    $('consent-accept').addEventListener('click', function () { consent(true); });
    $('consent-decline').addEventListener('click', function () { consent(false); });
    $('selfie-camera-start').addEventListener('click', startCamera);
    $('selfie-capture').addEventListener('click', captureFrame);
    $('selfie-file').addEventListener('change', function (e) {
      stopCamera();
      upload('selfie', e.target.files[0], 'selfie-message');
      e.target.value = '';
    });
    $('document-file').addEventListener('change', function (e) {
      upload('document', e.target.files[0], 'document-message');
      e.target.value = '';
    });
    $('submit').addEventListener('click', submit);
    $('retake-selfie').addEventListener('click', function () { retaking = 'selfie'; render(state); });
    $('retake-document').addEventListener('click', function () { retaking = 'document'; render(state); });
    $('continue').addEventListener('click', function () {
      if (state && state.redirectUrl) location.assign(state.redirectUrl);
    });
    if (!token) { fail('This verification link is incomplete. Open the full link you were given.'); return; }
    refresh();
  });
}());
)JS";

HttpResponse asset(const char* content, const char* content_type) {
    HttpResponse response;
    response.body = content;
    response.content_type = content_type;
    response.headers.emplace_back("Cache-Control", "public, max-age=300");
    response.headers.emplace_back("X-Content-Type-Options", "nosniff");
    return response;
}

}  // namespace

const std::string& hosted_consent_text() {
    static const std::string text =
        "To confirm who you are, this service will process a photo of your face (a selfie) and, where asked, a "
        "photo of your identity document.\n\n"
        "- The photos are used only to check that you are a real, present person and that you match your "
        "document, and are compared by automated checks.\n"
        "- Your photos are stored encrypted and deleted as soon as the check is finished. A record of the result "
        "and of this consent is kept for audit.\n"
        "- You may refuse. If you do, the verification ends here and the service that sent you will need another "
        "way to confirm your identity.\n\n"
        "By choosing \"I agree\" you consent to this processing of your biometric data.";
    return text;
}

const char* hosted_consent_version() { return consent_version; }

HttpResponse hosted_page_html(const HttpRequest&) {
    HttpResponse response;
    response.body = page_html;
    response.content_type = "text/html; charset=utf-8";
    response.headers.emplace_back(
        "Content-Security-Policy",
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' blob: data:; "
        "media-src 'self' blob: mediastream:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; "
        "form-action 'none'");
    response.headers.emplace_back("Referrer-Policy", "no-referrer");
    response.headers.emplace_back("X-Content-Type-Options", "nosniff");
    response.headers.emplace_back("X-Frame-Options", "DENY");
    response.headers.emplace_back("Permissions-Policy", "camera=(self), microphone=(), geolocation=()");
    return response;
}

HttpResponse hosted_page_script(const HttpRequest&) {
    return asset(page_js, "text/javascript; charset=utf-8");
}

HttpResponse hosted_page_style(const HttpRequest&) { return asset(page_css, "text/css; charset=utf-8"); }

}  // namespace corebank::httpd::verify
