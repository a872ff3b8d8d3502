"""Whole games over real sockets, and every kind of cheating refused with the state unchanged."""

from __future__ import annotations

import asyncio
import random

import pytest

from core.engine import clone, visible_events
from net import protocol
from net.client import ClientError
from net.protocol import PROTOCOL_VERSION
from net.refusals import Refusal
from net.table import pipeline
from net.table.table import Table
from tests.net_helpers import FAST, GAME_IDS, GAMES, TOY, WAIT, client, close_all, hosting, play_randomly, seat_range


def _replay_result(game, record):
    state = game.setup(record["options"], record["seed"])
    for seat, action in record["actions"]:
        game.apply(state, seat, action)
    return game.result(state)


@pytest.mark.parametrize("game", GAMES, ids=GAME_IDS)
@pytest.mark.parametrize("seed", range(3))
async def test_whole_game_with_players_bots_and_spectators_everyone_agrees(game, seed):
    """Two players, bots in the other seats, a spectator from the start and one arriving mid-game, and a
    seated player who also watches: played to the end, everyone gets the same result, each the log it
    may see, and the public record replays to that result (A2)."""
    low, high = seat_range(game)
    seats = min(max(low, 3), high)
    humans = min(2, seats)
    table = Table(game, {"players": seats}, code="ROOM42",
                  bots={seat: "random" for seat in range(humans, seats)})
    rng = random.Random(seed)
    async with hosting(table) as host:
        players = [client(host, code="ROOM42", name=f"P{i}") for i in range(humans)]
        early = client(host, role="spectator")
        for someone in [*players, early]:
            await someone.start()
        late = client(host, role="spectator")
        also_watching = client(host, role="spectator")

        async def join_late():
            await early.wait_for(lambda snap: snap.turn >= 3 or snap.result is not None, WAIT)
            await late.start()
            await also_watching.start()

        await asyncio.gather(join_late(), *(play_randomly(p, random.Random(rng.random())) for p in players))
        everyone = [*players, early, late, also_watching]
        for someone in everyone:
            await someone.wait_for(lambda snap: snap.result is not None, WAIT)
        truth = game.result(table.state)
        assert truth is not None
        for someone in everyone:
            assert someone.snapshot.result == table.narrated_result()
            assert _replay_result(game, someone.snapshot.record) == truth
            assert someone.snapshot.log == table.narrate(visible_events(table.log, someone.snapshot.seat))
            assert someone.snapshot.view == game.view(table.state, someone.snapshot.seat)
        assert also_watching.snapshot.view == early.snapshot.view
        await close_all(*everyone)


@pytest.mark.parametrize("game", GAMES, ids=GAME_IDS)
def test_the_log_begins_with_the_deal_each_connection_seeing_only_its_share(game):
    """A new table's log is the game's opening events; the first frame a seat or a spectator gets
    carries just the ones ``visible_events`` lets it see (a seat's secret dice or drawn card to it alone),
    and so does a table rebuilt from its record."""
    low, _ = seat_range(game)
    table = Table(game, {"players": low}, seed=12345)
    assert table.log == game.opening_events(game.setup(table.options, 12345))
    assert Table.from_record(game, table.record()).log == table.log
    for seat in [None, *range(low)]:
        hello = {"protocol": protocol.PROTOCOL_VERSION, "role": "spectator" if seat is None else "player"}
        if seat is not None:
            hello["seat"] = seat
        sent = []
        table.join(sent.append, hello)
        tables = [frame for frame in (protocol.decode_body(raw[4:]) for raw in sent)  # after the length
                  if frame["type"] == "table"]
        assert tables[0]["events"] == table.narrate(visible_events(table.log, seat))


# --------------------------------------------------------------------------------------------- cheating


async def _refusal(who, message):
    """Send a raw message and return the error the host answers with."""
    who.last_error = None
    await who.send(message)
    await who.wait_for(lambda snap: who.last_error is not None, WAIT)
    return who.last_error


