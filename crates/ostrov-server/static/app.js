// Ostrov's pages: live updates, the reader's own time zone, copy buttons.
// Every page works without this script; it only adds to what the server rendered.
(function () {
  "use strict";
  var source = null;
  var sourceUrl = "";

  // Beside each game time, the same moment in the reader's own zone (when it differs).
  function localTimes(root) {
    var zone = "";
    try { zone = Intl.DateTimeFormat().resolvedOptions().timeZone || ""; } catch (e) { return; }
    root.querySelectorAll("time[data-local]").forEach(function (t) {
      if (t.dataset.done) { return; }
      t.dataset.done = "1";
      var d = new Date(t.getAttribute("datetime"));
      if (isNaN(d.getTime())) { return; }
      var iso = t.getAttribute("datetime");
      var offset = -d.getTimezoneOffset();
      var m = /([+-])(\d\d):(\d\d)$/.exec(iso);
      if (!m) { return; }
      var gameOffset = (m[1] === "-" ? -1 : 1) * (parseInt(m[2], 10) * 60 + parseInt(m[3], 10));
      if (gameOffset === offset) { return; }
      var s = d.toLocaleString("ru-RU", { day: "numeric", month: "long", hour: "2-digit", minute: "2-digit" });
      var span = document.createElement("span");
      span.className = "localtime";
      span.textContent = " (у вас: " + s + ", " + zone + ")";
      t.after(span);
    });
  }

  // Refetch every live fragment of the page (the thread, the pack's chat).
  function refresh() {
    document.querySelectorAll("[data-fragment]").forEach(function (el) {
      var active = document.activeElement;
      if (active && el.contains(active) && active.tagName === "TEXTAREA" && active.value) {
        // Keep what the reader is typing: only the list of posts is replaced.
        fetch(el.dataset.fragment, { credentials: "same-origin" }).then(function (r) { return r.text(); }).then(function (html) {
          var box = document.createElement("div");
          box.innerHTML = html;
          var fresh = box.querySelector(".posts");
          var old = el.querySelector(".posts");
          if (fresh && old) { old.replaceWith(fresh); }
        });
        return;
      }
      if (window.htmx) { window.htmx.ajax("GET", el.dataset.fragment, { target: el, swap: "outerHTML" }); }
    });
  }

  function live(root) {
    var game = document.querySelector("[data-live]");
    var url = game ? game.dataset.live : "";
    if (url === sourceUrl) { return; }
    if (source) { source.close(); source = null; }
    sourceUrl = url;
    if (!url || !window.EventSource) { return; }
    source = new EventSource(url);
    source.addEventListener("changed", refresh);
    source.addEventListener("changed", notify);
  }

  // Browser notifications while the tab is open but not looked at (issue 31, point 7):
  // opt-in per game, only what the live stream says this viewer may know has changed.
  function notifyKey() { return "ostrov-notify:" + sourceUrl; }
  function notifyOn() {
    return window.Notification && Notification.permission === "granted" && localStorage.getItem(notifyKey()) === "1";
  }
  function notify() {
    if (!notifyOn() || !document.hidden) { return; }
    var title = document.querySelector(".game h1");
    new Notification(title ? title.textContent : "Остров страха", {
      body: "В игре новости: откройте вкладку.", tag: sourceUrl
    });
  }
  function notifyButton(root) {
    var b = root.querySelector ? root.querySelector("[data-notify]") : null;
    if (!b || b.dataset.ready || !window.Notification || !window.localStorage) { return; }
    b.dataset.ready = "1";
    var state = document.querySelector("[data-notify-state]");
    var show = function () {
      var on = notifyOn();
      b.textContent = on ? "Не уведомлять в браузере" : "Уведомлять в браузере";
      if (state) { state.textContent = Notification.permission === "denied" ? "браузер запретил уведомления для этого сайта" : (on ? "включено, пока вкладка открыта" : ""); }
    };
    b.parentNode.hidden = false;
    show();
    b.addEventListener("click", function () {
      if (notifyOn()) { localStorage.removeItem(notifyKey()); show(); return; }
      Notification.requestPermission().then(function (p) {
        if (p === "granted") { localStorage.setItem(notifyKey(), "1"); }
        show();
      });
    });
  }

  function copyButtons(root) {
    root.querySelectorAll("[data-copy]").forEach(function (b) {
      if (b.dataset.ready) { return; }
      b.dataset.ready = "1";
      b.addEventListener("click", function () {
        var field = document.getElementById(b.dataset.copy);
        if (!field) { return; }
        field.select();
        var done = function () { b.textContent = "Скопировано"; };
        if (navigator.clipboard) { navigator.clipboard.writeText(field.value).then(done, function () { document.execCommand("copy"); done(); }); }
        else { document.execCommand("copy"); done(); }
      });
    });
    root.querySelectorAll("input[data-absolute]").forEach(function (i) {
      if (i.value.charAt(0) === "/") { i.value = location.origin + i.value; }
    });
  }

  function init(root) {
    localTimes(root);
    copyButtons(root);
    live(root);
    notifyButton(root);
  }

  document.addEventListener("DOMContentLoaded", function () { init(document); });
  document.addEventListener("htmx:load", function (e) { init(e.target || document); });
})();
