"""The one engine contract every game implements, and the helpers they share.

A game is a folder in ``core/games/`` whose ``__init__.py`` builds ``GAME = Game(...)``. The registry finds it there;
the simulator, the host, the TUI and the generic tests only ever talk to a ``Game``.

The shape of the data, for every game:

* **State** is a plain dict: ``str`` keys, and values that are ints, strs, bools, None, lists or such
  dicts (never tuples or sets), so ``unpackb(packb(state)) == state`` exactly. It holds the seed and the
  position of the game's one random generator (``core.rng``), so seed + action log replays a game.
* **Actions** are small dicts such as ``{"do": "declare", "passengers": 3}``. ``legal_actions`` lists
  them; ``apply`` accepts only an action equal to one of them.
* ``advance`` is ``apply`` for whoever throws the events away (a search's playouts, the simulator, the
  benchmark): the same checks and the same change to the state, with no event built. A game module
  gives it by running the one code path of ``apply`` with no events list (``None``: nobody listens), so
  the narration's strings are never formatted; a game that does not gives the default, ``apply`` with
  its events dropped.
* **Events** are dicts with at least ``text`` and ``visible_to``: ``None`` for everyone (spectators
  included), otherwise the list of seats that may see it. ``visible_events`` is the one filter. Event
  text (and a result's ``summary``) names a seat only as ``seat_name(seat)``, "Seat N", and nothing else
  in it reads "Seat N": a table that knows who sits where swaps the names in with ``name_seats``.
* **Views** are built from an allow-list of what a seat (or the spectator, seat ``None``) may know.

Seats are numbered from 0; people see them numbered from 1.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

import msgpack

State = dict[str, Any]
Action = dict[str, Any]
Event = dict[str, Any]
View = dict[str, Any]
Seat = int | None

#: ``advance``: apply an action and build no events (see the module's docstring).
Advance = Callable[[State, int, Action], None]
#: Where a game's rule functions put the events of an action: a list, or None when nobody listens (then
#: each ``if events is not None`` skips building the line, and the state changes all the same).
Narration = list[Event] | None

#: A bot picks one of ``legal_actions(state, seat)``. It may read only ``view(state, seat)`` and states
#: drawn with ``resample_hidden(state, seat, rng)`` (ruling A3), and draws its own chance from ``rng``.
Bot = Callable[[State, int, random.Random], Action]


class IllegalAction(Exception):
    """An action the rules refuse. ``rule`` names the rule or ruling (e.g. ``"T6"``, ``"rule 9"``)."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"{message} ({rule})")
        self.rule = rule
        self.message = message


class OptionError(ValueError):
    """Table options the game cannot be played with."""


@dataclass(frozen=True)
class Option:
    """One table option: what the host may set before the game starts.

    ``kind`` is ``"int"``, ``"bool"`` or ``"choice"``. For ``"int"``, ``allowed`` is ``(low, high)``
    inclusive; for ``"choice"`` it lists the allowed strings; for ``"bool"`` it is ignored.
    """

    name: str
    kind: str
    default: Any
    help: str
    allowed: tuple[Any, ...] = ()

    def check(self, value: Any) -> Any:
        """Return ``value`` if this option allows it, else raise ``OptionError`` saying why."""
        if self.kind == "bool":
            if isinstance(value, bool):
                return value
            raise OptionError(f"option {self.name!r} must be true or false, not {value!r}")
        if self.kind == "int":
            low, high = self.allowed
            if isinstance(value, bool) or not isinstance(value, int):
                raise OptionError(f"option {self.name!r} must be a whole number, not {value!r}")
            if not low <= value <= high:
                raise OptionError(f"option {self.name!r} must be from {low} to {high}, not {value}")
            return value
        if self.kind == "choice":
            if value not in self.allowed:
                choices = ", ".join(map(str, self.allowed))
                raise OptionError(f"option {self.name!r} must be one of {choices}, not {value!r}")
            return value
        raise OptionError(f"option {self.name!r} has an unknown kind {self.kind!r}")

    def parse(self, text: str) -> Any:
        """Read the option from command-line text, then check it."""
        if self.kind == "bool":
            lowered = text.strip().lower()
            if lowered in ("1", "true", "yes", "on"):
                return True
            if lowered in ("0", "false", "no", "off"):
                return False
            raise OptionError(f"option {self.name!r} must be yes or no, not {text!r}")
        if self.kind == "int":
            try:
                number = int(text)
            except ValueError:
                raise OptionError(f"option {self.name!r} must be a whole number, not {text!r}") from None
            return self.check(number)  # out of range says so ("from 1 to 3"), not "not a whole number"
        return self.check(text)


