"""The people at a hot-seat table: a player's client each, and one spectator's for the public table."""

from __future__ import annotations

import asyncio
import contextlib

from net.client import TableClient


class HotSeat:
    """The clients of the people at this keyboard, seated at the table on ``host``:``port`` in ``seats``
    (seat → name), and a spectator's client, whose view is what everyone may see."""

    def __init__(self, host: str, port: int, seats: dict[int, str]) -> None:
        self.people = [TableClient(host, port, name=name, seat=seat) for seat, name in sorted(seats.items())]
        self.public = TableClient(host, port, role="spectator")

    @classmethod
    async def seated(cls, host: str, port: int, people: list[str], bots: dict[int, str]) -> HotSeat:
        """The people named, each at the next seat without a bot, their table joined."""
        seats = [seat for seat in range(len(people) + len(bots)) if seat not in bots]
        hot_seat = cls(host, port, dict(zip(seats, people)))
        await hot_seat.start()
        return hot_seat

    async def start(self) -> None:
        """Every person seated, then the public view (the game is dealt once all the people are in)."""
        await asyncio.gather(*(client.start() for client in self.people))
        await self.public.start()

    async def close(self) -> None:
        """The people's connections closed (the public one is the app's own client, closed with it)."""
        for client in self.people:
            with contextlib.suppress(Exception):
                await client.close()

    def client_at(self, seat: int) -> TableClient | None:
        """The person's client at ``seat`` now (a new game in new seats moves them)."""
        return next((client for client in self.people if client.snapshot.seat == seat), None)

    def seats(self) -> list[int]:
        """The people's seats now."""
        return [seat for client in self.people if (seat := client.snapshot.seat) is not None]

    def awaited(self) -> list[int]:
        """The people's seats whose move the game awaits now."""
        return [seat for client in self.people if (seat := client.snapshot.seat) is not None
                and client.snapshot.choices and client.snapshot.result is None]

    def asked_to_allow(self) -> list[int]:
        """The people's seats still to answer a take-back question."""
        return [seat for client in self.people if (seat := client.snapshot.seat) is not None
                and client.snapshot.take_back is not None and seat in client.snapshot.take_back["waiting"]]

    @property
    def over(self) -> bool:
        """The game is over (as the public view last heard): its results show, not anyone's hand."""
        return self.public.snapshot.result is not None

    def name(self, seat: int) -> str:
        """The name the table gave the person at ``seat``."""
        seats = self.public.snapshot.seats
        if 0 <= seat < len(seats) and seats[seat].get("name"):
            return str(seats[seat]["name"])
        client = self.client_at(seat)
        return (client.name if client is not None and client.name else None) or f"Seat {seat + 1}"
