"""The players of the deadline rush (bench_rush.py): one Locust user a player, in a
process of its own (Locust runs on gevent, which patches the standard library).

Not a benchmark by itself: bench_rush.py starts it as

    python bench/rush_players.py HOST PLAN GO OUT [script|no-script]

PLAN is a JSON list, one entry a player: their address, game, and steps, each a
moment (seconds from the deadline, negative before it), a target and a label
(``first``, ``change``, ``late``). Every user logs in, then this process prints
READY and waits until the file GO holds the deadline (a Unix time). Then each
user, at each of its moments, does what a browser does: opens the reserved page
and posts the vote form it found there. With the page's script (``script``, the
default: static/forms.js) the answer is the receipt in place, and a refusal sends
the browser to the page that says why; without it (``no-script``) the browser
follows the redirect to the page that says "Registrato" or "Non registrato". OUT receives one JSON line per request
(its name, start, duration, status) and one per vote (when the page was asked
for, when the form was sent, when the answer came, what the page then said);
the last line is {"done": ...}.
"""
from __future__ import annotations

from gevent import monkey

monkey.patch_all()

import itertools  # noqa: E402
import json  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import gevent  # noqa: E402
from locust import FastHttpUser, constant, events, task  # noqa: E402
from locust.env import Environment  # noqa: E402
from locust.exception import StopUser  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_web import TOKEN_RE, VOTE_OPTION_RE  # noqa: E402  (the pages as bench_web reads them)

PASSWORD = "bench-password"
REFUSED = ("Non registrato:", "Not recorded:")
RECORDED = ("Registrato:", "Recorded:")

HOST, PLAN_FILE, GO_FILE, OUT_FILE = sys.argv[1:5]
SCRIPT = (sys.argv[5] if len(sys.argv) > 5 else "script") == "script"
IN_PLACE = {"X-Pbm-Fragment": "forms"}  # what static/forms.js sends (pbm/web/player.py)
PLAN: list[dict] = json.loads(Path(PLAN_FILE).read_text())
NEXT = itertools.count()
STATE = {"ready": 0, "done": 0, "deadline": None, "errors": 0}
OUT = open(OUT_FILE, "w")


def write(line: dict) -> None:
    OUT.write(json.dumps(line) + "\n")


@events.request.add_listener
def on_request(request_type, name, response_time, response_length, exception=None, start_time=None,
               response=None, **_kw):
    write({"request": name, "method": request_type, "start": start_time, "ms": response_time,
           "status": getattr(response, "status_code", None), "error": str(exception) if exception else None})


