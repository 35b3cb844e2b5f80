"""URL-safe forms of positions and records, for share links: ``p1``/``r1`` + base64url of raw deflate.

Only the encoding: ``durak.record.url_safe`` reads the text first, so that only a valid game gets a link.

The deflate stream uses a preset dictionary of the notation's common words (fixed for version 1: a stream
made without it decodes too, so a page may compress with the browser's own CompressionStream). Decoding
refuses oversize input and anything that does not inflate to UTF-8 text of the kind the prefix names.
"""

from __future__ import annotations

import base64
import binascii
import re
import zlib

from .notation import RecordError, error
from .position import MAX_TEXT

#: A share link longer than this is refused before decoding (browsers and servers cut URLs near 8 kB+).
MAX_URL_SAFE = 16_000
_KINDS = {"p": "position", "r": "record"}
_URL_VERSION = "1"
_URL_TEXT = re.compile(r"[A-Za-z0-9_-]*")
#: A preset deflate dictionary (version 1, never to change): the words records and positions repeat.
_ZDICT = (
    b' talon=- hands= table=- discard=* dealer=0 attacker=1 defender=0 opener=1 turn=0 limit=6 round=1 first '
    b'passed= known= emptied= out= result=durak: trump= podkidnoy/2p/36 perevodnoy/3p/36 prostoy/4p/36 '
    b'[Rules "podkidnoy/2p/36"]\n[Seed "\n[Dealer "0"]\n[FirstGame "yes"]\n[Start "\n[Result "*"]\n'
    b'[Player0 "\n[Player1 "\n[Example "\n[Title "\n'
    b' attack 6S 7H 8D 9C 10S JH QD KC AS  defend 10H JD QC KS AH  transfer  take  pass  exchange\n'
    b'1. s0 attack 2. s1 defend 3. s0 pass\n4. s1 take\n5. s0 attack '
)


def _kind_of(text: str) -> str:
    return "r" if text.lstrip().startswith("[") else "p"


def is_record(text: str) -> bool:
    """Whether ``text`` is a record (it opens with a tag), else a position."""
    return _kind_of(text) == "r"


def compact(text: str) -> str:
    """``p1``/``r1`` + base64url of the raw deflate of ``text``, a position or a record read beforehand."""
    kind = _kind_of(text)
    packer = zlib.compressobj(9, zlib.DEFLATED, -15, 9, zlib.Z_DEFAULT_STRATEGY, _ZDICT)
    packed = packer.compress(text.encode("utf-8")) + packer.flush()
    return kind + _URL_VERSION + base64.urlsafe_b64encode(packed).rstrip(b"=").decode("ascii")


def from_url_safe(value: object, expect: str | None = None) -> str:
    """The text a ``url_safe`` string holds; ``expect`` ``"position"`` or ``"record"`` insists on one kind.

    Only decodes: read the text with ``Game.from_position`` or ``parse_record``.
    """
    if not isinstance(value, str):
        raise error("record.bad_url", f"expected text, not {type(value).__name__}")
    if len(value) > MAX_URL_SAFE:
        raise error("record.too_long", f"a link of {len(value)} characters is too long", size=len(value))
    if len(value) < 2 or value[0] not in _KINDS or value[1] != _URL_VERSION:
        raise error("record.bad_url", "a link value starts with p1 (position) or r1 (record)",
                    token=value[:8])
    kind = _KINDS[value[0]]
    if expect is not None and expect != kind:
        raise error("record.bad_url", f"expected a {expect}, got a {kind}", token=value[:8])
    body = value[2:]
    if not _URL_TEXT.fullmatch(body) or len(body) % 4 == 1:
        raise error("record.bad_url", "the link's text is not base64url", token=value[:8])
    try:
        packed = base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))
        unpacker = zlib.decompressobj(-15, _ZDICT)
        raw = unpacker.decompress(packed, MAX_TEXT * 4)
        if unpacker.unconsumed_tail or not unpacker.eof:
            raise error("record.bad_url", "the link's text is cut short or too long", token=value[:8])
        text = raw.decode("utf-8")
    except (binascii.Error, zlib.error, UnicodeDecodeError, ValueError) as problem:
        if isinstance(problem, RecordError):
            raise
        raise error("record.bad_url", "the link's text cannot be decoded", token=value[:8]) from None
    if _kind_of(text) != value[0]:
        raise error("record.bad_url", f"the link says {kind} but holds something else", token=value[:8])
    return text
