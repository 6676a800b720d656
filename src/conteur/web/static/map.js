// conteur: the battle map (templates/_map.html). Select a token (click, or Enter on it) to
// see the distance to every other token and the range band the rules give it (the bands
// come from the ruleset, in the page's data-bands); drag a token, or move it with the
// arrow keys, to place it: the move is the ruleset's own place command, sent as any form.
// The GM draws a cover zone by clicking its corners on the grid (or typing them). Each band's
// limit is drawn as a ring around the selected token; tokens sharing a spot are drawn apart
// (web/battlemap.py), their data-x/data-y staying where the rules have them.
(function () {
  "use strict";
  var selected = null;   // the selected token's combatant id, kept across panel swaps
  var drawing = false;
  var draft = "";        // the corners of the zone being drawn, kept across panel swaps
  var drag = null;
  var pendingKey = null;

  function map() { return document.getElementById("battle-map"); }
  function svgOf(m) { return m && m.querySelector("svg"); }
  function tokens(m) { return Array.prototype.slice.call(m.querySelectorAll(".token")); }
  function token(m, id) { return m.querySelector('.token[data-fighter="' + id + '"]'); }
  function pos(tk) { return [Number(tk.dataset.x), Number(tk.dataset.y)]; }
  function lang() { return document.documentElement.lang || "fr"; }
  function num(v) {
    return new Intl.NumberFormat(lang(), { maximumFractionDigits: 1 }).format(v);
  }
  function snap(v) { return Math.round(v * 2) / 2; }

  function point(svg, ev) {  // a pointer's place in the grid's units
    var p = svg.createSVGPoint();
    p.x = ev.clientX; p.y = ev.clientY;
    var q = p.matrixTransform(svg.getScreenCTM().inverse());
    return [snap(q.x), snap(q.y)];
  }

  function movable(m, tk) {
    var who = m.dataset.movable;
    return !!who && (who === "*" || who === tk.dataset.fighter);
  }

  function band(m, from, d) {
    var bands = JSON.parse(m.dataset.bands || "{}")[from];
    if (!bands) return null;
    for (var i = 0; i < bands.length; i++) {
      if (bands[i][1] === null || d <= bands[i][1] + 1e-9) return bands[i];
    }
    return null;
  }

  var SVG_NS = "http://www.w3.org/2000/svg";

  function rings(m, from, a) {  // each band's limit, a ring around the selected token
    var g = m.querySelector("g.rings");
    if (!g) return;
    while (g.firstChild) g.removeChild(g.firstChild);
    var rows = from && JSON.parse(m.dataset.bands || "{}")[selected];
    (rows || []).forEach(function (row) {
      if (row[1] === null) return;
      var c = document.createElementNS(SVG_NS, "circle");
      c.setAttribute("cx", a[0]); c.setAttribute("cy", a[1]); c.setAttribute("r", row[1]);
      c.setAttribute("class", "band-ring");
      c.dataset.band = row[0]; c.dataset.rule = row[2];
      var title = document.createElementNS(SVG_NS, "title");
      title.textContent = row[0] + " (" + row[2] + ") ≤ " + num(row[1]) + " " + m.dataset.unit;
      c.appendChild(title);
      g.appendChild(c);
    });
  }

  function show(m) {  // distances and bands from the selected token
    var info = m.querySelector("[data-map-info]");
    var unit = m.dataset.unit;
    tokens(m).forEach(function (tk) {
      tk.classList.toggle("selected", tk.dataset.fighter === selected);
      tk.querySelector(".dist").textContent = "";
      tk.removeAttribute("data-band");
    });
    var from = selected && token(m, selected);
    if (!from) { rings(m, null, null); if (info) info.textContent = ""; return; }
    var a = pos(from);
    rings(m, from, a);
    var parts = [];
    var name = from.querySelector("title").textContent;
    tokens(m).forEach(function (tk) {
      if (tk === from) return;
      var b = pos(tk);
      var d = Math.hypot(a[0] - b[0], a[1] - b[1]);
      var row = band(m, selected, d);
      var text = num(d) + " " + unit;
      tk.querySelector(".dist").textContent = text;
      if (row) tk.dataset.band = row[0];
      parts.push(tk.querySelector("title").textContent + " " + text +
        (row ? " · " + row[0] + " (" + row[2] + ")" : ""));
    });
    var head = (m.dataset.textFrom || "{name}").replace("{name}", name);
    var none = JSON.parse(m.dataset.bands || "{}")[selected] ? "" : " (" + m.dataset.textNone + ")";
    var colon = m.dataset.textColon || ":", sep = m.dataset.textSep || "; ";
    if (info) info.textContent = head + none + colon + " " + parts.join(sep);
  }

  function send(m, tk, x, y) {  // the place command, as the page's hidden form
    var form = m.querySelector("form.map-move");
    if (!form) return;
    form.querySelector('[name="fighter"]').value = tk.dataset.fighter;
    form.querySelector('[name="to"]').value = x + "," + y;
    form.requestSubmit();
  }

  function place(tk, x, y) {
    tk.dataset.x = x; tk.dataset.y = y;
    tk.setAttribute("transform", "translate(" + x + " " + y + ")");
  }

  function select(id) {
    selected = id;
    var m = map();
    if (m) show(m);
  }

  document.addEventListener("pointerdown", function (ev) {
    var m = map();
    var svg = svgOf(m);
    if (!svg || !svg.contains(ev.target)) return;
    var tk = ev.target.closest && ev.target.closest(".token");
    if (drawing && !tk) {
      var p = point(svg, ev);
      var field = m.querySelector('form.map-zone [name="points"]');
      field.value = (field.value ? field.value + " " : "") + p[0] + "," + p[1];
      draft = field.value;
      drawDraft(m);
      ev.preventDefault();
      return;
    }
    if (!tk) return;
    if (!movable(m, tk)) { select(tk.dataset.fighter); return; }
    drag = { tk: tk, start: pos(tk), moved: false, id: ev.pointerId };
    tk.setPointerCapture(ev.pointerId);
    ev.preventDefault();
  });
  document.addEventListener("pointermove", function (ev) {
    if (!drag || ev.pointerId !== drag.id) return;
    var m = map();
    if (!m) { drag = null; return; }
    var p = point(svgOf(m), ev);
    var now = pos(drag.tk);
    if (p[0] !== now[0] || p[1] !== now[1]) {
      place(drag.tk, p[0], p[1]);
      drag.moved = true;
      show(m);
    }
  });
  document.addEventListener("pointerup", function (ev) {
    if (!drag || ev.pointerId !== drag.id) return;
    var d = drag;
    drag = null;
    var m = map();
    var p = pos(d.tk);
    if (!d.moved) { select(d.tk.dataset.fighter); return; }  // a click: the selection
    if (m && (p[0] !== d.start[0] || p[1] !== d.start[1])) send(m, d.tk, p[0], p[1]);
  });

  // The keyboard: Enter or Space selects the focused token, the arrows move it one square
  // (the move is sent when the keys rest), Escape clears the selection.
  document.addEventListener("keydown", function (ev) {
    var tk = ev.target && ev.target.closest && ev.target.closest("#battle-map .token");
    if (!tk) return;
    var m = map();
    var steps = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    if (ev.key === "Enter" || ev.key === " ") {
      select(tk.dataset.fighter);
      ev.preventDefault();
    } else if (ev.key === "Escape") {
      select(null);
      ev.preventDefault();
    } else if (steps[ev.key] && movable(m, tk)) {
      var p = pos(tk);
      place(tk, p[0] + steps[ev.key][0], p[1] + steps[ev.key][1]);
      if (selected === null) selected = tk.dataset.fighter;
      show(m);
      clearTimeout(pendingKey);
      pendingKey = setTimeout(function () {
        var q = pos(tk);
        send(m, tk, q[0], q[1]);
      }, 700);
      ev.preventDefault();
    }
  });

  function drawDraft(m) {
    var field = m.querySelector('form.map-zone [name="points"]');
    var draft = m.querySelector("polyline.draft");
    if (draft && field) draft.setAttribute("points", field.value);
  }
  document.addEventListener("click", function (ev) {
    var btn = ev.target.closest && ev.target.closest("[data-map-draw]");
    if (!btn) return;
    drawing = !drawing;
    btn.setAttribute("aria-pressed", drawing ? "true" : "false");
    var m = map();
    if (m) m.classList.toggle("drawing", drawing);
  });
  document.addEventListener("input", function (ev) {
    if (ev.target && ev.target.name === "points" && ev.target.closest("#battle-map")) {
      draft = ev.target.value;
      drawDraft(map());
    }
  });

  // A new panel (a command's answer, the live stream): the selection and drawing carry on.
  function again() {
    var m = map();
    if (!m) return;
    if (selected && !token(m, selected)) selected = null;
    show(m);
    var field = m.querySelector('form.map-zone [name="points"]');
    if (field && draft && !field.value) field.value = draft;
    drawDraft(m);
    if (drawing) {
      var btn = m.querySelector("[data-map-draw]");
      if (btn) btn.setAttribute("aria-pressed", "true");
      m.classList.add("drawing");
    }
  }
  // A zone sent: the drawing is over (its answer, or the live stream, shows the zone).
  document.body.addEventListener("htmx:beforeRequest", function (ev) {
    var form = ev.detail.elt && ev.detail.elt.closest && ev.detail.elt.closest("form.map-zone");
    if (form) { drawing = false; draft = ""; }
  });
  document.body.addEventListener("htmx:afterSwap", function (ev) {
    if (ev.detail.target && ev.detail.target.id === "panel") again();
  });
  document.addEventListener("conteur:panel", again);
  again();
})();
