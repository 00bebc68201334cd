"""SQL on the JSON columns, for the engines the service runs on (SQLite, PostgreSQL).

``list_contains(column, value)``: whether a JSON list column holds ``value`` (an
event's recipients naming a player), so a query can leave out what a reader may not
see instead of loading it to drop it in Python.
"""
from __future__ import annotations

from typing import Any

from sqlalchemy import Boolean, bindparam
from sqlalchemy.ext.compiler import compiles
from sqlalchemy.orm import QueryableAttribute
from sqlalchemy.sql.elements import ColumnElement
from sqlalchemy.sql.functions import FunctionElement


class list_contains(FunctionElement[bool]):  # reads as a function, like func.*
    """``value`` is an element of the JSON list in ``column``."""

    type = Boolean()
    name = "json_list_contains"
    inherit_cache = True

    def __init__(self, column: ColumnElement[Any] | QueryableAttribute[Any], value: str) -> None:
        super().__init__(column, bindparam(None, value, unique=True))


@compiles(list_contains, "sqlite")
def _sqlite(element: list_contains, compiler: Any, **kw: Any) -> str:
    column, value = element.clauses
    return (f"EXISTS (SELECT 1 FROM json_each({compiler.process(column, **kw)}) "
            f"WHERE json_each.value = {compiler.process(value, **kw)})")


@compiles(list_contains, "postgresql")
def _postgresql(element: list_contains, compiler: Any, **kw: Any) -> str:
    column, value = element.clauses
    return (f"EXISTS (SELECT 1 FROM json_array_elements_text({compiler.process(column, **kw)}) "
            f"AS item(value) WHERE item.value = {compiler.process(value, **kw)})")