class _Toy:
    """A two-seat toy table with a room code, both seats taken, a spectator watching."""

    async def __aenter__(self):
        self.table = Table(TOY, {"players": 2}, code="ROOM42")
        self.hosting = hosting(self.table)
        self.host = await self.hosting.__aenter__()
        self.players = [client(self.host, code="ROOM42") for _ in range(2)]
        self.spectator = client(self.host, role="spectator")
        for someone in [*self.players, self.spectator]:
            await someone.start()
        await self.players[0].wait_for(lambda snap: snap.prompt is not None, WAIT)
        return self

    def frozen(self):
        return clone(self.table.state), self.table.turn

    async def finish(self):
        """The game goes on after the refusals: play it to the end."""
        await asyncio.gather(*(play_randomly(p, random.Random(i)) for i, p in enumerate(self.players)))
        assert self.table.over

    async def __aexit__(self, *exc):
        await close_all(*self.players, self.spectator)
        await self.hosting.__aexit__(*exc)


async def _to_draw_phase(toy):
    """Both pick; the round's winner must now draw or pass, and the other seat is not to play."""
    for player in toy.players:
        await player.wait_for(lambda snap: snap.prompt is not None, WAIT)
        await player.choose(0)
    await toy.players[0].wait_for(lambda snap: snap.turn == 2, WAIT)
    winner = toy.table.state["last_winner"]
    return toy.players[winner], toy.players[1 - winner]


async def test_acting_out_of_turn_is_refused():
    """The seat the game is not waiting for is told so; nothing changes and the game goes on."""
    async with _Toy() as toy:
        winner, loser = await _to_draw_phase(toy)
        before = toy.frozen()
        error = await _refusal(loser, {"type": "act", "action": {"do": "draw"}, "prompt": 99})
        assert error["code"] == "not_your_turn" and "not waiting for Seat" in error["message"]
        assert toy.frozen() == before
        await toy.finish()


async def test_acting_for_another_seat_is_refused():
    """There is no way to name another seat: an act carries no seat, and an added one is refused."""
    async with _Toy() as toy:
        winner, loser = await _to_draw_phase(toy)
        before = toy.frozen()
        seat = winner.snapshot.seat
        error = await _refusal(loser, {"type": "act", "action": {"do": "draw"}, "prompt": 1, "seat": seat})
        assert error["code"] == "bad_message" and "unknown field 'seat'" in error["message"]
        assert toy.frozen() == before
        await toy.finish()


async def test_a_spectator_cannot_act():
    """Spectators watch; an action from one is refused."""
    async with _Toy() as toy:
        before = toy.frozen()
        choice = toy.players[0].snapshot.choices[0]["action"]
        error = await _refusal(toy.spectator, {"type": "act", "action": choice, "prompt": 1})
        assert error["code"] == "spectator" and "cannot play" in error["message"]
        assert toy.frozen() == before
        await toy.finish()


async def test_an_illegal_action_is_refused_naming_the_rule():
    """A card the player does not hold: refused by the rules, with the rule named, state untouched."""
    async with _Toy() as toy:
        player = toy.players[0]
        before = toy.frozen()
        missing = next(card for card in range(1, 17) if card not in player.snapshot.view["hand"])
        error = await _refusal(player, {"type": "act", "action": {"do": "pick", "card": missing},
                                        "prompt": player.snapshot.prompt["id"]})
        assert error["code"] == "illegal" and error["rule"] == "toy 2" and "not allowed" in error["message"]
        assert toy.frozen() == before
        await toy.finish()


async def test_an_answer_to_an_old_prompt_is_refused_as_stale():
    """An action sent for a prompt that has since changed is refused, not applied to the new situation."""
    async with _Toy() as toy:
        player = toy.players[0]
        old_prompt = player.snapshot.prompt["id"]
        await player.choose(0)
        await player.wait_for(lambda snap: snap.prompt is None or snap.prompt["id"] != old_prompt, WAIT)
        before = toy.frozen()
        error = await _refusal(player, {"type": "act", "action": {"do": "pass"}, "prompt": old_prompt})
        assert error["code"] in ("stale", "not_your_turn")
        assert toy.frozen() == before
        await toy.finish()


