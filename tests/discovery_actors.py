"""Programs the discovery tests run inside their private network namespaces (never on real interfaces).

    python tests/discovery_actors.py advertise --interface IP [--listen] [--name N] [--taken T] [--free F]
    python tests/discovery_actors.py advertise-raw --interface IP KEY=VALUE...  (TXT not checked)
    python tests/discovery_actors.py browse --interface IP [--no-probe] [--reprobe SECONDS]
    python tests/discovery_actors.py tables --interface IP [--seconds S]
    python tests/discovery_actors.py unavailable --interface IP [--take-5353]

Each prints one JSON object per line on stdout; advertisers obey "update T F" and "close" on stdin.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import pathlib
import signal
import socket
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

from zeroconf import IPVersion  # noqa: E402
from zeroconf.asyncio import AsyncServiceInfo, AsyncZeroconf  # noqa: E402

from net.discovery import SERVICE_TYPE, DiscoveryUnavailable, TableAd, TableAdvertiser, TableBrowser  # noqa: E402
from tui.cli.tables import add_tables_command  # noqa: E402


def say(**fields: object) -> None:
    print(json.dumps(fields), flush=True)


def ad_fields(ad: TableAd | None) -> dict[str, object]:
    if ad is None:
        return {}
    return {"name": ad.name, "game": ad.game, "protocol": ad.protocol, "taken": ad.seats_taken,
            "free": ad.seats_free, "code": ad.code_needed, "host": ad.host, "port": ad.port,
            "instance": ad.instance}


async def stdin_lines():
    """Words of each line the test writes to us, read without a thread (so Ctrl-C exits cleanly)."""
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    while line := await reader.readline():
        yield line.decode().split()


def closed_port(interface: str) -> int:
    """A port nothing listens on: bound for a moment, then released."""
    with socket.socket() as probe:
        probe.bind((interface, 0))
        return probe.getsockname()[1]


async def advertise(args: argparse.Namespace) -> None:
    server = None
    if args.listen:
        server = await asyncio.start_server(lambda reader, writer: writer.close(), args.interface, 0)
        port = server.sockets[0].getsockname()[1]
    else:
        port = closed_port(args.interface)
    ad = TableAd(name=args.name, game="turpin", protocol=1, seats_taken=args.taken, seats_free=args.free,
                 code_needed=True)
    advertiser = TableAdvertiser(ad, port, interfaces=[args.interface])
    starting = asyncio.create_task(advertiser.start())
    if args.early_update:   # a seat fills while the advert's name is still being claimed
        await asyncio.sleep(0.1)
        await advertiser.update(*args.early_update)
    await starting
    try:
        say(event="ready", instance=advertiser.instance, port=port)
        async for words in stdin_lines():
            if words[:1] == ["update"]:
                await advertiser.update(int(words[1]), int(words[2]))
                say(event="updated")
            elif words[:1] == ["close"]:
                break
    finally:
        await advertiser.close()
        if server is not None:
            server.close()
        say(event="closed")


async def advertise_raw(args: argparse.Namespace) -> None:
    """A badly behaved advertiser: TXT exactly as given, bypassing TableAd's checks."""
    server = await asyncio.start_server(lambda reader, writer: writer.close(), args.interface, 0)
    port = server.sockets[0].getsockname()[1]
    properties = dict(item.split("=", 1) for item in args.txt)
    aiozc = AsyncZeroconf(interfaces=[args.interface], ip_version=IPVersion.V4Only)
    info = AsyncServiceInfo(SERVICE_TYPE, f"{args.name}.{SERVICE_TYPE}", port=port, properties=properties,
                            server="raw-advertiser.local.", parsed_addresses=[args.interface])
    await (await aiozc.async_register_service(info))
    try:
        say(event="ready", port=port)
        async for words in stdin_lines():
            if words[:1] == ["close"]:
                break
    finally:
        await aiozc.async_close()
        server.close()


class ReportRefusals(logging.Handler):
    """Turns the browser's "not shown" log lines into events the test can wait for."""

    def emit(self, record: logging.LogRecord) -> None:
        if record.msg.startswith("ignoring table"):
            say(event="ignored", instance=record.args[0])
        elif record.msg.startswith("table %r does not answer"):
            say(event="unanswered", instance=record.args[0])


async def browse(args: argparse.Namespace) -> None:
    logger = logging.getLogger("net.discovery")
    logger.setLevel(logging.INFO)
    logger.addHandler(ReportRefusals())
    def on_change(kind: str, ad: TableAd | None) -> None:
        say(event=kind, **ad_fields(ad))
    browser = TableBrowser(on_change, interfaces=[args.interface], probe=not args.no_probe,
                           reprobe_interval=args.reprobe)
    await browser.start()
    try:
        say(event="browsing")
        async for _words in stdin_lines():
            pass
    finally:
        await browser.close()


async def unavailable(args: argparse.Namespace) -> None:
    blocker = None
    if args.take_5353:   # another mDNS stack that does not share the port
        blocker = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        blocker.bind(("0.0.0.0", 5353))
    ad = TableAd(name="Doomed", game="turpin", protocol=1, seats_taken=0, seats_free=2, code_needed=False)
    for role, start in (("advertiser", TableAdvertiser(ad, 4000, [args.interface]).start),
                        ("browser", TableBrowser(interfaces=[args.interface]).start)):
        try:
            await start()
            say(role=role, unavailable=None)
        except DiscoveryUnavailable as error:
            say(role=role, unavailable=str(error))
    if blocker is not None:
        blocker.close()


def tables(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="turpin")
    add_tables_command(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["tables", *argv])
    return args.handler(args)


def main() -> int:
    # Ctrl-C must reach us as it would in a terminal, even when the test run itself was started where
    # SIGINT is ignored (a background job in a script, nohup): ignored signals are inherited, and Python
    # then leaves SIGINT ignored, so the Ctrl-C test would wait for a goodbye that never comes.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    if sys.argv[1] == "tables":
        return tables(sys.argv[2:])
    parser = argparse.ArgumentParser()
    parser.add_argument("role", choices=["advertise", "advertise-raw", "browse", "unavailable"])
    parser.add_argument("--interface", default="127.0.0.1")
    parser.add_argument("--name", default="Dick's table")
    parser.add_argument("--taken", type=int, default=1)
    parser.add_argument("--free", type=int, default=3)
    parser.add_argument("--listen", action="store_true")
    parser.add_argument("--no-probe", action="store_true")
    parser.add_argument("--take-5353", action="store_true")
    parser.add_argument("--reprobe", type=float, default=10.0)
    parser.add_argument("--early-update", type=int, nargs=2, metavar=("TAKEN", "FREE"))
    parser.add_argument("txt", nargs="*")
    args = parser.parse_intermixed_args()
    roles = {"advertise": advertise, "advertise-raw": advertise_raw, "browse": browse,
             "unavailable": unavailable}
    try:
        asyncio.run(roles[args.role](args))
    except KeyboardInterrupt:
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
