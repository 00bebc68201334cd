"""Helpers for the action-form tests: read the reserved area as a browser without
JavaScript would (the forms, their hidden fields and the choices offered), fill a
form in and post it, then read what the engine received (the ActionRows)."""
from __future__ import annotations

from html.parser import HTMLParser
from typing import Any

from pbm.db import transaction
from pbm.models import ActionRow, PhaseRow

from tests.conftest import csrf_from


class Form:
    def __init__(self, attrs: dict[str, str]) -> None:
        self.id = attrs.get("id", "")
        self.action = attrs.get("action", "")
        self.hidden: dict[str, str] = {}
        self.selects: dict[str, list[tuple[str, str]]] = {}
        self.select_attrs: dict[str, dict[str, str]] = {}
        self.checkboxes: dict[str, list[str]] = {}
        self.checkbox_labels: dict[str, str] = {}  # input id -> label text
        self.checkbox_ids: dict[str, tuple[str, str]] = {}  # input id -> (name, value)
        self.inputs: dict[str, dict[str, str]] = {}
        self.textareas: list[str] = []
        self.selected: dict[str, list[str]] = {}  # select or checkbox name -> values chosen
        self.text = ""

    def names(self) -> set[str]:
        return set(self.selects) | set(self.checkboxes) | set(self.inputs) | set(self.textareas)

    def options(self, name: str) -> list[str]:
        return [v for v, _ in self.selects[name] if v]

    def labels(self, name: str) -> dict[str, str]:
        return dict(self.selects[name])

    def boxes(self, name: str) -> dict[str, str]:
        """checkbox value -> its label."""
        return {value: self.checkbox_labels.get(i, "") for i, (n, value) in self.checkbox_ids.items()
                if n == name}


class _Parser(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.forms: dict[str, Form] = {}
        self.form: Form | None = None
        self.select: str | None = None
        self.option: tuple[str, list[str]] | None = None
        self.label_for: str | None = None
        self.label_text: list[str] = []

    def handle_starttag(self, tag: str, attrs_list: list[tuple[str, str | None]]) -> None:
        attrs = {k: v or "" for k, v in attrs_list}
        if tag == "form":
            self.form = Form(attrs)
            self.forms[self.form.id] = self.form
        if self.form is None:
            return
        if tag == "input":
            kind = attrs.get("type", "text")
            if kind == "hidden":
                self.form.hidden[attrs["name"]] = attrs.get("value", "")
            elif kind == "checkbox":
                self.form.checkboxes.setdefault(attrs["name"], []).append(attrs["value"])
                self.form.checkbox_ids[attrs.get("id", "")] = (attrs["name"], attrs["value"])
                if "checked" in attrs:
                    self.form.selected.setdefault(attrs["name"], []).append(attrs["value"])
            else:
                self.form.inputs[attrs["name"]] = attrs
        elif tag == "select":
            self.select = attrs["name"]
            self.form.selects[self.select] = []
            self.form.select_attrs[self.select] = attrs
        elif tag == "option" and self.select:
            self.option = (attrs.get("value", ""), [])
            if "selected" in attrs:
                self.form.selected.setdefault(self.select, []).append(attrs.get("value", ""))
        elif tag == "textarea":
            self.form.textareas.append(attrs["name"])
        elif tag == "label" and attrs.get("for"):
            self.label_for, self.label_text = attrs["for"], []

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.form = None
        elif tag == "select":
            self.select = None
        elif tag == "option" and self.option and self.form and self.select:
            value, text = self.option
            self.form.selects[self.select].append((value, "".join(text).strip()))
            self.option = None
        elif tag == "label" and self.label_for and self.form:
            self.form.checkbox_labels[self.label_for] = "".join(self.label_text).strip()
            self.label_for = None

    def handle_data(self, data: str) -> None:
        if self.option is not None:
            self.option[1].append(data)
        if self.label_for is not None:
            self.label_text.append(data)
        if self.form is not None:
            self.form.text += data


def forms_of(html: str) -> dict[str, Form]:
    parser = _Parser()
    parser.feed(html)
    return {k: v for k, v in parser.forms.items() if k.startswith("form-")}


def logged_in(app, name: str):
    client = app.test_client()
    page = client.get("/login").get_data(as_text=True)
    r = client.post("/login", data={"csrf_token": csrf_from(page), "email": f"{name.lower()}@players.test",
                                    "password": f"pw-{name.lower()}"})
    assert r.status_code == 302, "login failed"
    return client


def area(client, slug: str = "test-game") -> str:
    r = client.get(f"/g/{slug}/me")
    assert r.status_code == 200
    return r.get_data(as_text=True)


def post_form(client, form_id: str, values: dict[str, Any], slug: str = "test-game") -> str:
    """Fill the page's form as a browser without JS would and send it; the page shown after."""
    form = forms_of(area(client, slug))[form_id]
    prefix = form_id.removeprefix("form-")
    data: dict[str, Any] = dict(form.hidden)
    for key, value in values.items():
        data[f"{prefix}-{key}"] = value
    r = client.post(form.action, data=data, follow_redirects=True)
    assert r.status_code == 200
    return r.get_data(as_text=True)


def flash_of(html: str) -> str:
    start = html.find('class="flash')
    assert start != -1, "no receipt or error shown"
    end = html.find("</p>", start)
    return html[html.find(">", start) + 1:end]


def recorded(factory, name: str | None = None) -> list[tuple[str, str, dict[str, Any]]]:
    """(player, kind, args) of every ActionRow, in order: what the engine will receive."""
    with factory() as s:
        rows = s.query(ActionRow).order_by(ActionRow.id).all()
        return [(r.seat.name, r.kind, dict(r.args)) for r in rows if name in (None, r.seat.name)]


def edit_open_state(factory, game_id: int, change) -> None:
    """Reach a state without playing the phases before it: change the open phase's state."""
    with transaction(factory) as s:
        phase = s.query(PhaseRow).filter_by(game_id=game_id, status="open").one()
        state = {**phase.state_before, "players": [dict(p, data=dict(p["data"]))
                                                   for p in phase.state_before["players"]],
                 "data": dict(phase.state_before.get("data") or {})}
        change(state)
        phase.state_before = state
        phase.game.state = state  # the page's role section reads the published state


def kill(names: list[str]):
    def change(state):
        for p in state["players"]:
            if p["name"] in names:
                p["alive"] = False
    return change
