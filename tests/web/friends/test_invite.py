"""Invites and replies: Chromium's SDP packed into a short code and rebuilt with every field it needs."""

from __future__ import annotations

import re

import pytest

from web.friends.invite import (
    InviteError,
    invite_code,
    link,
    meeting_key,
    meeting_link,
    new_key,
    parse_invite,
    parse_relays,
    parse_reply,
    reply_code,
    room_id,
)

# An offer and an answer as Chromium 156 made them here (one data channel, no STUN), the offer's ICE
# credentials set by the host as web/friends/net.js does.
OFFER = """v=0\r
o=- 6941244075819683554 2 IN IP4 127.0.0.1\r
s=-\r
t=0 0\r
a=group:BUNDLE 0\r
a=extmap-allow-mixed\r
a=msid-semantic: WMS\r
m=application 9 UDP/DTLS/SCTP webrtc-datachannel\r
c=IN IP4 0.0.0.0\r
a=candidate:2198035313 1 udp 2113937151 408e6f2d-95c9-45d0-ac3b-f381ae10370d.local 51456 typ host generation 0 \
network-cost 999\r
a=candidate:1214618257 1 udp 2113942271 038b9af5-16cf-4c8a-b431-f336be5f4c9b.local 35984 typ host generation 0 \
network-cost 999\r
a=candidate:3 1 tcp 1518280447 192.168.1.5 9 typ host tcptype active generation 0\r
a=candidate:4 1 udp 1686052607 203.0.113.7 40000 typ srflx raddr 192.168.1.5 rport 51456 generation 0\r
a=ice-ufrag:Ab3d\r
a=ice-pwd:abcdefghijklmnopqrstuvwx\r
a=ice-options:trickle\r
a=fingerprint:sha-256 09:CC:23:F8:92:DE:E0:0C:3A:0B:58:03:A6:75:75:3C:28:50:2B:0B:6B:8C:D2:5C:79:B8:BE:50:0F:11:F8:E4\r
a=setup:actpass\r
a=mid:0\r
a=sctp-port:5000\r
a=max-message-size:262144\r
"""
ANSWER = """v=0\r
o=- 4847908178556486108 2 IN IP4 127.0.0.1\r
s=-\r
t=0 0\r
a=group:BUNDLE 0\r
a=msid-semantic: WMS\r
m=application 9 UDP/DTLS/SCTP webrtc-datachannel\r
c=IN IP4 0.0.0.0\r
a=candidate:682138760 1 udp 2113937151 19fe422d-1819-40c1-b454-8c07848506bc.local 35417 typ host generation 0 \
network-cost 999\r
a=candidate:9 1 udp 2113937150 ::1 35418 typ host generation 0\r
a=ice-ufrag:uTul\r
a=ice-pwd:n7n0jsTvxlWSQW1N1HI6Iv0G\r
a=ice-options:trickle\r
a=fingerprint:sha-256 3D:A0:0A:FC:CD:CA:8A:B8:64:A0:7B:89:EA:9F:D2:51:A7:48:99:38:EE:FC:FF:00:71:CD:4D:38:7B:59:4D:44\r
a=setup:active\r
a=mid:0\r
a=sctp-port:5000\r
a=max-message-size:262144\r
"""
SECRET = "q1w2e3r4t5y6u7i8o9p0aA"  # 16 bytes in URL-safe base64
BASE = "https://friends.example.org/durak/index.html"


def fields(sdp: str) -> dict[str, object]:
    return {
        "ufrag": re.search(r"a=ice-ufrag:(\S+)", sdp).group(1),  # type: ignore[union-attr]
        "pwd": re.search(r"a=ice-pwd:(\S+)", sdp).group(1),  # type: ignore[union-attr]
        "fingerprint": re.search(r"a=fingerprint:(.+?)\r", sdp).group(1),  # type: ignore[union-attr]
        "setup": re.search(r"a=setup:(\S+)", sdp).group(1),  # type: ignore[union-attr]
        "candidates": re.findall(r"a=candidate:\S+ 1 udp \d+ (\S+) (\d+) typ (\S+)", sdp),
    }


