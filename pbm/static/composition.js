// The desk's composition: the running total of the roles against the players, and the
// rules' standard set for this many players filled in at a tap. The numbers and the
// words come from the page (data attributes): this file names no role or game.
(function () {
  "use strict";
  var box = document.getElementById("composition");
  var total = document.getElementById("composition-total");
  if (!box || !total) { return; }
  var inputs = box.querySelectorAll("input[type=number]");
  var players = box.getAttribute("data-players");
  var words = total.getAttribute("data-words");
  function update() {
    var sum = 0;
    inputs.forEach(function (i) { sum += parseInt(i.value, 10) || 0; });
    total.textContent = words.replace("%(total)s", sum).replace("%(players)s", players);
    total.classList.toggle("mismatch", String(sum) !== players);
  }
  inputs.forEach(function (i) { i.addEventListener("input", update); });
  var button = document.getElementById("use-suggested");
  var suggested = box.getAttribute("data-suggested");
  if (button && suggested) {
    var set = JSON.parse(suggested);
    button.hidden = false;
    button.addEventListener("click", function () {
      inputs.forEach(function (i) { i.value = set[i.name.slice(5)] || 0; });
      update();
    });
  }
  update();
}());