async def test_a_forged_token_is_refused_and_the_client_stops_retrying():
    """A made-up token takes no seat; the refusal is permanent, so the client gives up and says why."""
    async with _Toy() as toy:
        before = toy.frozen()
        forger = client(toy.host, token="A" * 32)
        with pytest.raises(ClientError, match="token is not known"):
            await forger.start()
        assert toy.frozen() == before
        await forger.close()
        await toy.finish()


async def test_a_stale_token_of_a_seat_handed_to_a_bot_is_refused():
    """Once the host hands a seat to a bot, the old token no longer seats anyone."""
    async with _Toy() as toy:
        leaver = toy.players[1]
        old_token = leaver.token
        await leaver.close()
        await toy.spectator.wait_for(lambda snap: not snap.seats[1]["connected"], WAIT)
        toy.host.table.hand_to_bot(1, why="was handed to a bot by the host")
        comeback = client(toy.host, token=old_token)
        with pytest.raises(ClientError, match="token is not known"):
            await comeback.start()
        await comeback.close()
        toy.players = toy.players[:1]
        await toy.finish()


async def test_hand_over_needs_the_host_token():
    """Only the host may hand a seat to a bot; a player who tries is refused."""
    async with _Toy() as toy:
        before = toy.frozen()
        error = await _refusal(toy.players[0], {"type": "hand_over", "seat": 1, "host_token": "guess"})
        assert error["code"] == "not_host"
        assert toy.table.seats[1].kind == "player" and toy.frozen() == before
        await toy.finish()


async def test_wrong_room_codes_are_refused_and_slowed_down_until_a_right_one():
    """A wrong code is refused; each further wrong code from the same address waits twice as long; the
    right code seats the player and resets the slowdown."""
    table = Table(TOY, {"players": 2}, code="ROOM42")
    async with hosting(table) as host:
        # The throttle's clock is the test's: each guess arrives just as the previous one's wait is over,
        # however long a busy machine took to send it, so the waits said are exact, not "about".
        now = [1000.0]
        host.throttle.clock = lambda: now[0]
        waits = []
        for _ in range(3):
            guesser = client(host, code="WRONG1")
            with pytest.raises(ClientError, match="room code is wrong"):
                await guesser.start()
            waits.append(guesser.last_error["retry_after"])
            await guesser.close()
            now[0] += waits[-1]
        assert waits == [FAST.wrong_code_delay, 2 * FAST.wrong_code_delay, 4 * FAST.wrong_code_delay]
        assert table.seating.taken() == 0
        honest = client(host, code="room42")  # codes are not case-sensitive
        await honest.start()
        assert honest.snapshot.seat == 0
        assert host.throttle.wait_time("127.0.0.1") == 0
        await honest.close()


def test_the_slowdown_doubles_up_to_a_cap_and_is_forgotten_after_a_quiet_spell():
    """The throttle's arithmetic, on a fake clock: doubling, capped under half the timeout, forgotten after
    the quiet spell; codes arriving together wait their turns, and one past the cap is refused at once."""
    from net.host import HostSettings, WrongCodeThrottle
    now = [100.0]
    throttle = WrongCodeThrottle(HostSettings(wrong_code_delay=1, wrong_code_cap=4, wrong_code_forget=60,
                                              timeout=6), clock=lambda: now[0])
    waits = []
    for _ in range(5):  # one at a time, each waiting its turn
        wait = throttle.arrive("a")
        now[0] += wait
        waits.append(wait)
        throttle.wrong("a")
    assert waits == [0, 1, 2, 3, 3] and throttle.longest_wait == 3
    assert throttle.wait_time("a") == 3 and throttle.wait_time("b") == 0
    assert [throttle.arrive("b") for _ in range(4)] == [0, 1, 3, None]  # all at once: counted on arrival
    now[0] += 61
    assert throttle.wait_time("a") == 0


