// conteur: the dice pad of a roll asked at the table (the game master's screen and the
// player's phone). The box #rolls is filled by the page's live stream (conteur.js passes
// its ``rolls`` events on as ``conteur:rolls``: no polling, no second connection); the
// faces are typed on the pad or the keyboard, checked here at once (count, faces the die
// has) and sent; the server's refusal is shown beside the pad too.
(function () {
  "use strict";
  var cache = { url: "", html: "", version: "", at: 0 };
  var typed = [];      // the faces typed on the pad, not sent yet
  var buffer = "";     // the number being typed on a d100
  var wakeLock = null;

  function box() { return document.getElementById("rolls"); }
  function pad() { var b = box(); return b && b.querySelector("[data-pad-form]"); }
  function card() { var b = box(); return b && b.querySelector("section.rolls"); }

  function fmt(text, values) {
    return (text || "").replace(/\{(\w+)\}/g, function (m, k) { return k in values ? values[k] : m; });
  }

  function facts() {
    var c = card();
    return c ? { sides: Number(c.dataset.padSides), count: Number(c.dataset.padCount) } : null;
  }

  function say(text) {
    var b = box();
    var err = b && b.querySelector("[data-pad-error]");
    if (err) err.textContent = text || "";
  }

  function draw() {
    var b = box();
    var f = facts();
    if (!b || !f) return;
    var shown = b.querySelector("[data-pad-typed]");
    if (shown) {
      shown.textContent = "";
      typed.forEach(function (face) {
        var s = document.createElement("span");
        s.className = "die";
        s.textContent = String(face);
        shown.appendChild(s);
      });
      if (buffer) {
        var s = document.createElement("span");
        s.className = "die typing";
        s.textContent = buffer;
        shown.appendChild(s);
      }
    }
    var counter = b.querySelector("[data-pad-counter]");
    if (counter) counter.textContent = typed.length + " / " + f.count;
    var input = b.querySelector("[data-pad-input]");
    if (input) input.value = typed.join(" ");
    var submit = b.querySelector("[data-pad=submit]");
    if (submit) submit.classList.toggle("ready", typed.length === f.count);
  }

  function faceOf(raw, sides) {
    // A typed 0 is a 10 on a d10; 00 (or 0) is 100 on a d100.
    if (!/^\d{1,3}$/.test(raw)) return null;
    var n = Number(raw);
    if (n === 0 && (sides === 10 || sides === 100)) n = sides;
    return n >= 1 && n <= sides ? n : null;
  }

  function push(raw) {
    var f = facts();
    var c = card();
    if (!f || !c) return;
    var face = faceOf(String(raw), f.sides);
    if (face === null) { say(fmt(c.dataset.msgBadFace, { face: raw })); return; }
    if (typed.length >= f.count) {
      say(fmt(c.dataset.msgTooMany, { count: typed.length + 1, needed: f.count }));
      return;
    }
    typed.push(face);
    say("");
    draw();
  }

  function back() {
    if (buffer) buffer = buffer.slice(0, -1); else typed.pop();
    say("");
    draw();
  }

  function addBuffer() {
    if (!buffer) return;
    var raw = buffer;
    buffer = "";
    push(raw);
    draw();
  }

  function send(form, auto) {
    var onPad = form.hasAttribute("data-pad-form");
    var f = onPad ? facts() : null;
    var c = card();
    if (!auto && f && c && f.count) {
      if (buffer) addBuffer();
      if (typed.length < f.count) {
        say(fmt(c.dataset.msgTooFew, { count: typed.length, needed: f.count }));
        return;
      }
    }
    var data = new FormData(form);
    if (auto) data.set("auto", "1"); else data.delete("auto");
    if (f && f.count && !auto) data.set("faces", typed.join(" "));
    var b = box();
    var sentVersion = cache.version;
    fetch(form.getAttribute("action"), {
      method: "POST",
      body: new URLSearchParams(data),
      headers: { "X-CSRF-Token": b ? b.dataset.csrf : "" },
      credentials: "same-origin"
    }).then(function (r) {
      return r.text().then(function (html) { return { status: r.status, html: html }; });
    }).then(function (answer) {
      if (answer.status === 422) {
        // Refused: the server says why beside the pad; the faces typed stay.
        var keep = typed.slice();
        show(answer.html);
        var doc = fragment(answer.html);
        var err = doc.querySelector("[data-pad-error]");
        typed = keep;
        draw();
        if (err) say(err.textContent);
        return;
      }
      // The stream may have shown this answer's box already, and the player typed on it
      // since: those faces stay. An answer older than a later box the stream showed is
      // dropped.
      var fresh = fragment(answer.html).firstElementChild;
      var later = cache.version !== sentVersion;
      if (later && fresh && fresh.dataset.version !== cache.version &&
          (Number(fresh.dataset.at) || 0) < cache.at) return;
      if (!later || !fresh || fresh.dataset.version !== cache.version) {
        typed = [];
        buffer = "";
      }
      show(answer.html);
    }).catch(function () { /* offline: the stream brings it back when it reconnects */ });
  }

  function fragment(html) {
    var t = document.createElement("template");
    t.innerHTML = (html || "").trim();
    return t.content;
  }

  function show(html) {
    var old = box();
    if (!old) return;
    var fresh = fragment(html).firstElementChild;
    if (!fresh || fresh.id !== "rolls") return;
    var changed = fresh.dataset.version !== cache.version;
    cache = {
      url: fresh.dataset.rollsUrl, html: html, version: fresh.dataset.version,
      at: Math.max(cache.at, Number(fresh.dataset.at) || 0)
    };
    old.replaceWith(fresh);
    if (changed) { typed = []; buffer = ""; }
    bind();
    if (changed && pad()) fresh.scrollIntoView({ block: "nearest" });
  }

  function bind() {
    var b = box();
    if (!b) return;
    var form = pad();
    var live = document.getElementById("live");
    if (live && b.dataset.msgReconnecting) live.dataset.reconnecting = b.dataset.msgReconnecting;
    draw();
    keepAwake(!!form && /^\/p\//.test(b.dataset.rollsUrl || ""));
    if (!form || form.dataset.bound) return;
    form.dataset.bound = "1";
    b.classList.add("js-pad");
    form.addEventListener("click", function (ev) {
      var key = ev.target.closest("button");
      if (!key || !form.contains(key)) return;
      if (key.dataset.face) { ev.preventDefault(); push(key.dataset.face); }
      else if (key.dataset.digit !== undefined) {
        ev.preventDefault();
        if (buffer.length < 3) buffer += key.dataset.digit;
        draw();
      } else if (key.dataset.pad === "add") { ev.preventDefault(); addBuffer(); }
      else if (key.dataset.pad === "back") { ev.preventDefault(); back(); }
      else if (key.dataset.pad === "auto") { ev.preventDefault(); send(form, true); }
    });
    form.addEventListener("submit", function (ev) { ev.preventDefault(); send(form, false); });
    var keys = b.querySelector("[data-pad-keys]");
    if (keys && !b.contains(document.activeElement)) keys.focus({ preventScroll: true });
  }

  document.addEventListener("submit", function (ev) {
    var form = ev.target;
    var b = box();
    if (!b || !b.contains(form) || form.hasAttribute("data-pad-form")) return;
    ev.preventDefault();  // cancel, dismiss, record: posted here, the answer fills the box
    send(form, false);
  });

  document.addEventListener("keydown", function (ev) {
    var f = facts();
    if (!f || !f.count || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    var tag = (ev.target && ev.target.tagName) || "";
    var b = box();
    if (/INPUT|TEXTAREA|SELECT/.test(tag) && !(b && b.contains(ev.target))) return;
    if (/^\d$/.test(ev.key)) {
      ev.preventDefault();
      if (f.sides <= 10) push(ev.key);
      else if (buffer.length < 3) { buffer += ev.key; draw(); }
    } else if (ev.key === "Backspace") {
      ev.preventDefault(); back();
    } else if (ev.key === " " && f.sides > 10) {
      ev.preventDefault(); addBuffer();
    } else if (ev.key === "Enter") {
      ev.preventDefault();
      if (buffer) addBuffer();
      else if (typed.length === f.count) send(pad(), false);
      else {
        var c = card();
        say(fmt(c.dataset.msgTooFew, { count: typed.length, needed: f.count }));
      }
    }
  }, true);

  function refill() {
    // A fresh panel brought an empty box: what we showed goes back at once.
    var b = box();
    if (!b || b.dataset.version || !cache.html || cache.url !== b.dataset.rollsUrl) return;
    var keep = typed.slice(), kept = buffer;
    show(cache.html);
    typed = keep; buffer = kept;
    draw();
  }

  // The stream's news: a box whose version the page shows already is left as it is (the
  // faces typed, a refusal said beside the pad stay), and so is news read before what the
  // page shows (the stream read it before a command's answer came back).
  document.addEventListener("conteur:rolls", function (ev) {
    var b = box();
    var fresh = fragment(ev.detail).firstElementChild;
    if (!b || !fresh || fresh.id !== "rolls") return;
    if ((Number(fresh.dataset.at) || 0) < cache.at) return;
    if (b.dataset.version && b.dataset.version === fresh.dataset.version) return;
    if (!b.dataset.version && cache.version === fresh.dataset.version) { refill(); return; }
    show(ev.detail);
  });

  function keepAwake(on) {
    if (!("wakeLock" in navigator)) return;
    if (on && !wakeLock && document.visibilityState === "visible") {
      navigator.wakeLock.request("screen").then(function (lock) {
        wakeLock = lock;
        lock.addEventListener("release", function () { wakeLock = null; });
      }).catch(function () {});
    } else if (!on && wakeLock) {
      wakeLock.release();
      wakeLock = null;
    }
  }

  // A fresh panel (live update, command answer) is watched: its empty box is filled again.
  new MutationObserver(function () {
    var b = box();
    if (b && !b.dataset.version) refill();
  }).observe(document.body, { childList: true, subtree: true });
  document.addEventListener("visibilitychange", function () {
    // A lock is released when the page is hidden: asked again when it is seen again.
    if (document.visibilityState === "visible") { wakeLock = null; bind(); }
  });
})();
