// conteur: live updates by server-sent events (each brings the view's new panel), and the game master's shortcuts (r, u).
(function () {
  "use strict";
  var body = document.body;
  var live = document.getElementById("live");
  var url = body.dataset.stream;
  if (url) {
    var source = new EventSource(url);
    source.onopen = function () { if (live) live.dataset.live = "on"; };
    source.onerror = function () { if (live) live.dataset.live = "off"; };
    source.addEventListener("update", function (ev) {
      var data = JSON.parse(ev.data);
      var panel = document.getElementById("panel");
      if (!panel || Number(panel.dataset.seq) >= data.seq) return;
      if (data.panel) {  // the new panel comes with the news: no request back
        htmx.swap(panel, data.panel, { swapStyle: "outerHTML" });
      } else {
        htmx.ajax("GET", panel.dataset.panelUrl, { target: "#panel", swap: "outerHTML" });
      }
    });
  }
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
