"""web/shared/markup.py's escape writes what the standard library's html.escape writes, for any text."""

from __future__ import annotations

import html

from hypothesis import given
from hypothesis import strategies as st

from web.shared.markup import escape

MARKUP = st.text(alphabet=st.sampled_from("&<>\"'; #x27amp lt gt quot ♥é\u00a0\n"), max_size=40)


@given(st.one_of(st.text(), MARKUP))
def test_escape_matches_the_standard_librarys(text: str) -> None:
    assert escape(text) == html.escape(text)


def test_every_special_character_becomes_a_reference_and_the_rest_stays() -> None:
    assert escape("<b title=\"Q&A\">it's</b> ♥") == "&lt;b title=&quot;Q&amp;A&quot;&gt;it&#x27;s&lt;/b&gt; ♥"
    assert escape("&amp;") == "&amp;amp;"  # not idempotent: escaped text escapes again, as html.escape does
