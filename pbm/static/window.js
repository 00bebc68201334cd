// An answer window lasts minutes: the page counts down to the second and reloads when
// the window closes, and every 20 seconds while nobody is typing or choosing (another
// player's answer may have closed it), so nobody answers a moment already gone.
(function () {
  "use strict";
  var deadline = document.getElementById("deadline");
  var left = document.getElementById("left");
  if (!deadline || !deadline.getAttribute("datetime")) { return; }
  var ends = Date.parse(deadline.getAttribute("datetime"));
  var opened = Date.now();
  function busy() {
    var active = document.activeElement;
    if (active && /^(INPUT|SELECT|TEXTAREA)$/.test(active.tagName)) { return true; }
    return document.querySelector("details[open]") !== null;
  }
  function tick() {
    var seconds = Math.max(0, Math.round((ends - Date.now()) / 1000));
    if (left) {
      left.textContent = "(" + Math.floor(seconds / 60) + ":" + ("0" + (seconds % 60)).slice(-2) + ")";
    }
    if (seconds === 0 && Date.now() - opened > 5000) { window.location.reload(); return; }
    if (Date.now() - opened > 20000 && !busy()) { window.location.reload(); return; }
    window.setTimeout(tick, 1000);
  }
  tick();
}());
