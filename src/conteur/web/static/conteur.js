// conteur: live updates by server-sent events (the log, the panel, the dice pad's news, a
// new fight to follow), errors next to their form, the keyboard.
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
    // A player's numbers count the entries they read only: their panel may change with no
    // new entry (the stream sends it only when it changed), so an equal number is news too.
    var seen = panel ? Number(panel.dataset.seq) : 0;
    if (!panel || seen > data.seq || (seen === data.seq && !data.public)) return;
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
    var before = forms(panel);
    panel.replaceWith(fresh);
    htmx.process(fresh);
    // A player's turn came (a form of theirs that was not there): it is brought into view.
    var needs = fresh.querySelector("[data-needs-me]");
    if (needs && forms(fresh).some(function (f) { return before.indexOf(f) < 0; })) {
      needs.scrollIntoView({ block: "start" });
    }
  }

  function forms(panel) {
    return Array.prototype.map.call(
      panel.querySelectorAll("[data-needs-me] form.command"),
      function (f) { return f.dataset.form; });
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
    // The dice pad's news ride the same stream (pad.js shows them).
    source.addEventListener("rolls", function (ev) {
      document.dispatchEvent(new CustomEvent("conteur:rolls", { detail: JSON.parse(ev.data) }));
    });
    // The campaign's fight is another one now (one opened, this one closed): load it.
    source.addEventListener("moved", function () {
      source.close();
      window.location.reload();
    });
  }
  connect();
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") connect();
  });
  window.addEventListener("online", connect);
  // What the reader had open and where a command came from survive the panel's swap: the
  // drawers stay as they were, a refusal is shown in the form that was sent (its own
  // aria-live area, not at the top of the page), and the action in progress is in view.
  var sentFrom = null;
  var openDrawers = {};
  function rememberDrawers() {
    document.querySelectorAll("#panel details[data-drawer]").forEach(function (d) {
      openDrawers[d.dataset.drawer] = d.open;
    });
  }
  function restore(panel) {
    if (!panel) return;
    panel.querySelectorAll("details[data-drawer]").forEach(function (d) {
      if (openDrawers[d.dataset.drawer]) d.open = true;
    });
  }
  function settle(panel) {
    if (!panel) return;
    var msg = panel.querySelector(":scope > .panel-msg");
    var home = sentFrom && panel.querySelector('form[data-form="' + sentFrom + '"] [data-msg]');
    if (msg && home) {
      home.appendChild(msg.firstElementChild);
      msg.remove();
      home.closest("form").scrollIntoView({ block: "nearest" });
      return;
    }
    var current = panel.querySelector(".current");
    if (current) current.scrollIntoView({ block: "nearest" });
  }
  body.addEventListener("htmx:beforeRequest", function (ev) {
    var form = ev.detail.elt && ev.detail.elt.closest && ev.detail.elt.closest("form[data-form]");
    if (form && ev.detail.requestConfig && ev.detail.requestConfig.verb === "post") {
      sentFrom = form.dataset.form;
    }
    rememberDrawers();
  });
  body.addEventListener("htmx:afterSwap", function (ev) {
    var panel = document.getElementById("panel");
    if (ev.detail.target && ev.detail.target.id === "panel") {
      restore(panel);
      settle(panel);
      sentFrom = null;
    }
  });
  var swapLive = update;
  update = function (data) {  // a live update keeps the drawers too
    rememberDrawers();
    swapLive(data);
    restore(document.getElementById("panel"));
    document.dispatchEvent(new CustomEvent("conteur:panel"));  // the map keeps its selection
  };

  // The keyboard: n (go on), r (roll), u (undo), shift+u (redo, when there is one), the
  // digits into the dice field of the action in progress, ? (the help). Never while typing.
  function click(selector) {
    var el = document.querySelector(selector);
    if (el) { el.click(); return true; }
    return false;
  }
  function currentFaces() {
    return document.querySelector("#panel .current input[name=faces]");
  }
  document.addEventListener("keydown", function (ev) {
    if (ev.defaultPrevented) return;  // the dice pad took this key
    var t = ev.target;
    var tag = (t && t.tagName) || "";
    if (/INPUT|TEXTAREA|SELECT/.test(tag) || (t && t.isContentEditable)) return;
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    var help = document.getElementById("keys-help");
    var done = false;
    if (ev.key === "?") {
      if (help && !help.open) { help.showModal(); done = true; }
    } else if (help && help.open) {
      return;
    } else if (ev.key === "u") {
      done = click("#undo-button");
    } else if (ev.key === "U") {
      done = click("#redo-button");  // the hook: a redo button, when the program offers one
    } else if (ev.key === "r") {
      done = click("#panel .current form.command button[type=submit]") ||
        click("#panel form.command button[type=submit]");
    } else if (ev.key === "n") {
      done = click("#panel .current form.command button[type=submit]") ||
        click("#panel .col-actions > form.command button[type=submit]");
    } else if (/^[0-9]$/.test(ev.key) && !document.querySelector("#rolls [data-pad]")) {
      var faces = currentFaces();
      if (faces) {
        faces.focus();
        faces.value = (faces.value ? faces.value + " " : "") + ev.key;
        done = true;
      }
    }
    if (done) ev.preventDefault();
  });
  document.addEventListener("click", function (ev) {
    var opener = ev.target.closest && ev.target.closest("[data-keys-open]");
    var help = document.getElementById("keys-help");
    if (opener && help) help.showModal();
  });
})();
/* Sheet forms (issue 16): the dots up to the one chosen are filled; the sections and fields
   of another kind than the one chosen (a mortal's disciplines) are hidden. */
(function () {
  function paint(group) {
    var chosen = group.querySelector("input:checked");
    var upto = chosen ? parseInt(chosen.value, 10) : 0;
    group.querySelectorAll(".dot").forEach(function (dot) {
      var n = parseInt(dot.querySelector("input").value, 10);
      dot.classList.toggle("on", n > 0 && n <= upto);
    });
  }
  function kinds(form) {
    var select = form.querySelector('select[name="f.kind"]');
    if (!select) return;
    form.querySelectorAll("[data-kinds]").forEach(function (el) {
      var off = el.getAttribute("data-kinds").split(" ").indexOf(select.value) < 0;
      el.classList.toggle("kind-off", off);
    });
  }
  document.querySelectorAll("form.sheet-form").forEach(function (form) {
    form.querySelectorAll("fieldset.dots").forEach(paint);
    kinds(form);
    form.addEventListener("change", function (ev) {
      var group = ev.target.closest && ev.target.closest("fieldset.dots");
      if (group) paint(group);
      if (ev.target.name === "f.kind") kinds(form);
    });
  });
})();