class Player(FastHttpUser):
    host = HOST
    wait_time = constant(0)
    network_timeout = 60.0
    connection_timeout = 60.0

    def on_start(self) -> None:
        self.plan = PLAN[next(NEXT)]
        try:
            page = self.client.get("/login", name="login page").text
            token = TOKEN_RE.search(page).group(2)
            with self.client.post("/login", data={"csrf_token": token, "email": self.plan["email"],
                                                  "password": PASSWORD},
                                  name="login", allow_redirects=False, catch_response=True,
                                  headers={"Connection": "close"}) as response:
                if response.status_code != 302:
                    response.failure(f"login of {self.plan['email']}: {response.status_code}")
                    STATE["errors"] += 1
        except Exception:  # counted, and the player's votes will say what followed
            STATE["errors"] += 1
        finally:
            STATE["ready"] += 1

    @task
    def rush(self) -> None:
        try:
            while STATE["deadline"] is None:
                gevent.sleep(0.05)
            for step in self.plan["steps"]:
                gevent.sleep(max(0.0, STATE["deadline"] + step["at"] - time.time()))
                self.vote(step)
        finally:
            STATE["done"] += 1
        raise StopUser()

    def vote(self, step: dict) -> None:
        """One visit; its line says when the form was sent (None: never) and what came of it:
        recorded, refused (and why), or unknown (the answer was lost: it may have been stored)."""
        slug, target = self.plan["slug"], step["target"]
        line = {"vote": self.plan["email"], "slug": slug, "player": self.plan["player"], "label": step["label"],
                "target": target, "began": time.time(), "planned": STATE["deadline"] + step["at"], "sent": None, "answered": None, "outcome": "no form",
                "said": ""}
        try:
            page = self.client.get(f"/g/{slug}/me", name="rush: reserved page").text
            if page is None:
                line["outcome"] = "no page"
                return
            line["paged"] = time.time()
            tokens = [m.group(2) for m in TOKEN_RE.finditer(page) if m.group(1) == "vote-"]
            if not tokens:
                line["page"] = _what_the_page_was(page)
                return  # no vote form: the phase had closed before the page was read
            form = page[page.index('name="vote-vote"'):]
            if target not in VOTE_OPTION_RE.findall(form[:form.index("</select>")]):
                line["outcome"] = f"target {target} not offered"
                return
            line["sent"] = time.time()
            # A browser's connection lives for one visit: the visit's last request closes
            # it, as nginx in front would (2,000 idle connections held on gunicorn's
            # threads would measure something no deployment does). With the script, the
            # vote is the visit's last request unless it is refused.
            headers = {**IN_PLACE, "Connection": "close"} if SCRIPT else {}
            with self.client.post(f"/g/{slug}/act", name="rush: vote", allow_redirects=False, catch_response=True,
                                  headers=headers, data={"vote-csrf_token": tokens[0], "vote-kind": "vote",
                                                         "vote-vote": target}) as response:
                status = response.status_code
                answered_in_place = SCRIPT and status == 200 and response.headers.get("X-Pbm-Fragment") == "forms"
                said = response.text if answered_in_place else None
                if status != 302 and not answered_in_place:
                    response.failure(f"vote: {status}")
            line["answered"] = time.time()
            if answered_in_place:
                line["outcome"] = "recorded" if any(w in said for w in RECORDED) else "unknown: no receipt in place"
                return
            if status != 302:
                line["outcome"] = f"unknown: the vote answered {status}"
                return
            after = self.client.get(f"/g/{slug}/me", name="rush: page after the vote",
                                    headers={"Connection": "close"}).text
            if after is None:
                line["outcome"] = "unknown: no page after the vote"
            elif any(word in after for word in REFUSED):
                line["outcome"] = "refused"
                said = after[min(after.index(w) for w in REFUSED if w in after):]
                line["said"] = said[:said.find("<")].strip()[:160]
            elif any(word in after for word in RECORDED):
                line["outcome"] = "recorded"
            else:
                line["outcome"] = "unknown: no receipt on the page"
        except Exception as exc:  # the line says what happened
            line["outcome"] = f"unknown: {exc!r}"[:200] if line["sent"] else f"error: {exc!r}"[:200]
        finally:
            write(line)


def _what_the_page_was(page: str) -> str:
    """A page without a vote form, in a few words: its title and first heading."""
    import re
    title = re.search(r"<title>(.*?)</title>", page, re.S)
    heading = re.search(r"<h[12][^>]*>(.*?)</h[12]>", page, re.S)
    return " | ".join(" ".join(m.group(1).split())[:80] for m in (title, heading) if m)


def main() -> int:
    env = Environment(user_classes=[Player], events=events, host=HOST)
    runner = env.create_local_runner()
    runner.start(len(PLAN), spawn_rate=100)
    while STATE["ready"] < len(PLAN):
        gevent.sleep(0.2)
    print(f"READY {STATE['ready']} logged in, {STATE['errors']} failed", flush=True)
    go = Path(GO_FILE)
    while not (go.exists() and go.read_text().strip()):
        gevent.sleep(0.05)
    STATE["deadline"] = float(go.read_text())
    cpu_at_go = time.process_time()
    while STATE["done"] < len(PLAN):
        gevent.sleep(0.2)
    runner.quit()
    write({"done": STATE["done"], "login_errors": STATE["errors"],
           "cpu_seconds": round(time.process_time() - cpu_at_go, 1)})
    OUT.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
