"""The embeds' shared engine (web/worker/engine-shared-worker.mjs): the frames of one page that connect to it get
one boot, their own answers under their own ids, their own "try it" sessions, and their own refusals.

Spoken to directly here, over SharedWorker ports from a page of the site, as web/examples/stepper.js's
loadWorkerEngine({shared: true}) speaks to it from each embed frame (tests/browser/embed/test_embed.py has the
frames themselves).
"""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page

from tests.browser.helpers import rebuild

PAGE = "embed.html?example=podkidnoy-limit-take&lang=en"  # an example: it starts no engine of its own
RULES = {"variant": "podkidnoy", "players": 2}

# Ports to a shared engine named for this test (not the page's own), each with a queue of what came.
PORTS_JS = """() => {
  const url = new URL("web/worker/engine-shared-worker.mjs", location.href);
  const boot = {t: "boot", search: "", langs: ["en"], store: {}, embedded: true,
                viewport: {width: 800, height: 600}, controlled: false};
  window.openPort = () => {
    const worker = new SharedWorker(url, {type: "module", name: "durak-engine-test"});
    const port = {came: [], waiters: [], post: (m) => worker.port.postMessage(m)};
    worker.port.onmessage = ({data}) => {
      port.came.push(data);
      port.waiters.splice(0).forEach((wake) => wake());
    };
    // The first message that came (and is not yet taken) for which `wanted` holds.
    port.next = (wanted) => new Promise((resolve) => {
      const look = () => {
        const at = port.came.findIndex(wanted);
        if (at >= 0) return resolve(port.came.splice(at, 1)[0]);
        port.waiters.push(look);
      };
      look();
    });
    return port;
  };
  window.bootMessage = boot;
}"""

SCENARIO_JS = """async ([rules]) => {
  const [a, b] = [openPort(), openPort()];
  const is = (t, id) => (m) => m.t === t && (id === undefined || m.id === id);
  const out = {};
  b.post({t: "engine", id: 1, method: "deal", args: [rules, 7]});
  out.notBooted = await b.next(is("refused", 1));
  a.post({nothing: true});
  out.malformed = await a.next(is("refused"));
  a.post({...bootMessage, search: 1});
  out.badBoot = await a.next(is("refused"));
  a.post({t: "gesture", seq: 1});
  out.tableMessage = await a.next(is("refused"));
  a.post(bootMessage);
  out.readyA = await a.next(is("ready"));
  b.post(bootMessage);  // booted already: b gets the same ready, no second boot
  out.readyB = await b.next(is("ready"));
  const c = openPort();
  c.post(bootMessage);
  out.readyC = await c.next(is("ready"));
  out.strayA = a.came.filter((m) => m.t === "refused");  // b's and c's refusals are not a's

  // The same id from two frames at once: each gets its own answer.
  a.post({t: "engine", id: 5, method: "deal", args: [rules, 7]});
  b.post({t: "engine", id: 5, method: "deal", args: [rules, 8]});
  out.dealA = await a.next(is("answer", 5));
  out.dealB = await b.next(is("answer", 5));
  a.post({t: "engine", id: 6, method: "deal", args: [rules, 7]});
  out.dealAgain = await a.next(is("answer", 6));

  // A try-it session is its frame's: b has none for the example a started.
  const built = await (await fetch("rules/frames/en/podkidnoy-limit-take.json")).json();
  const example = built.example;
  a.post({t: "engine", id: 7, method: "start", args: [example.id, example.frames[0].position, example.names, "en"]});
  out.started = await a.next((m) => m.id === 7);
  b.post({t: "engine", id: 8, method: "reply", args: [example.id]});
  out.otherFrame = await b.next((m) => m.id === 8);
  return out;
}"""


def test_frames_share_one_boot_and_keep_their_own_answers_sessions_and_refusals(page: Page) -> None:
    rebuild()  # the worker imports web/ and durak/ from web/modules.zip
    page.goto(PAGE)
    page.evaluate(PORTS_JS)
    out: dict[str, Any] = page.evaluate(SCENARIO_JS, [RULES])

    assert (out["notBooted"]["code"], out["notBooted"]["id"]) == ("not_booted", 1), out["notBooted"]
    assert out["malformed"]["code"] == "bad_message", out["malformed"]
    assert out["badBoot"]["code"] == "bad_boot", out["badBoot"]
    assert out["tableMessage"]["code"] == "bad_message", out["tableMessage"]
    assert out["strayA"] == [], "another frame's refusal reached this one"

    booted = out["readyA"]["boot"]["received"]
    assert out["readyB"]["boot"]["received"] == booted and out["readyC"]["boot"]["received"] == booted, (
        "a frame that came later booted a second engine")

    deal_a, deal_b = out["dealA"]["result"], out["dealB"]["result"]
    assert deal_a["position"] != deal_b["position"], "both frames got the same answer"
    assert out["dealAgain"]["result"] == deal_a, "seed 7's deal went to the frame that asked for seed 8"

    assert out["started"]["t"] == "answer", out["started"]
    other = out["otherFrame"]
    assert other["t"] == "error" and "start it first" in other["text"], (
        f"a frame played in another frame's try-it session: {other}")
