// A room's page: new posts appear without a reload. While the page is seen, every few
// seconds it asks the room's polling endpoint for the posts after the newest shown (204:
// nothing new) and adds them at the bottom; 205 (more than a page came) reads the page
// anew; 401/403/404 (logged out, no longer in the room) stop asking. Without script the
// page is the same, read anew by reloading it.
(function () {
  "use strict";
  var list = document.getElementById("posts");
  if (!list || !list.getAttribute("data-poll") || list.hasAttribute("data-paged")) {
    return;
  }
  var every = (parseFloat(list.getAttribute("data-every")) || 10) * 1000;
  var base = list.getAttribute("data-poll");
  var newest = list.getAttribute("data-newest") || "0";
  var busy = false;
  var stopped = false;
  var timer = null;

  function nearBottom() {
    return window.innerHeight + window.scrollY >= document.body.scrollHeight - 200;
  }

  function add(html) {
    var holder = document.createElement("template");
    holder.innerHTML = html;
    var stay = nearBottom();
    var items = holder.content.querySelectorAll("li.post");
    for (var i = 0; i < items.length; i += 1) {
      if (!document.getElementById(items[i].id)) {
        list.appendChild(items[i]);
      }
      newest = items[i].id || newest;
    }
    var empty = document.getElementById("empty");
    if (empty && items.length) {
      empty.hidden = true;
    }
    if (stay) {
      window.scrollTo(0, document.body.scrollHeight);
    }
  }

  function ask() {
    if (busy || stopped || document.hidden) {
      return;
    }
    busy = true;
    fetch(base + encodeURIComponent(newest), {credentials: "same-origin", headers: {"Accept": "text/html"}})
      .then(function (response) {
        if (response.status === 200) {
          return response.text().then(add);
        }
        if (response.status === 205) {
          window.location.reload();
        } else if (response.status === 401 || response.status === 403 || response.status === 404) {
          stopped = true;
          window.clearInterval(timer);
        }
        return null;
      })
      .catch(function () { return null; })
      .then(function () { busy = false; });
  }

  timer = window.setInterval(ask, every);
  document.addEventListener("visibilitychange", function () {
    if (!document.hidden) {
      ask();
    }
  });
  // Newest at the bottom: a room opens on its last posts and its composer.
  if (!window.location.hash) {
    window.scrollTo(0, document.body.scrollHeight);
  }
}());
