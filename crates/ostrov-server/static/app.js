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

  // Refetch every live fragment of the page (the thread, the pack's chat) and merge it in
  // place (issue 30, point 13): the list keeps its one aria-live region and gains only the
  // new posts (a changed post, a flag, is updated where it stands); the forms, their
  // controls, what is typed in them and the focus stay as they are.
  function refresh() {
    document.querySelectorAll("[data-fragment]").forEach(function (el) {
      fetch(el.dataset.fragment, { credentials: "same-origin", headers: { "HX-Request": "true" } })
        .then(function (r) { return r.ok ? r.text() : ""; })
        .then(function (html) {
          if (!html) { return; }
          var box = document.createElement("div");
          box.innerHTML = html;
          var fresh = box.querySelector("[data-fragment]");
          if (fresh) { merge(el, fresh); }
        });
    });
  }

  function merge(el, fresh) {
    var old = el.querySelector(".posts");
    var neu = fresh.querySelector(".posts");
    if (old && neu) {
      var added = false;
      Array.prototype.forEach.call(neu.children, function (li) {
        if (!li.id) { return; }
        var cur = document.getElementById(li.id);
        if (!cur) {
          old.appendChild(li.cloneNode(true));
          added = true;
        } else if (cur.innerHTML !== li.innerHTML || cur.className !== li.className) {
          if (cur.contains(document.activeElement)) { cur.className = li.className; return; }
          cur.className = li.className;
          cur.innerHTML = li.innerHTML;
        }
      });
      if (added) {
        Array.prototype.forEach.call(old.querySelectorAll("li:not([id])"), function (x) { x.remove(); });
      }
    }
    // The day and page links and the counts beside them: replaced whole (no focus there
    // is lost unless it was on a link that changed).
    ["nav.days", "nav.pages"].forEach(function (sel) {
      var a = el.querySelector(sel), b = fresh.querySelector(sel);
      if (a && b && a.innerHTML !== b.innerHTML && !a.contains(document.activeElement)) { a.replaceWith(b); }
      else if (!a && b) { var h = el.querySelector("h2"); if (h) { h.after(b); } }
    });
    localTimes(el);
  }

  // The countdown of the game page ticks (the server wrote it right at load), counted from
  // the server's time of the page plus the time since, not from the reader's clock.
  function tick() {
    document.querySelectorAll("[data-until]").forEach(function (s) {
      if (!s.dataset.loaded) { s.dataset.loaded = String(Date.now()); }
      var elapsed = (Date.now() - parseInt(s.dataset.loaded, 10)) / 1000;
      var left = parseInt(s.dataset.until, 10) - parseInt(s.dataset.now, 10) - elapsed;
      s.textContent = leftText(left);
    });
  }

  // As the server words it (web/text.rs, left_ru): «3 ч 12 мин», «2 дн. 3 ч».
  function leftText(secs) {
    if (secs <= 0) { return "0 мин"; }
    if (secs < 60) { return "меньше минуты"; }
    var mins = Math.floor(secs / 60);
    var d = Math.floor(mins / 1440), h = Math.floor(mins / 60) % 24, m = mins % 60;
    var parts = [];
    if (d > 0) { parts.push(d + " дн."); }
    if (h > 0) { parts.push(h + " ч"); }
    if (m > 0 && d === 0) { parts.push(m + " мин"); }
    return parts.join(" ");
  }

  // After a form post or a boosted link (issue 30, point 13): focus the confirmation, or
  // the first refusal, or the page's heading, instead of leaving it on <body>.
  function focusAfterSwap() {
    var t = document.querySelector("[data-focus]") || document.querySelector("main .error[role=alert]");
    if (t) {
      var field = t.id ? document.querySelector("[aria-describedby~='" + t.id + "']") : null;
      if (field && !t.dataset.focus) { t = field; }
    } else {
      t = document.querySelector("main h1");
      if (t && !t.hasAttribute("tabindex")) { t.setAttribute("tabindex", "-1"); }
    }
    if (t) { t.focus({ preventScroll: false }); if (t.scrollIntoView) { t.scrollIntoView({ block: "center" }); } }
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
      // Without JavaScript the readonly field is there to select and copy by hand; the
      // button shows only where it works.
      if (b.parentNode && b.parentNode.hasAttribute("data-copy-wrap")) { b.parentNode.hidden = false; }
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

  document.addEventListener("DOMContentLoaded", function () {
    init(document);
    tick();
    setInterval(tick, 20000);
    if (document.querySelector("[data-focus]")) { focusAfterSwap(); }
  });
  document.addEventListener("htmx:load", function (e) { init(e.target || document); });
  document.addEventListener("htmx:afterSettle", function (e) {
    if (e.detail && e.detail.boosted) { tick(); focusAfterSwap(); }
  });
})();
