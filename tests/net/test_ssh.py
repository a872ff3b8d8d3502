"""The SSH front door, driven by a real asyncssh client on 127.0.0.1.

Each session runs ``tests/ssh_probe.py`` instead of the app: it says what terminal, environment and
process group it got, reports resizes and answers typed lines, so every test can see what the door did
to the session's process. The real app over a real OpenSSH client is in ``test_ssh_openssh.py``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import pathlib
import re
import signal
import stat
import sys
from typing import Callable

import asyncssh
import pytest

from net.ssh import (
    SERVER_ENV_PASSED_ON,
    SSHFrontDoor,
    SSHSettings,
    SSHSetupError,
    WrongPasswordBrake,
    app_command,
    printable,
    records_folder,
    seats_file,
    terminal_type,
)
from tests.net_helpers import WAIT
from tests.ssh_helpers import PASSWORD, connect, front_door, probe_with_grandchild, read_until, running, start_probe
from tests.waiting import until
from tui.cli.serve_ssh import add_serve_ssh_command, describe, settings_from_args

# --- who gets in ----------------------------------------------------------------------------------

async def test_right_password_gets_a_session_and_a_wrong_one_is_refused_and_slowed(tmp_path):
    async with front_door(tmp_path) as door:
        with pytest.raises(asyncssh.PermissionDenied):
            async with connect(door, password="guess", preferred_auth="password"):
                pass
        assert door.brake.failures["127.0.0.1"] >= 1  # each wrong try from this address counts
        async with connect(door) as conn:
            process, facts = await start_probe(conn)
            assert facts["argv"] == ["--name=alice"]
        assert "127.0.0.1" not in door.brake.failures  # the right password clears the address's record


def test_wrong_passwords_wait_longer_each_time_per_address_up_to_a_cap():
    brake = WrongPasswordBrake(first_delay=1.0, max_delay=5.0)
    assert [brake.delay_after_failure("10.0.0.9") for _ in range(5)] == [1.0, 2.0, 4.0, 5.0, 5.0]
    assert brake.delay_after_failure("10.0.0.7") == 1.0  # another address starts afresh
    brake.forget("10.0.0.9")
    assert brake.delay_after_failure("10.0.0.9") == 1.0


async def test_the_fresh_password_is_printed_material_and_different_each_start(tmp_path):
    first = SSHFrontDoor(SSHSettings(port=0, interface="127.0.0.1", data_dir=tmp_path))
    second = SSHFrontDoor(SSHSettings(port=0, interface="127.0.0.1", data_dir=tmp_path))
    assert re.fullmatch(r"[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}", first.password)
    assert first.password != second.password


async def test_authorized_keys_let_in_a_listed_key_and_refuse_an_unknown_one(tmp_path):
    known = asyncssh.generate_private_key("ssh-ed25519")
    unknown = asyncssh.generate_private_key("ssh-ed25519")
    keys_file = tmp_path / "authorized_keys"
    keys_file.write_bytes(known.export_public_key())
    async with front_door(tmp_path, auth="keys", authorized_keys=keys_file) as door:
        with pytest.raises(asyncssh.PermissionDenied):
            async with connect(door, client_keys=[unknown], password=None):
                pass
        with pytest.raises(asyncssh.PermissionDenied):  # no password door in key mode
            async with connect(door, client_keys=None, password=PASSWORD):
                pass
        async with connect(door, client_keys=[known], password=None) as conn:
            await start_probe(conn)


async def test_open_door_lets_anyone_in(tmp_path):
    async with front_door(tmp_path, auth="open", password=None) as door:
        async with connect(door, username="walk-in", password=None) as conn:
            process, facts = await start_probe(conn)
            assert facts["argv"] == ["--name=walk-in"]


async def test_a_missing_keys_file_or_bad_settings_say_so_in_one_line(tmp_path):
    with pytest.raises(SSHSetupError, match="cannot read authorized keys"):
        door = SSHFrontDoor(SSHSettings(port=0, interface="127.0.0.1", auth="keys", data_dir=tmp_path,
                                        authorized_keys=tmp_path / "missing"))
        await door.start()
    with pytest.raises(SSHSetupError, match="auth must be one of"):
        SSHFrontDoor(SSHSettings(auth="guest"))
    with pytest.raises(SSHSetupError, match="max sessions"):
        SSHFrontDoor(SSHSettings(max_sessions=0))


async def test_the_host_key_is_ed25519_made_once_kept_private_and_its_fingerprint_is_what_clients_see(tmp_path):
    async with front_door(tmp_path) as door:
        first = door.fingerprint
        key_file = tmp_path / "ssh_host_ed25519_key"
        assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
        assert door.host_key.algorithm == b"ssh-ed25519"
        async with connect(door) as conn:
            assert conn.get_server_host_key().get_fingerprint("sha256") == first
    async with front_door(tmp_path) as again:
        assert again.fingerprint == first


async def test_a_broken_host_key_or_a_taken_port_stop_the_start_with_one_line(tmp_path):
    (tmp_path / "broken_key").write_text("not a key")
    with pytest.raises(SSHSetupError, match="cannot read the host key"):
        await SSHFrontDoor(SSHSettings(port=0, interface="127.0.0.1", data_dir=tmp_path,
                                       host_key=tmp_path / "broken_key")).start()
    async with front_door(tmp_path) as door:
        with pytest.raises(SSHSetupError, match=f"cannot listen on 127.0.0.1 port {door.address[1]}"):
            await SSHFrontDoor(SSHSettings(port=door.address[1], interface="127.0.0.1", data_dir=tmp_path)).start()


def test_serve_ssh_that_cannot_start_says_why_in_one_line_and_exits_2(tmp_path, capsys):
    args = parse(["serve-ssh", "--port", "0", "--interface", "127.0.0.1",
                  "--authorized-keys", str(tmp_path / "missing")])
    assert args.handler(args) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("turpin serve-ssh: cannot read authorized keys")


# --- nothing but the app --------------------------------------------------------------------------

async def test_exec_is_refused_in_one_line_and_runs_nothing(tmp_path):
    async with front_door(tmp_path) as door:
        async with connect(door) as conn:
            result = await conn.run("cat /etc/passwd", encoding=None)
            assert result.exit_status == 1
            assert result.stdout == (b"turpin: this server runs no commands; connect with plain `ssh -t` and no "
                                     b"command.\r\n")
            result = await conn.run("ls", term_type="xterm", encoding=None)  # even with a terminal
            assert result.exit_status == 1 and b"runs no commands" in result.stdout
        assert door.sessions == []


async def test_a_shell_without_a_terminal_is_told_to_use_ssh_t(tmp_path):
    async with front_door(tmp_path) as door:
        async with connect(door) as conn:
            result = await conn.run(encoding=None)
            assert result.exit_status == 1
            assert result.stdout.count(b"\n") == 1 and b"`ssh -t`" in result.stdout


async def test_subsystems_and_sftp_are_refused(tmp_path):
    async with front_door(tmp_path) as door:
        async with connect(door) as conn:
            with pytest.raises((asyncssh.ChannelOpenError, asyncssh.SFTPError)):
                async with conn.start_sftp_client():
                    pass
            result = await conn.run(subsystem="netconf", encoding=None)
            assert result.exit_status == 1 and b"no 'netconf' subsystem" in result.stdout


async def test_port_forwarding_either_way_is_refused(tmp_path):
    async with front_door(tmp_path) as door:
        async with connect(door) as conn:
            with pytest.raises(asyncssh.ChannelOpenError):
                await conn.open_connection("127.0.0.1", door.address[1])
            with pytest.raises(asyncssh.ChannelListenError):
                await conn.forward_remote_port("127.0.0.1", 0, "127.0.0.1", 9)


async def test_x11_forwarding_is_refused(tmp_path):
    async with front_door(tmp_path) as door:
        async with connect(door) as conn:
            with pytest.raises(asyncssh.ChannelOpenError, match="X11"):
                await conn.create_process(term_type="xterm", x11_forwarding=True, x11_display="127.0.0.1:0",
                                          x11_auth_path=os.devnull)
        assert door.sessions == []


# --- each session its own app on its own terminal -------------------------------------------------

async def test_a_session_gets_a_clean_environment_a_terminal_of_its_size_and_its_own_process_group(tmp_path):
    async with front_door(tmp_path, join="127.0.0.1:4707", join_code="K7QX2M") as door:
        async with connect(door, username="-rm -rf ~") as conn:
            process, facts = await start_probe(conn, size=(132, 43), env={"LD_PRELOAD": "/tmp/evil.so",
                                                                          "LANG": "xx"})
    env = facts["env"]
    assert facts["size"] == "132x43"
    assert env["TERM"] == "xterm-256color" and env["LANG"] == env["LC_ALL"] == "C.UTF-8"
    assert "LD_PRELOAD" not in env
    assert set(env) <= {"TERM", "LANG", "LC_ALL", "HOME", "PATH", "TURPIN_SEATS_FILE", "TURPIN_JOIN",
                        "TURPIN_JOIN_CODE", "TURPIN_GUEST", "TURPIN_RECORDS_DIR", *SERVER_ENV_PASSED_ON}
    # a lobby's door opens at its table with its code: the password was the gate
    assert env["TURPIN_JOIN"] == "127.0.0.1:4707" and env["TURPIN_JOIN_CODE"] == "K7QX2M"
    assert env["TURPIN_GUEST"] == "ssh"  # the app hosts nothing and reads no records (test_tui_play)...
    assert env["TURPIN_RECORDS_DIR"] == str(records_folder(tmp_path, "-rm -rf ~"))  # ...but its own
    assert env["TURPIN_SEATS_FILE"] == str(seats_file(tmp_path, "-rm -rf ~"))
    assert pathlib.Path(env["TURPIN_SEATS_FILE"]).parent == tmp_path / "ssh-seats"
    assert facts["argv"] == ["--name=-rm -rf ~"]  # one argument, never read as an option
    assert facts["pid"] == facts["group"] == facts["session"]  # setsid: its own session and group
    assert facts["controlling_tty"]  # TIOCSCTTY: the pty is its terminal, so SIGWINCH reaches it


def test_seat_files_are_per_user_and_safe_whatever_the_name():
    base = pathlib.Path("/data")
    assert seats_file(base, "alice") != seats_file(base, "Alice")
    assert seats_file(base, "../../etc/passwd").parent == base / "ssh-seats"
    assert seats_file(base, "a/b") != seats_file(base, "a_b")
    assert records_folder(base, "alice") != records_folder(base, "Alice")
    assert records_folder(base, "../../etc/passwd").parent == base / "ssh-records"


def test_a_strange_term_is_replaced_by_a_common_one():
    assert terminal_type("screen-256color") == "screen-256color"
    assert terminal_type("xterm\x1b]0;pwned\x07") == "xterm-256color"
    assert terminal_type("") == "xterm-256color"


def test_the_default_command_runs_the_app_named_after_the_ssh_user():
    command = app_command("--bob")
    assert command[0] == sys.executable and command[1:3] == ["-m", "tui"] and command[3] == "--name=--bob"


async def test_a_resize_reaches_the_app_as_sigwinch_with_the_new_size(tmp_path):
    async with front_door(tmp_path) as door:
        async with connect(door) as conn:
            process, facts = await start_probe(conn, size=(80, 24))
            process.change_terminal_size(120, 40)
            await read_until(process, r"RESIZED 120x40")
            process.change_terminal_size(60, 20)
            await read_until(process, r"RESIZED 60x20")


async def test_ten_sessions_at_once_each_have_their_own_app_and_do_not_disturb_each_other(tmp_path):
    async with front_door(tmp_path) as door:
        async with contextlib.AsyncExitStack() as stack:
            conns = [await stack.enter_async_context(connect(door, username=f"player{i}")) for i in range(10)]
            started = await asyncio.gather(*(start_probe(conn, size=(70 + i, 20 + i))
                                             for i, conn in enumerate(conns)))
            pids = {facts["pid"] for _, facts in started}
            assert len(pids) == 10 and len(door.sessions) == 10
            for i, (_, facts) in enumerate(started):
                assert facts["argv"] == [f"--name=player{i}"] and facts["size"] == f"{70 + i}x{20 + i}"

            async def talk(i: int, process) -> None:
                for turn in range(3):
                    process.stdin.write(f"session{i}turn{turn}\r".encode())
                    await read_until(process, rf"ANSWER {re.escape(f'session{i}turn{turn}'[::-1])}\r\n")

            await asyncio.gather(*(talk(i, process) for i, (process, _) in enumerate(started)))


async def test_killing_one_sessions_app_ends_that_session_only(tmp_path):
    async with front_door(tmp_path) as door:
        async with contextlib.AsyncExitStack() as stack:
            conns = [await stack.enter_async_context(connect(door, username=f"p{i}")) for i in range(3)]
            started = [await start_probe(conn) for conn in conns]
            (doomed, doomed_facts), *others = started
            os.kill(doomed_facts["pid"], signal.SIGKILL)
            result = await asyncio.wait_for(doomed.wait(), WAIT)
            assert result.exit_status == 1 or result.exit_signal is not None
            await until(lambda: len(door.sessions) == 2, "the killed session is forgotten")
            for i, (process, _) in enumerate(others):
                process.stdin.write(f"still{i}\r".encode())
                await read_until(process, rf"ANSWER {f'still{i}'[::-1]}")


async def test_the_operator_is_told_who_comes_and_goes_with_no_control_characters(tmp_path):
    """The serve-ssh console tells its operator who is in: each arrival and departure is a line. A user name
    is someone else's text: it reaches the operator's terminal with no control character (an escape sequence
    could rewrite his screen; SSH clients refuse most of them in user names, but the server does not count
    on it)."""
    told: list[str] = []
    async with front_door(tmp_path) as door:
        door.tell = told.append
        async with connect(door, username="ann") as conn:
            process, _ = await start_probe(conn)
            await until(lambda: len(told) == 1, "the arrival")
            process.stdin.write_eof()
            process.close()
        await until(lambda: len(told) == 2, "the departure")
    assert told == ["ann from 127.0.0.1 came in (1 session now)", "ann from 127.0.0.1 left (0 sessions now)"]
    assert printable("ann\x1b]0;owned\x07\r") == "ann?]0;owned??"
    assert printable("x" * 50) == "x" * 40 + "…"


async def test_a_dropped_connection_ends_the_apps_whole_process_group(tmp_path):
    async with front_door(tmp_path, command=probe_with_grandchild) as door:
        async with connect(door) as conn:
            _, facts = await start_probe(conn)
            assert running(facts["pid"]) and running(facts["grandchild"])
        await until(lambda: not running(facts["pid"]) and not running(facts["grandchild"]),
                         "the app and its helper end with the connection")
        await until(lambda: door.sessions == [], "the session is forgotten")


async def test_stopping_the_server_ends_every_session_and_its_processes(tmp_path):
    door = SSHFrontDoor(SSHSettings(port=0, interface="127.0.0.1", password=PASSWORD, data_dir=tmp_path,
                                    command=probe_with_grandchild, name_passphrases=False))
    await door.start()
    conn = await connect(door)
    processes = [await start_probe(conn) for _ in range(3)]
    await door.close()
    for process, facts in processes:
        assert not running(facts["pid"]) and not running(facts["grandchild"])
        await asyncio.wait_for(process.wait(), WAIT)  # the client is told the session is over
    await asyncio.wait_for(conn.wait_closed(), WAIT)  # and then the connection itself is closed


async def test_stopping_the_server_closes_connections_that_have_no_session(tmp_path):
    door = SSHFrontDoor(SSHSettings(port=0, interface="127.0.0.1", password=PASSWORD, data_dir=tmp_path))
    await door.start()
    conn = await connect(door)
    await door.close()
    await asyncio.wait_for(conn.wait_closed(), WAIT)


# --- limits ---------------------------------------------------------------------------------------

async def test_past_the_session_limit_a_newcomer_is_politely_refused_and_a_freed_place_is_reused(tmp_path):
    async with front_door(tmp_path, max_sessions=2) as door:
        async with connect(door) as conn:
            first, _ = await start_probe(conn)
            await start_probe(conn)
            refused = await conn.create_process(term_type="xterm", encoding=None)
            result = await refused.wait()
            assert result.exit_status == 1
            assert result.stdout == b"turpin: all 2 places on this SSH server are taken; try again in a while.\r\n"
            first.stdin.write_eof()  # the client leaves
            await until(lambda: len(door.sessions) == 1, "a place is freed")
            await start_probe(conn)


async def test_past_the_connection_limit_a_new_connection_is_turned_away(tmp_path):
    async with front_door(tmp_path, max_connections=2) as door:
        async with connect(door), connect(door):
            # A third login gets in (the slots of connections still logging in are apart) and is then
            # turned away, before it can open a session.
            async with connect(door) as third:
                await asyncio.wait_for(third.wait_closed(), WAIT)
            assert len(door._connections) == 2
        await until(lambda: not door._connections, "the two connections are forgotten")
        async with connect(door) as conn:
            await start_probe(conn)


async def test_an_idle_session_is_ended_with_a_word_and_its_app_stopped(tmp_path):
    async with front_door(tmp_path, idle_timeout=0.3) as door:
        async with connect(door) as conn:
            process, facts = await start_probe(conn)
            await read_until(process, r"turpin: no key pressed and nothing new on the screen for 0 s; goodbye\.\r\n")
            result = await asyncio.wait_for(process.wait(), WAIT)
            assert result.exit_status is not None
            assert not running(facts["pid"])


def test_a_door_to_one_table_opens_the_app_at_it_with_its_room_code(monkeypatch):
    import tui.startup.launch as launch
    started = {}
    monkeypatch.setattr(launch, "run_app", lambda args, start: started.setdefault("start", start) and 0)
    monkeypatch.setenv("TURPIN_JOIN", "127.0.0.1:4707")
    monkeypatch.setenv("TURPIN_JOIN_CODE", "K7QX2M")
    launch.run_app_menu(argparse.Namespace())
    start = started["start"]
    assert (start.route, start.address, start.code) == ("join", "127.0.0.1:4707", "K7QX2M")


async def test_a_session_whose_screen_goes_on_changing_is_not_idle(tmp_path):
    """A spectator presses no key, and the idle timeout must not cut him off in the middle of the game he
    is watching: output the size of a table update keeps a session alive; it ends when its app does."""
    script = "import sys, time\nfor n in range(12):\n    print(str(n) * 400, flush=True)\n    time.sleep(0.1)\n"

    def busy_screen(user: str) -> list[str]:
        return [sys.executable, "-c", script]

    async with front_door(tmp_path, idle_timeout=0.4, command=busy_screen) as door:
        async with connect(door) as conn:
            process = await conn.create_process(term_type="xterm", encoding=None)
            seen = b""
            while True:
                chunk = await asyncio.wait_for(process.stdout.read(65536), WAIT)
                if not chunk:
                    break
                seen += chunk
            assert b"11" * 200 in seen and b"goodbye" not in seen  # all 1.2 s of it, past the 0.4 s


# --- turpin serve-ssh -----------------------------------------------------------------------------

def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="turpin")
    add_serve_ssh_command(parser.add_subparsers(dest="command"))
    return parser.parse_args(argv)


def test_serve_ssh_options_become_settings():
    settings = settings_from_args(parse(["serve-ssh"]))
    assert settings.port == 2222 and settings.auth == "password" and settings.max_sessions == 20
    keys = settings_from_args(parse(["serve-ssh", "--authorized-keys", "k", "--port", "0", "--max-sessions", "3",
                                     "--idle-timeout", "0", "--interface", "127.0.0.1"]))
    assert (keys.auth, str(keys.authorized_keys), keys.port, keys.max_sessions, keys.idle_timeout) == \
        ("keys", "k", 0, 3, None)
    assert settings_from_args(parse(["serve-ssh", "--open"])).auth == "open"
    with pytest.raises(SystemExit):
        parse(["serve-ssh", "--open", "--password"])


async def test_serve_ssh_tells_where_to_connect_the_password_and_the_fingerprint(tmp_path):
    async with front_door(tmp_path) as door:
        text = "\n".join(describe(door))
        assert f"ssh -p {door.address[1]} THEIR-NAME@127.0.0.1" in text
        assert f"password: {PASSWORD}" in text and door.fingerprint in text
    async with front_door(tmp_path, auth="open", password=None) as door:
        assert "WARNING" in "\n".join(describe(door))


# --- guests are bounded ------------------------------------------------------------------

async def test_a_terminal_is_capped_at_500_by_200_when_asked_for_and_at_every_resize(tmp_path):
    async with front_door(tmp_path) as door:
        async with connect(door) as conn:
            process, facts = await start_probe(conn, size=(10000, 10000))
            assert facts["size"] == "500x200"
            process.change_terminal_size(120, 40)
            await read_until(process, r"RESIZED 120x40")
            process.change_terminal_size(9999, 30, 100000, 100000)  # pixels past what a pty can hold too
            await read_until(process, r"RESIZED 500x30")
            process.change_terminal_size(80, 24)
            await read_until(process, r"RESIZED 80x24")


async def test_one_login_and_one_address_have_a_bounded_number_of_sessions(tmp_path):
    async with front_door(tmp_path, max_sessions_per_connection=2, max_sessions_per_address=3) as door:
        async with connect(door) as first, connect(door) as second:
            await start_probe(first)
            await start_probe(first)
            refused = await (await first.create_process(term_type="xterm", encoding=None)).wait()
            assert refused.exit_status == 1
            assert refused.stdout == b"turpin: one login may have at most 2 sessions at once; close one first.\r\n"
            await start_probe(second)
            refused = await (await second.create_process(term_type="xterm", encoding=None)).wait()
            assert refused.stdout == (b"turpin: at most 3 sessions come from one address at once; close one "
                                      b"first.\r\n")
            assert len(door.sessions) == 3


async def _idle_connection(door: SSHFrontDoor, source: str) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """A TCP connection to the door from ``source`` (any 127.x.y.z reaches loopback) that never logs in."""
    return await asyncio.open_connection(*door.address, local_addr=(source, 0))


async def _turned_away(reader: asyncio.StreamReader) -> bool:
    """True once the door has closed the connection (after its banner, and a goodbye)."""
    try:
        while await asyncio.wait_for(reader.read(4096), WAIT):
            pass
    except ConnectionError:
        pass
    return True


async def test_connections_still_logging_in_have_their_own_small_limit_per_address_and_a_timeout(tmp_path):
    async with front_door(tmp_path, max_logins_per_address=2, login_timeout=WAIT) as door:
        idle = [await _idle_connection(door, "127.0.0.2") for _ in range(2)]
        await until(lambda: len(door._logging_in) == 2, "two connections logging in")
        reader, writer = await _idle_connection(door, "127.0.0.2")
        assert await _turned_away(reader)  # a third from that address
        async with connect(door) as conn:  # another address still gets in, and plays
            await start_probe(conn)
        for _, idle_writer in idle + [(reader, writer)]:
            idle_writer.close()
    async with front_door(tmp_path, login_timeout=0.5) as door:
        reader, writer = await _idle_connection(door, "127.0.0.3")
        assert await _turned_away(reader)  # it never logged in: the login timeout ends it
        await until(lambda: not door._logging_in, "the idle connection forgotten")
        writer.close()


# --- a name belongs to its owner -----------------------------------------------------------

def typed_back(said: bytes) -> str:
    """The passphrase the door offers a new name, as its guest types it back."""
    return re.search(rb"type back its passphrase\r\n\r\n    (\S+)\r\n", said).group(1).decode()


async def _session_as(conn, answer: str | Callable[[bytes], str] | None = None
                      ) -> tuple[asyncssh.SSHClientProcess, dict, bytes]:
    """A session whose door may first ask a passphrase: ``answer`` (or what it makes of the question) is
    typed to it (then Enter)."""
    process = await conn.create_process(term_type="xterm-256color", term_size=(80, 24), encoding=None)
    said = b""
    if answer is not None:
        said = (await read_until(process, r"[\s\S]*?(without keeping the name: |press Enter alone to play as a "
                                          r"new \S+: )")).group(0)
        process.stdin.write((answer if isinstance(answer, str) else answer(said)).encode() + b"\r")
    match = await read_until(process, r"([\s\S]*?)READY (\{.*\})\r\n")
    return process, json.loads(match.group(2)), said + match.group(1)


async def test_with_a_password_a_name_is_its_first_owners_and_only_its_passphrase_gives_its_seats_back(tmp_path):
    async with front_door(tmp_path, name_passphrases=True) as door:
        ann_seats, ann_records = str(seats_file(tmp_path, "ann")), str(records_folder(tmp_path, "ann"))
        async with connect(door, username="ann") as conn:
            _, facts, said = await _session_as(conn, typed_back)
            passphrase = typed_back(said)
            assert b"ann is yours" in said
            assert facts["env"]["TURPIN_SEATS_FILE"] == ann_seats
            _, again, _ = await _session_as(conn)  # the same login's next session: no question
            assert again["env"]["TURPIN_SEATS_FILE"] == ann_seats
        async with connect(door, username="ann") as mallory:
            _, facts, said = await _session_as(mallory, "abcd-efgh-jkmn")
            assert b"that is not ann's passphrase" in said and b"you play as a new ann" in said
            assert facts["env"]["TURPIN_SEATS_FILE"] != ann_seats
            assert facts["env"]["TURPIN_RECORDS_DIR"] != ann_records
            assert facts["argv"] == ["--name=ann"]  # still called ann at the tables: the name is a label
        async with connect(door, username="ann") as shy:
            _, facts, said = await _session_as(shy, "")
            assert b"you play as a new ann" in said and facts["env"]["TURPIN_SEATS_FILE"] != ann_seats
        async with connect(door, username="ann") as back:
            _, facts, _ = await _session_as(back, passphrase.upper().replace("-", " - "))
            assert facts["env"]["TURPIN_SEATS_FILE"] == ann_seats
            assert facts["env"]["TURPIN_RECORDS_DIR"] == ann_records
    kept = (tmp_path / "ssh-names").iterdir().__next__()
    assert passphrase not in kept.read_text() and stat.S_IMODE(kept.stat().st_mode) == 0o600


async def test_a_name_is_kept_only_once_its_guest_typed_its_passphrase_back(tmp_path):
    """A guest who hangs up at the question, presses Enter alone or types something else leaves no
    name behind: the next guest of that name is offered it as new."""
    async with front_door(tmp_path, name_passphrases=True) as door:
        async with connect(door, username="ann") as gone:
            process = await gone.create_process(term_type="xterm-256color", term_size=(80, 24), encoding=None)
            await read_until(process, r"without keeping the name: ")
        for answer in ("", "abcd-efgh-jkmn"):
            async with connect(door, username="ann") as conn:
                _, facts, said = await _session_as(conn, answer)
                assert b"the name ann is new here" in said and b"ann is not kept" in said
                assert facts["env"]["TURPIN_SEATS_FILE"] != str(seats_file(tmp_path, "ann"))
        assert not (tmp_path / "ssh-names").exists() or not list((tmp_path / "ssh-names").iterdir())
        async with connect(door, username="ann") as conn:
            _, facts, said = await _session_as(conn, typed_back)
            assert b"ann is yours" in said and facts["env"]["TURPIN_SEATS_FILE"] == str(seats_file(tmp_path, "ann"))
    assert len(list((tmp_path / "ssh-names").iterdir())) == 1


async def test_the_door_keeps_a_bounded_number_of_names_in_private_folders(tmp_path):
    async with front_door(tmp_path, name_passphrases=True, max_names=2) as door:
        for name in ("ann", "bob", "carl"):
            async with connect(door, username=name) as conn:
                _, facts, said = await _session_as(conn, typed_back)
        assert b"carl is not kept (this door keeps no more than 2 names)" in said
        assert facts["env"]["TURPIN_SEATS_FILE"] != str(seats_file(tmp_path, "carl"))
    assert len(list((tmp_path / "ssh-names").iterdir())) == 2
    for folder in ("ssh-names", "ssh-seats", "ssh-records"):
        assert stat.S_IMODE((tmp_path / folder).stat().st_mode) == 0o700, folder
    for own in (tmp_path / "ssh-records").iterdir():
        assert stat.S_IMODE(own.stat().st_mode) == 0o700


async def test_with_keys_the_key_is_the_identity_and_the_name_only_a_label(tmp_path):
    ann, mallory = asyncssh.generate_private_key("ssh-ed25519"), asyncssh.generate_private_key("ssh-ed25519")
    keys_file = tmp_path / "authorized_keys"
    keys_file.write_bytes(ann.export_public_key() + mallory.export_public_key())
    async with front_door(tmp_path, auth="keys", authorized_keys=keys_file, name_passphrases=True) as door:
        seen = []
        for key in (ann, mallory, ann):
            async with connect(door, username="ann", client_keys=[key], password=None) as conn:
                _, facts = await start_probe(conn)  # no question: the key is who he is
                seen.append((facts["env"]["TURPIN_SEATS_FILE"], facts["env"]["TURPIN_RECORDS_DIR"]))
    assert seen[0] == seen[2] and seen[1][0] != seen[0][0] and seen[1][1] != seen[0][1]
    assert seen[0][0] == str(seats_file(tmp_path, f"key {ann.get_fingerprint('sha256')}"))
