// Dependent fields of the action forms. Only a convenience: without it every
// choice is offered and the engine refuses an illegal one with its reason.
// Everything game-specific comes from the ruleset through data attributes that
// pbm/web/player.py writes: this file names no action, choice or game.
(function () {
  "use strict";
  function wrapper(el) { return el.closest("label, fieldset") || el; }

  function show(el, visible) {
    wrapper(el).hidden = !visible;
    el.disabled = !visible;  // a hidden field sends nothing
  }

  // <select data-depends-on="FORM-FIELD" data-depends='{"a choice": ["Anna", ...]}'>:
  // the options left are those the other field's current choice allows.
  document.querySelectorAll("select[data-depends-on]").forEach(function (select) {
    var controller = select.form.elements[select.dataset.dependsOn];
    if (!controller) return;
    var table = JSON.parse(select.dataset.depends);
    var all = Array.prototype.map.call(select.options, function (o) {
      return { value: o.value, text: o.text };
    });
    function update() {
      var legal = table[controller.value];
      var keep = select.value;
      select.innerHTML = "";
      all.forEach(function (o) {
        if (o.value === "" || !legal || legal.indexOf(o.value) !== -1) {
          select.add(new Option(o.text, o.value, false, o.value === keep));
        }
      });
      show(select, !legal || legal.length > 0);
    }
    controller.addEventListener("change", update);
    update();
  });

  // <input data-show-when='{"FORM-FIELD": ["a choice", ...]}'>: shown only while
  // every named field has one of the listed values.
  document.querySelectorAll("[data-show-when]").forEach(function (input) {
    var rules = JSON.parse(input.dataset.showWhen);
    var names = Object.keys(rules);
    function update() {
      show(input, names.every(function (name) {
        var c = input.form.elements[name];
        return !c || rules[name].indexOf(c.value) !== -1;
      }));
    }
    names.forEach(function (name) {
      var c = input.form.elements[name];
      if (c) c.addEventListener("change", update);
    });
    update();
  });
})();
