"""A match: the games played at one table, one after another, and the running score over them.

"Play again" deals a new game at the same table, with the seats kept or shuffled. The people stay the same
people through a shuffle, so the score is kept per person: person ``p`` is whoever sat in seat ``p`` in the
table's first game, and ``people[seat]`` says who sits in each seat now. A game's result is counted once,
when the next game is dealt (``finish``); ``standing`` adds a finished game still on the table.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, TypeGuard

#: The most games a record carries (a table that plays all day still loads at once).
MATCH_GAMES_KEPT = 500


class MatchError(ValueError):
    """A record's match that cannot be read (the record check words it)."""


@dataclass
class PlayedGame:
    """One finished game: who sat in each seat, who won, and each seat's score."""

    people: list[int]
    winners: list[int]
    scores: list[float]

    def to_record(self) -> dict[str, Any]:
        return {"people": list(self.people), "winners": list(self.winners), "scores": list(self.scores)}


@dataclass
class Match:
    """The people at a table's seats, and the games they have finished there."""

    people: list[int]
    games: list[PlayedGame] = field(default_factory=list)

    @classmethod
    def new(cls, seats: int) -> "Match":
        return cls(list(range(seats)))

    def finish(self, result: dict[str, Any]) -> None:
        """Count a finished game's result (its winners and scores by seat)."""
        seats = len(self.people)
        winners = [seat for seat in result.get("winners", []) if isinstance(seat, int) and 0 <= seat < seats]
        scores = [float(score) for score in list(result.get("scores", []))[:seats]]
        self.games.append(PlayedGame(list(self.people), winners, scores))
        del self.games[:-MATCH_GAMES_KEPT]

    def shuffle(self, rng: random.Random) -> list[int]:
        """New seats for everyone: ``order[new_seat]`` is the seat he sat in. Never the same order when
        another exists, since a player who asks for new seats expects to move."""
        order = list(range(len(self.people)))
        if len(order) > 1:
            while order == sorted(order):
                rng.shuffle(order)
        self.reorder(order)
        return order

    def reorder(self, order: list[int]) -> None:
        """Everyone to new seats: ``order[new_seat]`` is the seat he sat in."""
        self.people = [self.people[old] for old in order]

    def standing(self, result_now: dict[str, Any] | None = None) -> list[dict[str, Any]]:
        """Per seat now: games played, games won and score in all, over the finished games (and
        ``result_now``, a game over but not yet counted)."""
        games = list(self.games)
        if result_now is not None:
            now = Match(list(self.people))
            now.finish(result_now)
            games += now.games
        rows = []
        for seat, person in enumerate(self.people):
            seats_then = [(game, game.people.index(person)) for game in games]
            wins = sum(seat_then in game.winners for game, seat_then in seats_then)
            points = sum(game.scores[seat_then] for game, seat_then in seats_then if seat_then < len(game.scores))
            rows.append({"seat": seat, "games": len(games), "wins": wins, "points": points})
        return rows

    def to_record(self) -> dict[str, Any]:
        return {"people": list(self.people), "games": [game.to_record() for game in self.games]}

    @classmethod
    def from_record(cls, saved: Any, seats: int) -> "Match":
        """A match as a record keeps it, checked whole (``MatchError`` names what is wrong)."""
        if saved is None:
            return cls.new(seats)
        if not isinstance(saved, dict):
            raise MatchError("is not a map")
        people = saved.get("people")
        if not _is_order(people, seats):
            raise MatchError(f"'people' is not an order of the {seats} seats")
        games = saved.get("games")
        if not isinstance(games, list) or len(games) > MATCH_GAMES_KEPT:
            raise MatchError(f"'games' is not a list of at most {MATCH_GAMES_KEPT}")
        played = []
        for number, game in enumerate(games, start=1):
            if not (isinstance(game, dict) and _is_order(game.get("people"), seats)
                    and isinstance(game.get("winners"), list) and isinstance(game.get("scores"), list)
                    and all(_is_seat(seat, seats) for seat in game["winners"])
                    and len(game["scores"]) <= seats
                    and all(isinstance(score, (int, float)) and not isinstance(score, bool)
                            and abs(score) < 1e12 for score in game["scores"])):
                raise MatchError(f"game {number} is damaged")
            played.append(PlayedGame(list(game["people"]), list(game["winners"]),
                                     [float(score) for score in game["scores"]]))
        return cls(list(people), played)


def _is_seat(value: Any, seats: int) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < seats


def _is_order(value: Any, seats: int) -> TypeGuard[list[int]]:
    return isinstance(value, list) and all(_is_seat(v, seats) for v in value) and sorted(value) == list(range(seats))


def standing_sent(value: Any, seats: int) -> list[dict[str, Any]] | None:
    """A host's running score as a client takes it: one row per seat of whole counts and a finite score,
    or None (a host's bytes are untrusted: a malformed standing is not shown)."""
    if not isinstance(value, list) or len(value) != seats:
        return None
    rows = []
    for seat, row in enumerate(value):
        if not (isinstance(row, dict) and row.get("seat") == seat
                and all(_count(row.get(key)) for key in ("games", "wins"))
                and isinstance(row.get("points"), (int, float)) and not isinstance(row.get("points"), bool)
                and abs(row["points"]) < 1e12 and row["wins"] <= row["games"]):
            return None
        rows.append({"seat": seat, "games": row["games"], "wins": row["wins"], "points": row["points"]})
    return rows


def _count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 10**6