async def test_messages_before_hello_and_a_second_hello_are_refused():
    """Nothing but hello before joining; hello only once."""
    async with _Toy() as toy:
        stranger = client(toy.host, role="spectator")
        await stranger.start()
        error = await _refusal(stranger, {"type": "hello", "protocol": PROTOCOL_VERSION, "role": "player"})
        assert error["code"] == "already_joined"
        await stranger.close()
        reader, writer = await asyncio.open_connection(*toy.host.address)
        from net import protocol
        writer.write(protocol.encode({"type": "act", "action": {"do": "pass"}, "prompt": 1}))
        reply = {"type": "ping"}
        while reply["type"] == "ping":  # the host's heartbeat goes to every connection, joined or not
            reply = await asyncio.wait_for(protocol.read_frame(reader, protocol.MAX_HOST_FRAME), WAIT)
        assert reply["type"] == "error" and reply["code"] == "not_joined"
        writer.close()
        await toy.finish()


async def test_a_full_table_refuses_another_player_for_good():
    """Every seat taken: a third player is refused permanently and pointed to spectating."""
    async with _Toy() as toy:
        third = client(toy.host, code="ROOM42")
        with pytest.raises(ClientError, match="watch as a spectator"):
            await third.start()
        await third.close()
        await toy.finish()


async def test_one_live_connection_per_seat_the_newest_wins():
    """The same seat joined again with its token: the old connection is told and stops; the new one has
    the seat and its pending prompt."""
    async with _Toy() as toy:
        first = toy.players[0]
        prompt = first.snapshot.prompt
        second = client(toy.host, token=first.token)
        await second.start()
        await first.wait_for(lambda snap: first.stopped is not None, WAIT)
        assert "newer connection" in first.stopped
        assert second.snapshot.seat == 0 and second.snapshot.prompt == prompt
        toy.players[0] = second
        await first.close()
        await toy.finish()


async def test_a_name_cannot_carry_terminal_escapes_to_other_players():
    """Names are shown on everyone's screen: control characters (an ANSI escape, say) are removed."""
    table = Table(TOY, {"players": 2}, code="ROOM42")
    async with hosting(table) as host:
        sly = client(host, code="ROOM42", name="\x1b[2JTom\x07\n")
        await sly.start()
        assert sly.snapshot.seats[0]["name"] == "[2JTom"
        await sly.close()


def test_a_boolean_is_not_taken_for_a_number_in_an_action():
    """`true` is not the card 1 (Python's True == 1). Actions are matched with their types
    (their msgpack bytes), so it is refused; the record never holds a value the player did not choose."""
    seed = next(seed for seed in range(1000) if 1 in TOY.setup({"players": 2}, seed)["hands"][0])
    table = Table(TOY, {"players": 2}, seed=seed)
    frames: list[bytes] = []
    tom = table.join(frames.append, {"type": "hello", "protocol": protocol.PROTOCOL_VERSION, "role": "player"})
    table.join(frames.append, {"type": "hello", "protocol": protocol.PROTOCOL_VERSION, "role": "player"})
    prompt = table.prompts[0].id
    for sly in ({"do": "pick", "card": True}, {"card": 1.0, "do": "pick"}):
        with pytest.raises(Refusal) as refused:
            pipeline.act(table, tom, sly, prompt)
        assert refused.value.code == "illegal"
    assert table.actions == []
    pipeline.act(table, tom, {"card": 1, "do": "pick"},
                 prompt)  # the same action with its keys in another order is fine
    assert table.actions == [[0, {"do": "pick", "card": 1}]] and type(table.actions[0][1]["card"]) is int


