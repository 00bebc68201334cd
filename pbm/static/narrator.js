// The narrator's taps. A face is a checkbox: tap to choose, tap again to undo a
// mis-tap; where one face is wanted, tapping another replaces the choice. Confirm is
// enabled once as many faces are chosen as the call wants (or none, when it may
// pass), and disabled after the first press so one confirm records one choice.
// Without JavaScript the server checks the same and says what is wrong.
(function () {
  "use strict";

  function setUp(grid) {
    var count = parseInt(grid.getAttribute("data-count"), 10) || 1;
    var optional = grid.hasAttribute("data-optional");
    var form = grid.closest("form");
    var button = form && form.querySelector("button[type=submit]");
    function boxes() { return Array.prototype.slice.call(grid.querySelectorAll("input[name=tap]")); }
    // A correction opens with the faces confirmed before already chosen: the first
    // new tap replaces them as any other choice would.
    var order = boxes().filter(function (b) { return b.checked; });

    function refresh() {
      var chosen = boxes().filter(function (b) { return b.checked; }).length;
      if (button) { button.disabled = !(chosen === count || (optional && chosen === 0)); }
    }
    grid.addEventListener("change", function (event) {
      var box = event.target;
      if (box.name !== "tap") { return; }
      order = order.filter(function (b) { return b !== box; });
      if (box.checked) {
        order.push(box);
        while (order.length > count) { order.shift().checked = false; }
      }
      refresh();
    });
    refresh();
  }

  document.querySelectorAll("fieldset.faces").forEach(setUp);
  // The offline page (narrator-offline.js) lays out its own grids, which behave the same.
  window.pbmNarratorFaces = setUp;

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (event.defaultPrevented || !form.closest || !form.closest(".narrator-page")) { return; }
    var button = form.querySelector("button[type=submit]");
    if (button) { window.setTimeout(function () { button.disabled = true; }, 0); }
  });

  // Keep the screen awake through the night where the browser allows it.
  var lock = null;
  function awake() {
    if (!("wakeLock" in navigator) || document.visibilityState !== "visible") { return; }
    navigator.wakeLock.request("screen").then(function (l) { lock = l; }).catch(function () { lock = null; });
  }
  document.addEventListener("visibilitychange", awake);
  awake();
}());
