// Dependent fields of the action forms, and a choice sent without leaving the page.
// Only conveniences: without this file every choice is offered (the engine refuses
// an illegal one with its reason) and a form is posted as any form is.
// Everything game-specific comes from the ruleset through data attributes that
// pbm/web/player.py writes: this file names no action, choice or game.
(function () {
  "use strict";
  function wrapper(el) { return el.closest("label, fieldset") || el; }

  function show(el, visible) {
    wrapper(el).hidden = !visible;
    el.disabled = !visible;  // a hidden field sends nothing
  }

  function enhance(root) {
  // <select data-depends-on="FORM-FIELD" data-depends='{"a choice": ["Anna", ...]}'>:
  // the options left are those the other field's current choice allows.
  root.querySelectorAll("select[data-depends-on]").forEach(function (select) {
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
  root.querySelectorAll("[data-show-when]").forEach(function (input) {
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
  }

  enhance(document);

  // A choice sent from the reserved page comes back as the receipt and the forms as
  // they now stand, put in their place (X-Pbm-Fragment: pbm/web/player.py): one
  // request instead of the post and the whole page again, and the history keeps no
  // post to send twice on a reload. A refusal goes back to the page, which says why;
  // anything else (no answer, an expired form) posts the form as without this file.
  var place = document.getElementById("phase-forms");
  if (place && window.fetch && window.FormData) {
    place.addEventListener("submit", function (event) {
      var form = event.target;
      if (!form.matches("form.action")) return;
      event.preventDefault();
      var button = form.querySelector("button[type=submit]");
      if (button) button.disabled = true;
      fetch(form.action, {
        method: "POST", body: new FormData(form), credentials: "same-origin", redirect: "manual",
        headers: { "X-Pbm-Fragment": "forms" }
      }).then(function (response) {
        if (response.ok && response.headers.get("X-Pbm-Fragment") === "forms") {
          return response.text().then(function (html) {
            document.querySelectorAll("main > .flash").forEach(function (p) { p.remove(); });
            place.innerHTML = html;
            enhance(place);
            var said = place.querySelector(".flash");
            if (said) said.focus();
          });
        }
        if (response.type === "opaqueredirect") {
          window.location.assign(place.dataset.page);
          return;
        }
        form.submit();
      }).catch(function () {
        form.submit();
      });
    });
  }
})();
