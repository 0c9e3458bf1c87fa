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
  connect();
})();
