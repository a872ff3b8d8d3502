"""A table's refusals: a request refused with an error code from ``protocol.ERROR_CODES`` and words a
player understands; a refused request never touches the state."""

from __future__ import annotations

from typing import Any

from net import protocol
from net.protocol import error_message


class Refusal(Exception):
    """A request the table refuses: ``code`` from ``protocol.ERROR_CODES`` and a message for a person."""

    def __init__(self, code: str, message: str | None = None, rule: str | None = None,
                 retry_after: float | None = None) -> None:
        self.code = code
        self.message = message or protocol.ERROR_CODES[code]
        self.rule = rule
        self.retry_after = retry_after
        super().__init__(self.message)

    def as_message(self) -> dict[str, Any]:
        return error_message(self.code, self.message, rule=self.rule, retry_after=self.retry_after)


def check_protocol(hello: dict[str, Any]) -> None:
    """Refuse a hello in another protocol version: the two programs would misread each other."""
    if hello["protocol"] != protocol.PROTOCOL_VERSION:
        raise Refusal("version", f"this table speaks protocol {protocol.PROTOCOL_VERSION}; your program "
                                 f"speaks {hello['protocol']}. Use the same version of turpin as the host.")
