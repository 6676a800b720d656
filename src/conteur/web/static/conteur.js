// conteur: live updates by server-sent events, and the game master's shortcuts (r, u).
// Each update brings the view's new panel and the log's new entries: the page swaps the
// panel, keeps its own log in it and adds the news (no request back, no whole log again).
(function () {
  "use strict";
  var body = document.body;
  var live = document.getElementById("live");
  var url = body.dataset.stream;

  function fragment(html) {
    var t = document.createElement("template");
    t.innerHTML = (html || "").trim();
    return t.content;
  }

  function addNews(log, data) {
    var top = log.querySelector(":scope > li[data-seq]");
    var last = top ? Number(top.dataset.seq) : -1;
    var items = Array.prototype.slice.call(fragment(data.log).children).reverse();
    items.forEach(function (li) {  // oldest first, each on top of the list
      if (Number(li.dataset.seq) > last) {
        log.insertBefore(li, log.firstChild);
      }
    });
    if (items.length) {
      var empty = log.querySelector(":scope > li.dim");
      if (empty) empty.remove();
    }
    Object.keys(data.marks || {}).forEach(function (seq) {  // entries an undo retracted
      var old = log.querySelector(':scope > li[data-seq="' + seq + '"]');
      var mark = fragment(data.marks[seq]).firstElementChild;
      if (old && mark) old.replaceWith(mark);
    });
  }

  function update(data) {
    var panel = document.getElementById("panel");
    if (!panel || Number(panel.dataset.seq) >= data.seq) return;
    if (!data.panel) {
      htmx.ajax("GET", panel.dataset.panelUrl, { target: "#panel", swap: "outerHTML" });
      return;
    }
    var fresh = fragment(data.panel).firstElementChild;
    var slot = fresh.querySelector("[data-log-slot]");
    var log = panel.querySelector("ol.log");
    if (slot && log) {
      addNews(log, data);
      slot.replaceWith(log);
    }
    panel.replaceWith(fresh);
    htmx.process(fresh);
  }

  // A command's own answer that the live stream already brought (same seq) is not swapped
  // in again: the page keeps what the reader did since (an open <details>, a choice).
  body.addEventListener("htmx:beforeSwap", function (ev) {
    var target = ev.detail.target;
    if (!target || target.id !== "panel" || ev.detail.xhr.status !== 200) return;
    var seq = /id="panel" data-seq="(-?\d+)"/.exec(ev.detail.serverResponse || "");
    if (seq && Number(target.dataset.seq) >= Number(seq[1])) ev.detail.shouldSwap = false;
  });

  // A phone that slept or lost the network: the stream resumes by itself (the browser
  // retries; a stream it gave up on is opened again), saying "reconnecting..." meanwhile.
  var source = null;
  var liveText = live ? live.textContent : "";
  function connect() {
    if (!url || (source && source.readyState !== 2)) return;
    source = new EventSource(url);
    source.onopen = function () {
      if (live) { live.dataset.live = "on"; live.textContent = liveText; }
    };
    source.onerror = function () {
      if (!live) return;
      live.dataset.live = "reconnecting";
      if (live.dataset.reconnecting) live.textContent = live.dataset.reconnecting;
      if (source.readyState === 2) setTimeout(connect, 2000);
    };
    source.addEventListener("update", function (ev) { update(JSON.parse(ev.data)); });
  }
  connect();
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") connect();
  });
  window.addEventListener("online", connect);
  document.addEventListener("keydown", function (ev) {
    var tag = (ev.target && ev.target.tagName) || "";
    if (/INPUT|TEXTAREA|SELECT/.test(tag) || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    if (ev.key === "u") {
      var undo = document.getElementById("undo-button");
      if (undo) { ev.preventDefault(); undo.click(); }
    } else if (ev.key === "r") {
      var first = document.querySelector("#panel form.command button[type=submit]");
      if (first) { ev.preventDefault(); first.click(); }
    }
  });
})();
