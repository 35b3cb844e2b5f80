"""Messages as data: a stable code and JSON-safe parameters first, an English sentence second.

Every refusal the engine raises (``IllegalAction``, ``RulesError``, ``SaveError``, ``RecordError``, ...) and
every line the narrator or the AI's hints produce is a ``Message``. The English text serves the terminal,
logs and tests; a page renders ``code`` and ``params`` from its own catalogue, so a French guest at an
English host reads French. Parameters follow one convention so every language can render them: cards are
notation strings ("8H"), several cards a list of them, seats and counts ints, ranks ints (2..14).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

ParamValue = str | int | bool | None | list[Any] | dict[str, Any]  # a dict: a nested refusal's params


@dataclass(frozen=True)
class Message:
    """A code, its parameters and the English sentence that says the same."""

    code: str
    params: dict[str, ParamValue] = field(default_factory=dict)
    text: str = ""

    def to_dict(self) -> dict[str, Any]:
        """The JSON-safe form that travels to pages and remote seats (the English text included)."""
        return {"code": self.code, "params": dict(self.params), "text": self.text}

    def __str__(self) -> str:
        return self.text or self.code


class CodedError(ValueError):
    """A refusal whose ``str()`` is English and whose ``code`` and ``params`` let a page translate it."""

    default_code = "error"

    def __init__(self, text: str, code: str | None = None, **params: ParamValue) -> None:
        super().__init__(text)
        self.code = code or self.default_code
        self.params: dict[str, ParamValue] = params

    @property
    def message(self) -> Message:
        return Message(self.code, dict(self.params), str(self))
