"""What the table screen says in words about the table itself (not a game's moves): seats filling,
people sitting down or coming back, who said a chat line, and why the table is gone for this window.
Pure functions of what the host sent, so that each can be read and tested apart from the screen."""

from __future__ import annotations

from typing import Any, Callable

from rich.text import Text

from tui.frame import TableFrame


def table_status(frame: TableFrame, game_status: Callable[[TableFrame], str]) -> Text:
    """The table screen's top line: where the game stands (the game's own words once it has started), the
    table's name and who you are ("you: Ann (seat 2)", or "spectating")."""
    status = Text(f" {game_status(frame) if frame.started else seats_filling(frame)}", style="bold")
    if frame.seat is None:
        who = "spectating"
    else:  # plain_name is "Ann (seat 2)" already where two are called Ann
        who = f"you: {frame.plain_name(frame.seat)}"
        if not who.endswith(f"(seat {frame.seat + 1})"):
            who += f" (seat {frame.seat + 1})"
    status.append(f"   {frame.table} · {who}", style="dim")
    return status


def seats_filling(frame: TableFrame) -> str:
    """Before the game starts: how many seats are taken (not whose move it is in a game not begun)."""
    taken = sum(seat["kind"] != "open" for seat in frame.seats)
    deal = frame.deal
    if taken == len(frame.seats) and deal is not None:
        # The fair deal's pledges and reveals: a round trip, or a wait for a silent seat
        seconds = deal.get("seconds")
        wait = f" (at most {seconds:.0f} s more)" if isinstance(seconds, (int, float)) and seconds >= 1 else ""
        return f"Dealing: every player's share of the deal is coming in{wait}"
    return f"Waiting for players: {taken} of {len(frame.seats)} seats taken"


def seat_news(before: list[dict[str, Any]], now: list[dict[str, Any]]) -> list[str]:
    """A player newly seated or back, one line each. A player lost and a seat handed to a bot are the
    host's notices, which say why, so they are not news here."""
    if not before or len(before) != len(now):
        return []
    news = []
    for old, new in zip(before, now):
        name = str(new.get("name") or f"Seat {new['seat'] + 1}")
        if old["kind"] != "bot" and new["kind"] == "bot":
            continue  # the host's notice says it, and why ("Seat 3 is taken by a bot")
        if old["kind"] == "open" and new["kind"] == "player":
            news.append(f"{name} sits down in seat {new['seat'] + 1}")
        elif old["kind"] == "bot" and new["kind"] == "player":
            news.append(f"{name} is back in seat {new['seat'] + 1}; the bot steps aside")
        elif new["kind"] == "player" and not old["connected"] and new["connected"]:
            news.append(f"{name} is back")
    return news


def chat_sender(message: dict[str, Any], frame: TableFrame) -> str:
    """Who said a chat line, as the log names them: "Sam (spectator)", or "Ann (seat 3)" where two are
    called Ann."""
    sender = str(message.get("from") or message.get("name") or "someone")
    seat = message.get("seat")
    if seat is None:
        return sender + " (spectator)"
    if isinstance(seat, int) and 0 <= seat < len(frame.seats):
        labelled = frame.plain_name(seat)
        if labelled == f"{sender} (seat {seat + 1})":
            return labelled
    return sender


def stop_in_words(reason: str, seat_lost: bool, game_over: bool = False) -> str:
    """Why this window can play no more: out of a game that plays on (it may still watch), the table gone,
    or closed once its game was over."""
    if game_over:
        return f"{reason[:1].upper()}{reason[1:]}. Esc goes back to the menu."
    if seat_lost:
        return (f"You are out of this game: {reason}. The table plays on without you: s watches it, "
                "Esc goes back to the menu.")
    return f"The table is gone: {reason}. Esc goes back to the menu."


def take_back_refused(frame: TableFrame) -> str:
    """Why ``U`` takes nothing back now, in the player's words (the host decides; this only explains)."""
    if frame.spectating:
        return "Spectators watch: there is no move of yours to take back."
    if frame.result is not None:
        return "The game is over: its moves stay as they are."
    if frame.take_back is not None:
        return "A take-back is being asked already: play waits for the answers."
    if frame.turn == 0:
        return "You have made no move yet."
    return ("Only your own last move can be taken back, before anyone moves after it, and only one that "
            "showed nothing hidden (the rules, ?, say which); a move asked about once stays.")


def clock_in_words(seconds: float) -> str:
    """The table's turn clock for the lobby and the host's banner: "Turn clock: 90 s a move, then the
    normal bot moves", or "No turn clock"."""
    if seconds <= 0:
        return "No turn clock: the table waits for everyone."
    return f"Turn clock: {seconds:g} s a move, then the normal bot moves for whoever runs out."


def leaving_costs(frame: TableFrame, *, hosted_here: bool, on_lan: bool, against_bots: bool, moved: bool,
                  resumable: bool, stopped: bool, host_away: bool) -> str | None:
    """What leaving the table costs, for the question asked first; None when it costs nothing (a spectator,
    a game over, a table that is gone). ``hosted_here``: this app serves the table (``on_lan`` for others
    too, else a private game, ``against_bots`` or solo); ``moved``: this seat has made a move, and
    ``resumable``: its record is kept, so the menu can go on with it."""
    if frame.spectating or frame.result is not None or stopped:
        return None
    if hosted_here and on_lan:
        return "You host this table: leaving closes it, and the game ends for everyone at it."
    if hosted_here:
        game = "The game against the bots" if against_bots else "The game"  # (solo: the sheet's rival)
        if resumable and moved:  # only a game you have made a move in is offered again
            return f"{game} stops here: c on the menu goes on with it, as it was."
        return f"{game} ends here."
    if not frame.started:
        return ("The game has not begun: your seat waits for you, and joining again from this terminal "
                "takes it back (the host may give it to a bot meanwhile).")
    if host_away:  # the host is gone for now (stopped, or lost)
        return ("The host is away, and this window is waiting for it to come back. Leaving stops the "
                "waiting; join the table again from this terminal to take your seat back.")
    return ("The table plays on without you: it waits for your moves, or the host lets a bot play them. "
            "Join it again from this terminal to take your seat back.")


def seats_away(frame: TableFrame) -> list[int]:
    """The seats of people away from the game: gone, or still connected but keeping the table waiting
    (idle, as the host says), and not played by a bot already. The host can have a bot play them until
    they are back (a table otherwise waits for them for good)."""
    if frame.result is not None:
        return []
    return [seat["seat"] for seat in frame.seats
            if seat["kind"] == "player" and seat["seat"] != frame.seat and seat["seat"] not in frame.away
            and (not seat["connected"] or seat["seat"] in frame.idle)]


def bot_for_the_away_words(names: str) -> tuple[str, str]:
    """The host's question before a bot plays for the away: its title and what it does."""
    return (f"Let a bot play for {names}?",
            f"A bot plays for {names} until they are back: a key pressed at the table, or joining again from "
            "the same terminal, gives the seat back, and the bot steps aside.")


def take_back_question(who: str) -> tuple[str, str]:
    """The question to a seat whose consent a take-back needs: its title and what answering does."""
    return (f"{who} asks to take back their last move. Allow it?",
            "If you allow it, the game goes back to just before that move (a card drawn by itself since goes "
            "back on the pack). One \"no\" keeps the move, and so does no answer within half a minute. "
            "Play waits meanwhile: no clock runs.")