@dataclass(frozen=True)
class Game:
    """A registered game: its facts, its option schema, the engine functions and its bots."""

    id: str
    title: str
    options: tuple[Option, ...]
    setup: Callable[[dict[str, Any], int], State]
    pending: Callable[[State], list[int]]
    legal_actions: Callable[[State, int], list[Action]]
    apply: Callable[[State, int, Action], list[Event]]
    view: Callable[[State, Seat], View]
    resample_hidden: Callable[[State, int, random.Random], State]
    result: Callable[[State], dict[str, Any] | None]
    describe_action: Callable[[State, int, Action], str]
    bots: Mapping[str, Bot]
    rules_text: str
    #: Figures for the simulator's summary, e.g. ``{"duels": 2}``; public facts of a finished game.
    stats: Callable[[State], dict[str, float]] = lambda state: {}
    #: Raises ``AssertionError`` if a state breaks the game's invariants (gold conserved, …).
    check_invariants: Callable[[State], None] = lambda state: None
    #: Cross-option checks beyond each option's own range (e.g. a booty deck with no gold).
    check_options: Callable[[dict[str, Any]], None] = lambda options: None
    #: Seats per option set; games read it from their ``players`` option.
    seats: Callable[[dict[str, Any]], int] = lambda options: int(options["players"])
    #: The public/private events of the deal that ``setup`` made, for the log: called on the state
    #: ``setup`` returned, before any action; filter them with ``visible_events`` like any others.
    opening_events: Callable[[State], list[Event]] = lambda state: []
    #: Whether ``seat``'s ``action``, which turned ``before`` into ``after``, may be taken back (undo
    #: with the others' consent): only where it revealed nothing hidden and drew no chance (no card turned or
    #: drawn, no die rolled, no secret pick revealed). A game opts in move by move; by default none may.
    can_take_back: Callable[[State, State, int, Action], bool] = lambda before, after, seat, action: False
    #: Where the game stands as ``seat`` decides, in a few public words ("round 1, journey 3 at
    #: Warwick"): the review names each decision by it. Empty where a game gives none.
    moment: Callable[[State, int], str] = lambda state, seat: ""
    extra: Mapping[str, Any] = field(default_factory=dict)
    #: ``apply`` without the events: the same legality check and state change, nothing narrated. None
    #: here means the game gives none, and ``__post_init__`` puts ``apply`` with the events dropped. Whoever
    #: wraps ``apply`` (a test, a benchmark's clock) wraps this too: playouts and simulations call it.
    advance: Advance = None  # type: ignore[assignment]

    def __post_init__(self) -> None:
        if self.advance is None:
            object.__setattr__(self, "advance", events_dropped(self.apply))

    def option(self, name: str) -> Option:
        for option in self.options:
            if option.name == name:
                return option
        raise OptionError(f"{self.title} has no option {name!r}")

    def resolve_options(self, given: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """Fill in defaults and check every option; refuse unknown names and bad values."""
        given = dict(given or {})
        known = {option.name for option in self.options}
        unknown = sorted(set(given) - known)
        if unknown:
            raise OptionError(f"{self.title} has no option {', '.join(map(repr, unknown))}; "
                              f"it has {', '.join(sorted(known))}")
        resolved = {option.name: option.check(given.get(option.name, option.default))
                    for option in self.options}
        self.check_options(resolved)
        return resolved

    def options_from_text(self, pairs: Sequence[str] = (), players: int | None = None) -> dict[str, Any]:
        """Options as a person types them (``name=value``, e.g. from ``--option``), checked and filled in."""
        options: dict[str, Any] = {}
        for text in pairs:
            name, sep, value = text.partition("=")
            if not sep:
                raise OptionError(f"an option is given as name=value, not {text!r}")
            options[name.strip()] = self.option(name.strip()).parse(value)
        if players is not None:
            options["players"] = players
        return self.resolve_options(options)

    def new_game(self, options: Mapping[str, Any] | None, seed: int) -> State:
        """Check the options, then set up a game from them and the seed."""
        return self.setup(self.resolve_options(options), seed)


def events_dropped(apply: Callable[[State, int, Action], list[Event]]) -> Advance:
    """The default ``advance``: ``apply``, its events built and thrown away."""
    def advance(state: State, seat: int, action: Action) -> None:
        apply(state, seat, action)
    return advance


def no_chance_drawn(before: State, after: State, decks: Sequence[str] = ()) -> bool:
    """Nothing left to chance happened between two states: the seeded generator has not moved (no die
    rolled, nothing shuffled) and each of ``decks`` is as it was (no card drawn or turned)."""
    return before.get("rng") == after.get("rng") and all(before.get(deck) == after.get(deck) for deck in decks)


def visible_events(events: Sequence[Event], seat: Seat) -> list[Event]:
    """The events ``seat`` may see; the spectator (``None``) sees only public ones."""
    return [event for event in events
            if event["visible_to"] is None or (seat is not None and seat in event["visible_to"])]


def event(text: str, visible_to: list[int] | None = None, **data: Any) -> Event:
    """An event for the log: public unless ``visible_to`` lists the seats that may see it.

    ``told_privately=seat`` marks a public line whose news that seat was just told in a line of its own
    ("You will lie in wait at Bath." then "Seat 1 has chosen a town."): its log may leave this one out."""
    return {"text": text, "visible_to": visible_to, **data}


def pack(data: Any) -> bytes:
    """The project's one serialisation: msgpack, strings as str, no extension types."""
    return msgpack.packb(data, use_bin_type=True)


def unpack(data: bytes) -> Any:
    return msgpack.unpackb(data, raw=False, strict_map_key=True)


def clone(state: State) -> State:
    """A deep copy through msgpack: also proves the state is plain data."""
    return unpack(pack(state))


def seat_name(seat: Seat) -> str:
    """How rules text and events name a seat: "Seat 1" for seat 0 (``name_seats`` reads it back)."""
    return "spectator" if seat is None else f"Seat {seat + 1}"


#: A seat as ``seat_name`` writes it into event text.
SEAT_IN_TEXT = re.compile(r"\bSeat ([1-9][0-9]?)\b")


def name_seats(text: str, names: Sequence[str]) -> str:
    """``text`` with each "Seat N" that ``seat_name`` wrote replaced by ``names[N - 1]``, in one pass (a
    name that itself reads "Seat 2" is not replaced again); a seat past the end of ``names`` stays."""
    def name(match: re.Match[str]) -> str:
        number = int(match.group(1))
        return names[number - 1] if number <= len(names) else match.group(0)
    return SEAT_IN_TEXT.sub(name, text)


def quantity(count: int, noun: str, plural: str | None = None) -> str:
    """A number with its noun agreed, for the log: ``1 passenger``, ``2 passengers``, ``1 guard``."""
    return f"{count} {noun if count == 1 else plural or noun + 's'}"