async def test_a_table_deals_again_to_the_same_seats_once_its_game_is_over(tmp_path):
    """Play again at a LAN table: the same seats and tokens, a fresh seed, and every connection sent the
    new game from its start; each is sent only its own view, no frame carries the new seed before its
    end, the last game's record stays whole beside the new one, and no one can deal while a game is on."""
    import msgpack

    from net.host import record_saver
    from net.record import read_record
    first_path, second_path = tmp_path / "first.record", tmp_path / "second.record"
    table = Table(TOY, {"players": 2}, seed=5, save=record_saver(first_path))
    async with hosting(table) as host:
        frames = {0: [], 1: [], None: []}
        players = [client(host, frame_log=frames[seat]) for seat in (0, 1)]
        spectator = client(host, role="spectator", frame_log=frames[None])
        for someone in (*players, spectator):
            await someone.start()
        with pytest.raises(Refusal):
            table.start_again()
        tokens = [player.token for player in players]
        await asyncio.gather(*(play_randomly(player, random.Random(seat)) for seat, player in enumerate(players)))
        first_actions = len(table.actions)
        last_prompt_ids = [max(m["prompt"]["id"] for m in frames[seat] if m["type"] == "table" and m["prompt"])
                           for seat in (0, 1)]
        sent_before = {seat: len(log) for seat, log in frames.items()}

        host.table.start_again(seed=77, save=record_saver(second_path))
        for someone in (*players, spectator):
            await someone.wait_for(lambda snap: snap.result is None and snap.turn == 0, WAIT)
        assert table.seed == 77 and [info.token for info in table.seats] == tokens
        assert read_record(first_path)["seed"] == 5 and len(read_record(first_path)["actions"]) == first_actions
        assert read_record(second_path)["seed"] == 77 and read_record(second_path)["actions"] == []
        for seat, log in frames.items():
            new_game = [message for message in log[sent_before[seat]:] if message["type"] == "table"]
            assert new_game[0]["catch_up"] and new_game[0]["view"] == TOY.view(table.state, seat)
            assert new_game[0]["events"] == visible_events(table.narrate(table.log), seat)
            assert new_game[0]["events"][0]["text"] == "A new game begins at this table: same seats, a fresh deal."
        # An answer to the last game's prompt can never fit the new game's first.
        for seat, player in enumerate(players):
            if player.snapshot.prompt is not None:
                assert player.snapshot.prompt["id"] > last_prompt_ids[seat]
        await asyncio.gather(*(play_randomly(player, random.Random(seat + 9)) for seat, player in enumerate(players)))
        seed_bytes = msgpack.packb(77)
        for seat, log in frames.items():
            for message in log[sent_before[seat]:]:
                if message["type"] == "table" and message["result"] is None:
                    assert seed_bytes not in protocol.encode(message)
        assert len(read_record(second_path)["actions"]) == len(table.actions) > 0
        await close_all(*players, spectator)


async def test_before_the_first_move_a_seat_filling_retells_the_deal_with_its_name():
    """The deal's line names the seats as they are filled ("Seat 2 deals" must not stay all game, told
    while seat 2 was empty). Until the first move, each seat filled sends everyone the log again in the
    new names; after it, the log only grows (a plain update)."""
    from core.registry import get_game
    highwayman = get_game("highwayman")
    table = Table(highwayman, {"players": 2}, seed=3)
    assert any("Seat 2" in event["text"] for event in table.log), "the case means something: the deal names seat 2"
    async with hosting(table) as host:
        ann = client(host, name="Ann")
        await ann.start()
        bob = client(host, name="Bob")
        await bob.start()
        await ann.wait_for(lambda snap: snap.started, WAIT)
        told = visible_events(table.narrate(table.log), 0)
        assert ann.snapshot.log == told and not any("Seat 2" in event["text"] for event in told)
        seat = highwayman.pending(table.state)[0]
        mover = (ann, bob)[seat]
        await mover.choose(0)
        await mover.wait_for(lambda snap: snap.turn == 1, WAIT)
        catch_ups, log = mover.snapshot.catch_ups, list(mover.snapshot.log)
        host.table.hand_to_bot(1 - seat, why="was handed to a bot by the host")
        await mover.wait_for(lambda snap: snap.seats[1 - seat]["kind"] == "bot", WAIT)
        assert mover.snapshot.catch_ups == catch_ups and mover.snapshot.log[:len(log)] == log
        await close_all(ann, bob)
