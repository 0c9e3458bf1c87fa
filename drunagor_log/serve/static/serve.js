// The live board: the server sends each new version of this page's board as a Server-Sent Event
// ("page": its HTML, drawn on the server from the campaign's files, every value escaped there), and
// this script puts it in place. EventSource reconnects by itself after a dropped connection; when
// the browser gives up (the server answered an error, or it was away too long), this script starts
// a new one every two seconds. While there is no connection the page says "reconnecting".
(function () {
  "use strict";
  var board = document.getElementById("board");
  var live = document.getElementById("live");
  var page = document.body.getAttribute("data-page");  // percent-encoded on the server
  if (page === null || live === null) { return; }  // "no such page": no stream to follow
  var source = null;
  var retry = null;

  function say(text, state) {
    live.textContent = text;
    live.className = state;
  }

  function connect() {
    retry = null;
    if (source) { source.close(); }
    source = new EventSource("/events?page=" + page);
    source.addEventListener("page", function (event) {
      board.innerHTML = event.data;
      document.body.setAttribute("data-version", event.lastEventId);
      say("live", "live");
      refreshActions();
    });
    source.onopen = function () { say("live", "live"); };
    source.onerror = function () {
      say("reconnecting\u2026", "reconnecting");
      if (source.readyState === EventSource.CLOSED && retry === null) {
        retry = setTimeout(connect, 2000);
      }
    };
  }

  // Back from sleep or a lost network: a stream the browser closed meanwhile is started again at once.
  function wake() {
    if (source === null || source.readyState === EventSource.CLOSED) {
      if (retry !== null) { clearTimeout(retry); }
      connect();
    }
  }
  document.addEventListener("visibilitychange", function () { if (!document.hidden) { wake(); } });
  window.addEventListener("online", wake);

  // A hero's phone (#act, only on the hero's own page with the hero's key): each form is posted as
  // the page would post it without a script (the same fields, its token among them), asking for the
  // answer as JSON, so that the answer shows where the thumb is without a reload. The forms
  // themselves come from the server again after each change (what a hero may do depends on the
  // table), unless the player is typing in one of them.
  function answer(text, ok) {
    var shown = document.getElementById("answer");
    if (shown) {
      shown.textContent = text;
      shown.className = "answer " + (ok ? "done" : "refused");
    }
  }

  function typing() {
    var act = document.getElementById("act");
    var focus = document.activeElement;
    return act !== null && focus !== null && act.contains(focus) && focus.tagName === "INPUT" && focus.value !== "";
  }

  // What the player typed or chose in a form that is drawn again stays as it was (the same form: the
  // same button; the same field: the same name).
  function keep(now, fresh) {
    var typed = {};
    now.querySelectorAll("form").forEach(function (form) {
      var button = form.querySelector("button");
      form.querySelectorAll("input:not([type=hidden]), select").forEach(function (field) {
        typed[(button ? button.textContent : "") + "\n" + field.name] = field.value;
      });
    });
    fresh.querySelectorAll("form").forEach(function (form) {
      var button = form.querySelector("button");
      form.querySelectorAll("input:not([type=hidden]), select").forEach(function (field) {
        var key = (button ? button.textContent : "") + "\n" + field.name;
        if (Object.prototype.hasOwnProperty.call(typed, key) && typed[key] !== "") { field.value = typed[key]; }
      });
    });
  }

  function refreshActions() {
    var act = document.getElementById("act");
    if (act === null || typing()) { return; }
    fetch(window.location.pathname, {credentials: "same-origin", headers: {"Accept": "text/html"}})
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (html) {
        if (html === null || typing()) { return; }
        var fresh = new DOMParser().parseFromString(html, "text/html").getElementById("act");
        var now = document.getElementById("act");
        if (fresh === null || now === null || fresh.outerHTML === now.outerHTML) { return; }
        fresh = document.importNode(fresh, true);
        keep(now, fresh);
        now.replaceWith(fresh);
      })
      .catch(function () {});
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.closest || form.closest("#act") === null) { return; }
    event.preventDefault();
    var buttons = form.querySelectorAll("button");
    buttons.forEach(function (b) { b.disabled = true; });
    answer("\u2026", true);
    fetch(form.getAttribute("action"), {
      method: "POST", credentials: "same-origin", headers: {"Accept": "application/json"},
      body: new URLSearchParams(new FormData(form))
    }).then(function (r) {
      return r.text().then(function (text) {  // a refusal before the command (403, 413, 429...) is plain text
        try { return JSON.parse(text); } catch (e) { return {ok: false, message: text.trim() || "the server answered " + r.status}; }
      });
    }).then(function (said) {
      answer(said.message, said.ok);
      if (said.ok) {  // done: the form empty again (the one on the page now, if it was drawn again meanwhile)
        var label = form.querySelector("button").textContent;
        document.querySelectorAll("#act form").forEach(function (f) {
          if (f.querySelector("button").textContent === label) { f.reset(); }
        });
        form.reset();
      }
    }).catch(function () {
      answer("no answer from the table: try again", false);
    }).then(function () {
      buttons.forEach(function (b) { b.disabled = false; });
      refreshActions();
    });
  });
  connect();
})();
