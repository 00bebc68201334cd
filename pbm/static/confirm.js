// Forms that cannot be undone lightly (roll back, kill, disqualify, end the game)
// carry data-confirm: the browser asks before sending. Without JS they are sent as is.
document.addEventListener("submit", function (event) {
  "use strict";
  var message = event.target.getAttribute && event.target.getAttribute("data-confirm");
  if (message && !window.confirm(message)) {
    event.preventDefault();
  }
}, true);
