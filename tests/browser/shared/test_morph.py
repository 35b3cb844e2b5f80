"""web/shared/morph.js, which writes the worker's frames into the table's regions: the result is exactly the
frame's HTML, and the elements that stay (cards by their data-card) are the same nodes, so the browser
restyles only what changed and a focused card keeps the focus."""

from __future__ import annotations

from playwright.sync_api import Page

# Each case: the region's HTML before, then after; `kept` names the cards that must stay the same node.
CASES = [
    ('<button data-card="6H" data-playable="false">6</button><button data-card="7S">7</button>',
     '<button data-card="6H" data-playable="true">6</button><button data-card="7S">7</button>', ["6H", "7S"]),
    ('<button data-card="6H">6</button><button data-card="7S">7</button><button data-card="8D">8</button>',
     '<button data-card="6H">6</button><button data-card="8D">8</button>', ["6H", "8D"]),
    ('<button data-card="6H">6</button><button data-card="8D">8</button>',
     '<button data-card="6H">6</button><button data-card="QC" class="new">Q</button><button data-card="8D">8</button>',
     ["6H", "8D"]),
    ('<div class="pair"><button data-card="6H" aria-disabled="true">6</button></div><p>Bot 1: 6 cards</p>',
     '<div class="pair"><button data-card="6H">6</button><button data-card="9H">9</button></div>'
     '<p>Bot 1: 5 cards</p>', ["6H"]),
    ('<span class="mark"><svg aria-hidden="true"><use href="#icon-sword"></use></svg>Attacker</span>',
     '<span class="mark"><svg aria-hidden="true"><use href="#icon-shield"></use></svg>Defender</span><!-- x -->',
     []),
    ('<button data-card="6H">6</button><button data-card="7S">7</button><button data-card="8D">8</button>',
     '<button data-card="8D">8</button><button data-card="6H">6</button><button data-card="7S">7</button>',
     ["6H", "7S", "8D"]),
    ('<button data-card="6H">6</button>', '', []),
    ('', '<section class="seat" data-seat="1"><div class="seat-backs"></div></section>', []),
]

MORPH_CASE = """async ([before, after, kept]) => {
  const { morph } = await import("./web/shared/morph.js");
  const region = document.createElement("div");
  document.body.append(region);
  region.innerHTML = before;
  const nodes = Object.fromEntries(kept.map((card) => [card, region.querySelector(`[data-card="${card}"]`)]));
  const expected = document.createElement("div");
  expected.innerHTML = after;
  morph(region, after);
  const result = { html: region.innerHTML, expected: expected.innerHTML,
                   lost: kept.filter((card) => region.querySelector(`[data-card="${card}"]`) !== nodes[card]) };
  region.remove();
  return result;
}"""


def blank_page_at_the_root(page: Page, base_url: str) -> None:
    """An empty document at the site's root (served by a route), from which ./web/shared/morph.js is imported."""
    url = f"{base_url.rstrip('/')}/morph-test.html"
    page.route(url, lambda route: route.fulfill(content_type="text/html", body="<!doctype html><title>morph</title>"))
    page.goto(url)


def test_a_region_ends_exactly_as_the_frame_says_and_keeps_the_cards_that_stay(page: Page, base_url: str) -> None:
    blank_page_at_the_root(page, base_url)
    for before, after, kept in CASES:
        result = page.evaluate(MORPH_CASE, [before, after, kept])
        assert result["html"] == result["expected"], (before, after)
        assert result["lost"] == [], f"cards rebuilt instead of kept: {result['lost']} ({before!r} -> {after!r})"


def test_a_focused_card_stays_focused_and_the_same_node_when_a_frame_changes_its_hand(
        page: Page, base_url: str) -> None:
    blank_page_at_the_root(page, base_url)
    focused = page.evaluate("""async () => {
      const { morph } = await import("./web/shared/morph.js");
      const hand = document.createElement("div");
      document.body.append(hand);
      hand.innerHTML = '<button data-card="6H">6</button><button data-card="7S">7</button>';
      const seven = hand.querySelector('[data-card="7S"]');
      seven.focus();
      morph(hand, '<button data-card="7S" data-playable="true">7</button><button data-card="KD">K</button>');
      return document.activeElement === seven && seven.isConnected;
    }""")
    assert focused
