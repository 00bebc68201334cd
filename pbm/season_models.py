"""Groups, seasons and the figures of their finished games (issue 34).

A Master's game belongs to a group (a club, a college) and a season within it
(``SeasonGame``); a player is their account across the group's games, substitutes
included. When a game ends, its figures are counted once (``GameRecord``, one
``SeatRecord`` per account that held a seat) and added to running totals
(``StatTotal``), so pages read sums already made instead of replaying games.
A game still running has no record at all: nothing of it can show."""
from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Boolean, ForeignKey, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from .models import Base, User, UTCDateTime


class GroupRow(Base):
    """A group that plays again and again; its owner and Masters run its seasons.
    ``points``: the standings' points per ruleset, {ruleset: {"win": n, "play": n}},
    over the defaults (``pbm.stats.standings.DEFAULT_POINTS``)."""

    __tablename__ = "play_groups"

    id: Mapped[int] = mapped_column(primary_key=True)
    slug: Mapped[str] = mapped_column(String(64), unique=True, index=True)
    name: Mapped[str] = mapped_column(String(120))
    owner_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    points: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())

    owner: Mapped[User] = relationship()
    seasons: Mapped[list["SeasonRow"]] = relationship(back_populates="group", order_by="SeasonRow.id")


class SeasonRow(Base):
    __tablename__ = "seasons"
    __table_args__ = (UniqueConstraint("group_id", "slug"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    group_id: Mapped[int] = mapped_column(ForeignKey("play_groups.id"), index=True)
    slug: Mapped[str] = mapped_column(String(64))
    name: Mapped[str] = mapped_column(String(120))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())

    group: Mapped[GroupRow] = relationship(back_populates="seasons")


class SeasonGame(Base):
    """The season a game belongs to (a game belongs to at most one)."""

    __tablename__ = "season_games"

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), primary_key=True)
    season_id: Mapped[int] = mapped_column(ForeignKey("seasons.id"), index=True)
    # The set-up asked the deal to remember the group's history (fair dealing).
    fair_deal: Mapped[bool] = mapped_column(Boolean, default=False)

    season: Mapped[SeasonRow] = relationship()


class StatsPrivacy(Base):
    """A player who keeps their page across games to themselves."""

    __tablename__ = "stats_privacy"

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), primary_key=True)
    private: Mapped[bool] = mapped_column(Boolean, default=False)


class GameRecord(Base):
    """A finished game as the statistics keep it: counted once, when it ended."""

    __tablename__ = "game_records"

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), primary_key=True)
    season_id: Mapped[int | None] = mapped_column(ForeignKey("seasons.id"), nullable=True, index=True)
    ruleset: Mapped[str] = mapped_column(String(40))
    winner: Mapped[str] = mapped_column(String(120), default="")
    moments: Mapped[int] = mapped_column(Integer, default=0)  # resolved moments: its length
    players: Mapped[int] = mapped_column(Integer, default=0)
    ended_at: Mapped[datetime] = mapped_column(UTCDateTime())


class SeatRecord(Base):
    """One account's figures in one finished game (a seat's substitutes each get one,
    for the moments they held it; the outcome is every holder's)."""

    __tablename__ = "seat_records"
    __table_args__ = (UniqueConstraint("game_id", "user_id", "seat_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), index=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    seat_id: Mapped[int] = mapped_column(ForeignKey("seats.id"))
    season_id: Mapped[int | None] = mapped_column(ForeignKey("seasons.id"), nullable=True, index=True)
    name: Mapped[str] = mapped_column(String(80))  # the seat's name in that game
    substitute: Mapped[bool] = mapped_column(Boolean, default=False)
    figures: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)


class StatTotal(Base):
    """Running sums, updated as each game ends (and taken back if a Master rolls an
    ended game back): ``scope`` is "season:<id>" or "all"; ``user_id`` 0 for the
    scope's own totals (factions, roles, games), else one account's."""

    __tablename__ = "stat_totals"

    scope: Mapped[str] = mapped_column(String(40), primary_key=True)
    user_id: Mapped[int] = mapped_column(Integer, primary_key=True)
    counts: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
