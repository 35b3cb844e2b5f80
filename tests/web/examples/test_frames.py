"""The words an example's board is drawn with (web/examples/frames.py's board_labels)."""

from __future__ import annotations

import pytest

from web.examples.frames import COUNTED, board_labels, count_forms
from web.shared.i18n import LANGS, tn


def as_the_page_reads_it(forms: list[str], pattern: str, n: int) -> str:
    """web/examples/stepper.js's `count`: n's form, picked by the pattern's n-th character, with n in it."""
    return forms[int(pattern[min(n, len(pattern) - 1)])].replace("{n}", str(n))


@pytest.mark.parametrize("lang", LANGS)
def test_each_count_reads_as_its_catalogue_says_from_a_few_forms(lang: str) -> None:
    counts = board_labels(lang)["counts"]
    assert set(counts) == set(COUNTED)
    for key, message in COUNTED.items():
        forms, pattern = counts[key]
        assert len(pattern) == 53 and len(forms) <= 4, (lang, key, forms)
        for n in range(53):
            assert as_the_page_reads_it(forms, pattern, n) == tn(lang, message, n), (lang, key, n)


def test_russian_counts_keep_their_three_forms() -> None:
    forms, pattern = count_forms("ru", "cards_count")
    assert [as_the_page_reads_it(forms, pattern, n) for n in (1, 2, 5, 11, 21, 22, 25)] == [
        "1 карта", "2 карты", "5 карт", "11 карт", "21 карта", "22 карты", "25 карт"]
