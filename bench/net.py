"""Network benchmark: action → every view updated, against a raw msgpack echo on the same loopback.

    /work/venv/bin/python bench/net.py [--game turpin] [--actions 300] [--fanout 200]

1. Raw baseline: a msgpack frame echoed by a bare asyncio server (same framing, same loopback), p50/p99.
   The floor for a broadcast: a bare server (no game, no record) relaying the same table frames (made
   beforehand by the same ``Table`` in memory) to the same 25 connections, read by the same client.
2. Table latency: 5 seated players and 20 spectators; one player's action until all 25 connections have
   the new table (views decoded), p50/p99, and the ratio to the raw round trip. The host appends to its
   record log (one fdatasync) after every action, as in real play; a second run without the record shows
   that cost. Goal: p50 with the record at most 2x the relay floor measured in the same run.
   The three are measured in turns, 50 actions at a time, so that the machine's load falls on each alike.
3. Fan-out: 5 players and 200 spectators on one host: p99 until all 205 are updated, and the host
   process's memory (RSS) before and after the spectators joined.
5. Joining: the last player's connect until every player has the dealt table, with the fair
   deal's pledge and reveal, as a ratio to a table whose seed is given (nothing to wait for).
4. A flood: one seat of two sends moves the rules refuse as fast as the host reads them, coming
   back with its token each time it is closed; the other seat's ping round trips, p50/p99, as a ratio to
   the same pings with no flood, and again on a host with no refusal limit.
5. A flood of cheap messages: one seat sends ``here``, a spectator and a connection that never
   joined send pings, as fast as the host reads them, coming back each time they are closed; the other
   seat's ping round trips as in 4, and again on a host with no message budget. Goal: p50 under 5 ms.
   ``--floods-only`` measures 4 and 5 alone.

Each server (echo, host) runs in its own process; the bench process plays every client. Prints figures,
asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import pathlib
import random
import statistics
import sys
import tempfile
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

from core.registry import all_games  # noqa: E402
from net import protocol  # noqa: E402

#: Seconds between the timed pings of a player (within the host's message budget of 50 a second).
PING_GAP = 0.025
#: Actions measured at a time in each of the interleaved runs (relay floor, record on, record off).
SLICE = 50


def _percentile(samples: list[float], p: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def _rss_kib(pid: int) -> int:
    for line in pathlib.Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


# --------------------------------------------------------------------------------------------- servers


def _echo_server(port_queue: multiprocessing.Queue) -> None:
    async def echo(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while True:
                message = await protocol.read_frame(reader, protocol.MAX_CLIENT_FRAME)
                writer.write(protocol.encode(message))
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError):
            writer.close()

    async def main() -> None:
        server = await asyncio.start_server(echo, "127.0.0.1", 0)
        port_queue.put(server.sockets[0].getsockname()[1])
        await asyncio.Event().wait()

    asyncio.run(main())


def recorded_frames(game_id: str, players: int, spectators: int, count: int, seed: int) -> list[list[bytes]]:
    """The table frames a host sends for ``count`` random actions, each action's in watcher order: the
    seats, then the spectators (built in memory by the same ``Table``, no sockets, no record)."""
    from net.table.table import Table

    game, rng = all_games()[game_id], random.Random(seed)
    frames: list[list[bytes]] = []
    while len(frames) < count:
        table = Table(game, {"players": players}, seed=rng.getrandbits(63))
        outboxes: list[list[bytes]] = []
        watchers = []
        for role in ["player"] * players + ["spectator"] * spectators:
            outboxes.append([])
            watchers.append(table.join(outboxes[-1].append, {"type": "hello", "role": role,
                                                             "protocol": protocol.PROTOCOL_VERSION}))
        while not table.over and len(frames) < count:
            seat = rng.choice(game.pending(table.state))
            prompt = protocol.decode_body(outboxes[seat][-1][4:])["prompt"]  # the seat's latest frame
            for outbox in outboxes:
                outbox.clear()
            table.request(watchers[seat], {"type": "act", "action": rng.choice(prompt["choices"])["action"],
                                           "prompt": prompt["id"]})
            frames.append([outbox[-1] for outbox in outboxes])
    return frames


def _relay_server(frames: list[list[bytes]], port_queue: multiprocessing.Queue) -> None:
    """The floor for a broadcast: no game, no record; each time the first connection sends a frame, the
    next action's table frames (made beforehand) are written to every connection."""
    connections: list[asyncio.StreamWriter] = []
    sent = 0

    async def relay(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        nonlocal sent
        connections.append(writer)
        try:
            while True:
                await protocol.read_frame(reader, protocol.MAX_CLIENT_FRAME)
                for connection, frame in zip(connections, frames[sent % len(frames)]):
                    connection.write(frame)
                sent += 1
        except (asyncio.IncompleteReadError, ConnectionError):
            connections.remove(writer)

    async def main() -> None:
        server = await asyncio.start_server(relay, "127.0.0.1", 0)
        port_queue.put(server.sockets[0].getsockname()[1])
        await asyncio.Event().wait()

    asyncio.run(main())


async def relay_floor(frames: list[list[bytes]]) -> list[float]:
    """Each action's frames relayed to their connections, until every receiver has decoded its frame."""
    process, port = _spawn(_relay_server, frames)
    try:
        streams = []
        for _ in frames[0]:  # one at a time, so that the relay's order of connections is ours
            streams.append(await asyncio.open_connection("127.0.0.1", port))
            await asyncio.sleep(0.01)
        trigger = protocol.encode({"type": "ping", "t": 0})
        samples = []
        for _ in frames:
            start = time.perf_counter()
            streams[0][1].write(trigger)
            for reader, _ in streams:
                await protocol.read_frame(reader, protocol.MAX_HOST_FRAME)
            samples.append(time.perf_counter() - start)
        for _, writer in streams:
            writer.close()
        return samples
    finally:
        process.terminate()


def _table_server(game_id: str, players: int, seed: int, record: bool, port_queue: multiprocessing.Queue,
                  refusal_burst: int | None = None, message_burst: int | None = None) -> None:
    from net.host import HostSettings, TableHost, record_saver
    from net.table.table import Table

    async def main() -> None:
        game = all_games()[game_id]
        save = None
        if record:
            save = record_saver(os.path.join(tempfile.mkdtemp(prefix="turpin-bench-"), "bench.record"))
        table = Table(game, {"players": players}, code=None, seed=seed, save=save)
        settings = HostSettings(send_queue=1024, max_connections=4096, max_spectators=4096)
        if refusal_burst is not None:
            settings.refusal_burst = refusal_burst
        if message_burst is not None:
            settings.message_burst = message_burst
        host = TableHost(table, settings)
        _, port = await host.start("127.0.0.1", 0)
        port_queue.put(port)
        await asyncio.Event().wait()

    asyncio.run(main())


def _spawn(target, *args, **kwargs) -> tuple[multiprocessing.Process, int]:
    ports: multiprocessing.Queue = multiprocessing.Queue()
    process = multiprocessing.Process(target=target, args=(*args, ports), kwargs=kwargs, daemon=True)
    process.start()
    return process, ports.get(timeout=30)


# --------------------------------------------------------------------------------------------- clients


class Watcher:
    """A lean client: joins, answers pings, keeps the latest table frame.

    Read in turn by one coroutine, as the relay floor's receivers are: both sides of the ratio pay the
    same client costs, so the ratio is the host's.
    """

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer
        self.table: dict | None = None
        self.turn = -1

    @classmethod
    async def join(cls, port: int, role: str) -> "Watcher":
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(protocol.encode({"type": "hello", "protocol": protocol.PROTOCOL_VERSION, "role": role}))
        watcher = cls(reader, writer)
        await watcher.read_until(0)
        return watcher

    async def read_until(self, turn: int) -> None:
        """Read frames until this watcher holds the table of ``turn`` or later."""
        while self.turn < turn:
            await self._read_one()

    async def catch_up(self) -> None:
        """Read everything the host has sent so far: ping it and read up to its pong (frames keep order)."""
        self.writer.write(protocol.encode({"type": "ping", "t": -1}))
        while (await self._read_one()) != {"type": "pong", "t": -1}:
            pass

    async def _read_one(self) -> dict:
        message = await protocol.read_frame(self.reader, protocol.MAX_HOST_FRAME)
        if message["type"] == "ping":
            self.writer.write(protocol.encode({"type": "pong", "t": message["t"]}))
        elif message["type"] == "table":
            self.table, self.turn = message, message["turn"]
        elif message["type"] == "error":
            print("error:", message["message"], file=sys.stderr)
        return message

    def close(self) -> None:
        self.writer.close()


async def raw_round_trips(count: int) -> list[float]:
    process, port = _spawn(_echo_server)
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        frame = protocol.encode({"type": "act", "action": {"do": "declare", "passengers": 3}, "prompt": 12})
        samples = []
        for _ in range(count):
            start = time.perf_counter()
            writer.write(frame)
            await protocol.read_frame(reader, protocol.MAX_HOST_FRAME)
            samples.append(time.perf_counter() - start)
        writer.close()
        return samples
    finally:
        process.terminate()


async def table_latencies(game_id: str, players: int, spectators: int, actions: int, record: bool,
                          rng: random.Random) -> tuple[list[float], list[int]]:
    """Play seeded games with every seat a lean client; time each action until all are updated."""
    samples: list[float] = []
    memory: list[int] = []
    while len(samples) < actions:
        process, port = _spawn(_table_server, game_id, players, rng.getrandbits(63), record)
        watchers: list[Watcher] = []
        try:
            baseline = _rss_kib(process.pid)
            seats = [await Watcher.join(port, "player") for _ in range(players)]
            crowd = [await Watcher.join(port, "spectator") for _ in range(spectators)]
            watchers = seats + crowd
            memory = [baseline, _rss_kib(process.pid)]
            for watcher in watchers:
                await watcher.catch_up()  # the frames sent as the others joined
            while len(samples) < actions:
                turn = max(w.turn for w in watchers)
                if seats[0].table["result"] is not None:
                    break
                acting = [s for s in seats if s.table["prompt"] is not None]
                if not acting:
                    break
                player = rng.choice(acting)
                prompt = player.table["prompt"]
                action = rng.choice(prompt["choices"])["action"]
                start = time.perf_counter()
                player.writer.write(protocol.encode({"type": "act", "action": action, "prompt": prompt["id"]}))
                for watcher in watchers:
                    await watcher.read_until(turn + 1)
                samples.append(time.perf_counter() - start)
        finally:
            for watcher in watchers:
                watcher.close()
            process.terminate()
    return samples, memory


async def _ping_round_trips(watcher: Watcher, count: int) -> list[float]:
    """One seated player's pings, one at a time: each until its pong (the table frames between are read),
    40 a second, within the host's message budget (50 a second) as a person's program is."""
    samples = []
    for number in range(count):
        await asyncio.sleep(PING_GAP)
        start = time.perf_counter()
        watcher.writer.write(protocol.encode({"type": "ping", "t": number}))
        while (await watcher._read_one()) != {"type": "pong", "t": number}:
            pass
        samples.append(time.perf_counter() - start)
    return samples


ILLEGAL = {"type": "act", "action": {"do": "nothing of the kind"}, "prompt": 0}


async def _flood(port: int, hello: dict | None, stop: asyncio.Event, message: dict = ILLEGAL) -> int:
    """``message`` (by default a move the rules refuse), as fast as the host reads it, after ``hello`` (or
    none); when the host closes the connection the flooder comes back (with its seat token, if it got one)
    and goes on. Returns the connections it used."""
    illegal = protocol.encode(message)
    connections = 0
    while not stop.is_set():
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        connections += 1
        if hello is not None:
            writer.write(protocol.encode(hello))

        async def drain_replies() -> None:
            while True:
                message = await protocol.read_frame(reader, protocol.MAX_HOST_FRAME)
                if message["type"] == "welcome" and message.get("token") and hello is not None:
                    hello["token"] = message["token"]
        replies = asyncio.ensure_future(drain_replies())
        try:
            while not stop.is_set() and not replies.done():
                writer.write(illegal * 64)
                await writer.drain()
        except (ConnectionError, OSError):
            pass
        finally:
            replies.cancel()
            writer.close()
    return connections


SEAT_TWO = {"type": "hello", "protocol": protocol.PROTOCOL_VERSION, "role": "player", "seat": 1}
SPECTATOR = {"type": "hello", "protocol": protocol.PROTOCOL_VERSION, "role": "spectator"}


async def flood_round_trips(game_id: str, count: int, refusal_burst: int | None, flooding: bool,
                            rng: random.Random, hello: dict | None = SEAT_TWO, message: dict = ILLEGAL,
                            message_burst: int | None = None) -> tuple[list[float], int]:
    """Another seat's ping round trips while ``hello``'s connection (seat 2 by default; None: one that never
    joins) floods ``message`` (refused moves by default), or, with ``flooding`` False, does nothing; on a
    host whose limits are its defaults (None) or given."""
    process, port = _spawn(_table_server, game_id, 2, rng.getrandbits(63), False, refusal_burst=refusal_burst,
                           message_burst=message_burst)
    stop = asyncio.Event()
    try:
        player = await Watcher.join(port, "player")
        flooder = asyncio.ensure_future(_flood(port, dict(hello) if hello else None, stop, message)) \
            if flooding else None
        await asyncio.sleep(0.5 if flooding else 0)  # the flood is under way
        samples = await _ping_round_trips(player, count)
        stop.set()
        connections = await flooder if flooder is not None else 0
        player.close()
        return samples, connections
    finally:
        stop.set()
        process.terminate()


async def join_times(game_id: str, players: int, trials: int, rng: random.Random) -> tuple[list[float], list[float]]:
    """From the last player's connect until every player has the dealt table: with the fair deal's pledge
    and reveal round trips, and on a table whose seed is given (no deal to wait for, as every
    table filled before the fair deal). The two are measured in turns, so the machine's load falls on both."""
    from net.client import TableClient
    from net.host import HostSettings, TableHost
    from net.table.table import Table

    fair, given = [], []
    for _ in range(trials):
        for samples, seed in ((fair, None), (given, rng.randrange(2 ** 31))):
            table = Table(all_games()[game_id], {"players": players}, seed=seed)
            host = TableHost(table, HostSettings())
            await host.start("127.0.0.1", 0)
            clients = [TableClient(*host.address, name=f"P{n}") for n in range(players)]
            for early in clients[:-1]:
                await early.start()
            began = time.perf_counter()
            await clients[-1].start()
            await asyncio.gather(*(c.wait_for(lambda snap: snap.started, 30) for c in clients))
            samples.append(time.perf_counter() - began)
            await asyncio.gather(*(c.close() for c in clients))
            await host.close()
    return fair, given


async def _print_joins(game_id: str, players: int, trials: int, rng: random.Random) -> None:
    fair, given = await join_times(game_id, players, trials, rng)
    print(_line(f"last of {players} joins -> all dealt, fair deal", fair))
    print(_line("  same, seed given (no shares to wait for)", given))
    print(f"{'':<44} fair deal's pledge and reveal: p50 +"
          f"{1000 * (statistics.median(fair) - statistics.median(given)):.1f} ms, "
          f"{statistics.median(fair) / statistics.median(given):.2f}x; p99 "
          f"{_percentile(fair, 99) / _percentile(given, 99):.2f}x")


async def cheap_floods(game_id: str, count: int, rng: random.Random, quiet: list[float]) -> None:
    """Section 5: floods of messages that are each harmless (``here``, pings), from a seat, a spectator and a
    connection that never joined, against the others' round trip with no flood (``quiet``)."""
    floods = [("one seat flooding 'here'", SEAT_TWO, {"type": "here"}),
              ("a spectator flooding pings", SPECTATOR, {"type": "ping", "t": 0}),
              ("a connection never joined, flooding pings", None, {"type": "ping", "t": 0})]
    for name, hello, message in floods:
        samples, reconnects = await flood_round_trips(game_id, count, None, True, rng, hello, message)
        print(_line(f"  same, {name}", samples))
        print(f"{'':<44} ratio to no flood: p50 {statistics.median(samples) / statistics.median(quiet):.1f}x   "
              f"p99 {_percentile(samples, 99) / _percentile(quiet, 99):.1f}x   (closed {reconnects - 1} times); "
              f"goal p50 < 5 ms: {'met' if statistics.median(samples) < 0.005 else 'NOT met'}")
    unlimited, _ = await flood_round_trips(game_id, count, None, True, rng, SEAT_TWO, {"type": "here"},
                                           message_burst=10**9)
    print(_line("  same, one seat flooding 'here', no budget", unlimited))
    print(f"{'':<44} ratio to no flood: p50 {statistics.median(unlimited) / statistics.median(quiet):.1f}x   "
          f"p99 {_percentile(unlimited, 99) / _percentile(quiet, 99):.1f}x")


async def refusal_and_cheap_floods(game_id: str, args: argparse.Namespace, rng: random.Random) -> None:
    """Sections 4 and 5 alone (``--floods-only``)."""
    quiet, _ = await flood_round_trips(game_id, args.pings, None, False, rng)
    limited, reconnects = await flood_round_trips(game_id, args.pings, None, True, rng)
    print(_line("another seat's ping, no flood", quiet))
    print(_line("  same, one seat flooding refused moves", limited))
    print(f"{'':<44} ratio to no flood: p50 {statistics.median(limited) / statistics.median(quiet):.1f}x   "
          f"(closed {reconnects - 1} times)")
    await cheap_floods(game_id, args.pings, rng, quiet)


def _line(name: str, samples: list[float]) -> str:
    return (f"{name:<44} p50 {1000 * statistics.median(samples):7.3f} ms   "
            f"p99 {1000 * _percentile(samples, 99):7.3f} ms   (n={len(samples)})")


async def main(args: argparse.Namespace) -> None:
    rng = random.Random(args.seed)
    games = all_games()
    game_id = args.game if args.game in games else next(iter(games))
    players = min(5, games[game_id].option("players").allowed[1])
    print(f"turpin network benchmark — {games[game_id].title}, loopback, {os.cpu_count()} cores")
    if args.joins_only:
        await _print_joins(game_id, players, args.joins, rng)
        return
    if args.floods_only:
        await refusal_and_cheap_floods(game_id, args, rng)
        return
    raw = await raw_round_trips(args.actions * 4)
    print(_line("raw msgpack echo round trip", raw))
    # The floor and the table with and without its record are measured in turns, a slice of each at a
    # time, so that a shared machine's load falls on all three alike.
    frames = recorded_frames(game_id, players, 20, args.actions, args.seed)
    floor, table, bare = [], [], []
    for start in range(0, args.actions, SLICE):
        size = min(SLICE, args.actions - start)
        floor += await relay_floor(frames[start:start + size])
        table += (await table_latencies(game_id, players, 20, size, True, rng))[0]
        bare += (await table_latencies(game_id, players, 20, size, False, rng))[0]
    print(_line(f"bare relay of the same frames to {players + 20}", floor))
    print(_line(f"action -> all views ({players} players + 20 spectators)", table))
    print(f"{'':<44} ratio to raw: p50 {statistics.median(table) / statistics.median(raw):.1f}x   "
          f"p99 {_percentile(table, 99) / _percentile(raw, 99):.1f}x")
    ratio = statistics.median(table) / statistics.median(floor)
    print(f"{'':<44} goal: p50 <= 2x the relay floor, record on: {ratio:.2f}x — "
          f"{'met' if ratio <= 2 else 'NOT met'}")
    print(_line("  same, without the record write (fsync)", bare))
    quiet, _ = await flood_round_trips(game_id, args.pings, None, False, rng)
    limited, reconnects = await flood_round_trips(game_id, args.pings, None, True, rng)
    unlimited, _ = await flood_round_trips(game_id, args.pings, 10**9, True, rng)
    print(_line("another seat's ping, no flood", quiet))
    print(_line("  same, one seat flooding refused moves", limited))
    print(f"{'':<44} ratio to no flood: p50 {statistics.median(limited) / statistics.median(quiet):.1f}x   "
          f"p99 {_percentile(limited, 99) / _percentile(quiet, 99):.1f}x   (the flooder was closed "
          f"{reconnects - 1} times and came back with its token)")
    print(_line("  same, with no refusal limit", unlimited))
    print(f"{'':<44} ratio to no flood: p50 {statistics.median(unlimited) / statistics.median(quiet):.1f}x   "
          f"p99 {_percentile(unlimited, 99) / _percentile(quiet, 99):.1f}x")
    await _print_joins(game_id, players, args.joins, rng)
    await cheap_floods(game_id, args.pings, rng, quiet)
    fanout, memory = await table_latencies(game_id, players, args.fanout, max(50, args.actions // 3), True, rng)
    print(_line(f"action -> all views ({players} players + {args.fanout} spectators)", fanout))
    print(f"host memory: {memory[0] / 1024:.1f} MiB before joining, {memory[1] / 1024:.1f} MiB with "
          f"{players + args.fanout} connections ({(memory[1] - memory[0]) / (players + args.fanout):.0f} KiB each)")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", default="turpin")
    parser.add_argument("--actions", type=int, default=300)
    parser.add_argument("--fanout", type=int, default=200)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--pings", type=int, default=300, help="pings timed for each flood measurement")
    parser.add_argument("--joins", type=int, default=40, help="tables filled for the join measurement")
    parser.add_argument("--joins-only", action="store_true", help="only the join measurement")
    parser.add_argument("--floods-only", action="store_true", help="measure only the floods (sections 4, 5)")
    asyncio.run(main(parser.parse_args()))