def test_an_invite_carries_seat_secret_and_every_field_of_the_offer() -> None:
    code = invite_code(2, SECRET, OFFER)
    invite = parse_invite(code)
    assert invite.seat == 2 and invite.secret == SECRET
    assert fields(invite.sdp) == fields(OFFER)
    assert "tcp" not in invite.sdp  # TCP candidates are left out: UDP reaches every peer that TCP would here


def test_a_reply_carries_seat_name_and_the_answer() -> None:
    code = reply_code(1, "Zoé <b>", ANSWER)
    reply = parse_reply(code)
    assert (reply.seat, reply.name) == (1, "Zoé <b>")
    assert fields(reply.sdp) == fields(ANSWER)


def test_links_are_short() -> None:
    invite = link(BASE + "?lang=fr", "join", invite_code(5, SECRET, OFFER))
    assert invite.startswith(BASE + "#join=") and len(invite) <= 400, len(invite)
    assert parse_invite(invite).seat == 5
    reply = link(BASE, "reply", reply_code(1, "x" * 24, ANSWER))
    assert len(reply) <= 400 and parse_reply(reply).name == "x" * 24


def test_pasted_codes_may_carry_spaces_and_line_breaks() -> None:
    code = reply_code(1, "Ann", ANSWER)
    assert parse_reply(" " + code[:20] + "\n" + code[20:] + " ").name == "Ann"


@pytest.mark.parametrize("damage", [
    lambda c: c[:-5],  # cut short
    lambda c: c + "AAAA",  # extra bytes
    lambda c: "B" + c[1:],  # another version
    lambda c: c[:10] + "!" + c[11:],  # not base64
    lambda c: "",
])
def test_a_damaged_invite_is_refused(damage: object) -> None:
    code = invite_code(1, SECRET, OFFER)
    with pytest.raises(InviteError):
        parse_invite(damage(code))  # type: ignore[operator]


def test_a_reply_is_not_an_invite() -> None:
    with pytest.raises(InviteError):
        parse_invite(reply_code(1, "Ann", ANSWER))
    with pytest.raises(InviteError):
        parse_reply(invite_code(1, SECRET, OFFER))


def test_an_invite_link_carries_its_key_and_the_tables_own_relays() -> None:
    key = new_key()
    assert len(key) == 22 and re.fullmatch(r"[A-Za-z0-9_-]+", key)
    assert new_key() != key
    code = invite_code(2, SECRET, OFFER)
    url = meeting_link("http://x.test/index.html?speed=instant#old", "ws://127.0.0.1:9/,wss://r.test/a", code, key)
    assert url == f"http://x.test/index.html?relays=ws://127.0.0.1:9/,wss://r.test/a#join={code}&k={key}"
    fragment = url.split("#", 1)[1]
    assert meeting_key(fragment) == key
    assert parse_invite(fragment).seat == 2
    assert parse_relays(url.split("#")[0].split("?")[1]) == "ws://127.0.0.1:9/,wss://r.test/a"
    assert meeting_link("http://x.test/", "", code, key) == f"http://x.test/#join={code}&k={key}"


@pytest.mark.parametrize("fragment", ["join=abc", "join=abc&k=", "join=abc&k=short", "join=abc&k=" + "!" * 22,
                                      "join=abc&k=" + "A" * 23])
def test_a_missing_or_damaged_key_is_no_key(fragment: str) -> None:
    assert meeting_key(fragment) == ""


def test_only_websocket_relays_are_kept() -> None:
    assert parse_relays("relays=http://a.test,ws://ok.test/,javascript:alert(1),wss://b.test/x y") == "ws://ok.test/"
    assert parse_relays("speed=instant") == ""
    assert parse_relays("relays=" + ",".join(f"ws://r{i}.test/" for i in range(20))).count(",") == 7


def test_the_relays_room_hides_both_secret_and_key() -> None:
    room = room_id(SECRET)
    assert re.fullmatch(r"[0-9a-f]{40}", room)
    assert SECRET not in room and room != room_id(SECRET[::-1])
