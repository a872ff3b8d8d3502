"""How the host treats its connections: heartbeats, queues, budgets and waits, in one plain dataclass.

Every number the host's transport goes by is here, so tests can shorten the times and nothing else in
``net.host`` hides a constant of its own. The defaults suit a LAN.
"""

from __future__ import annotations

from dataclasses import dataclass

from net import protocol


@dataclass
class HostSettings:
    """How the host treats its connections. Tests shorten the times; the defaults suit a LAN."""

    #: Seconds between pings to every peer.
    heartbeat: float = protocol.HEARTBEAT_SECONDS
    #: Seconds without a frame from a peer before it is dropped (a frozen client is noticed by then).
    timeout: float = protocol.TIMEOUT_SECONDS
    #: Frames waiting for one connection before it counts as too slow and is dropped.
    send_queue: int = 256
    #: Bytes the transport may hold for one connection before further frames wait in its queue.
    write_buffer: int = 256 * 1024
    max_connections: int = 1024
    #: Seconds a bot waits before acting, so people can follow; 0 in tests and benchmarks.
    bot_delay: float = 0.0
    #: Seconds a bot waits after a person's move that may be taken back, before it moves (its move closes
    #: the window): a real chance to press U. Only where bots wait for people at all (``bot_delay`` > 0).
    take_back_grace: float = 4.0
    #: Seconds a bot may think about one move before the normal bot makes it instead (with a notice).
    bot_deadline: float = 5.0
    #: Longest wait between looks at the turn clocks (the next deadline is looked at sooner); tests whose
    #: clock is driven by hand shorten it.
    clock_poll: float = 0.5
    #: First wait after a wrong room code; it doubles per wrong code up to the cap.
    wrong_code_delay: float = 0.5
    wrong_code_cap: float = 8.0
    #: A quiet spell after which an address's wrong codes are forgotten.
    wrong_code_forget: float = 60.0
    #: Spectators one table lets in; the rest are refused, so seats and new players always find room.
    max_spectators: int = 200
    #: Connections from one address that have not joined (yet) at one time.
    max_unjoined_per_address: int = 16
    #: Seconds a connection may stay without joining before it is dropped.
    join_deadline: float = 30.0
    #: Refused requests (moves out of turn, illegal or stale, bad messages) one connection may send at
    #: once, and how many more it earns per second; past them it is closed (``too_many_refusals``).
    refusal_burst: int = 40
    refusals_per_second: float = 10.0
    #: Seconds a seat token closed for too many refusals (or messages) waits before it may join again.
    refusal_cooldown: float = 5.0
    #: Messages of any kind (pings, pongs, ``here``, valid or not) one connection may send at once, and how
    #: many more it earns per second, joined or not; past them it is closed (``too_many_messages``). A
    #: person's program sends a ping and a pong every heartbeat and a move now and then.
    message_burst: int = 200
    messages_per_second: float = 50.0
