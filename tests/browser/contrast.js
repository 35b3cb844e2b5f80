// WCAG 2 contrast of every visible piece of text on the page, against what is painted behind it.
// Text hidden under a modal overlay is not checked (text outside the viewport is).
//
// Loaded by tests/browser/test_contrast.py and evaluated as `(scope) => [...]`. For each element
// with its own visible text, the backgrounds of it and its ancestors are stacked up to the first
// opaque one; a gradient counts with each of its colour stops, so the worst stop decides (a
// conservative reading of a gradient). Returns the pieces of text below the WCAG AA ratio:
// 4.5:1, or 3:1 for large text (24 px, or 18.66 px bold).
// An ancestor's opacity fades the text by as much. Inactive controls (disabled, aria-disabled) are
// exempt, as WCAG exempts them.
(scope) => {
  const parse = (text) => {
    const m = text.match(/rgba?\(([^)]+)\)/);
    if (!m) return null;
    const parts = m[1].split(/[ ,/]+/).filter(Boolean).map(Number);
    return [parts[0], parts[1], parts[2], parts.length > 3 ? parts[3] : 1];
  };
  const over = (top, bottom) => {
    const a = top[3];
    return [0, 1, 2].map((i) => top[i] * a + bottom[i] * (1 - a)).concat([1]);
  };
  const luminance = ([r, g, b]) => {
    const lin = (c) => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
  };
  const ratio = (x, y) => {
    const [l1, l2] = [luminance(x), luminance(y)].sort((a, b) => b - a);
    return (l1 + 0.05) / (l2 + 0.05);
  };
  // The colours one element paints behind its content: its background colour and gradient stops.
  const layers = (el) => {
    const style = getComputedStyle(el);
    const found = [];
    const color = parse(style.backgroundColor);
    if (color && color[3] > 0) found.push([color]);
    const stops = [...style.backgroundImage.matchAll(/rgba?\([^)]+\)/g)].map((m) => parse(m[0]));
    if (stops.length) found.push(stops);
    return found;
  };
  // Every colour that may be behind `el`, from the nearest opaque layer up to el itself.
  const backdrops = (el) => {
    const stack = [];
    for (let node = el; node; node = node.parentElement) {
      for (const layer of layers(node)) stack.push(layer);
      const opaque = stack.some((layer) => layer.every((c) => c[3] >= 0.999));
      if (opaque) break;
    }
    let colours = [[255, 255, 255, 1]];  // the page's canvas if nothing is opaque
    for (const layer of stack.reverse()) {
      colours = layer.flatMap((top) => colours.map((bottom) => over(top, bottom))).slice(0, 64);
    }
    return colours;
  };
  const inactive = (el) => !!el.closest(":disabled, [aria-disabled=true], [inert]");
  const visible = (el) => {
    const box = el.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) return false;
    for (let node = el; node; node = node.parentElement) {
      const style = getComputedStyle(node);
      if (style.visibility === "hidden" || style.display === "none" || Number(style.opacity) === 0) return false;
      if (style.clip === "rect(0px, 0px, 0px, 0px)") return false;  // visually hidden, for screen readers
    }
    // under a modal overlay (the game-over panel, the pass-and-play cover) the page is background
    const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    return !hit || el.contains(hit) || hit.contains(el);
  };
  const failures = [];
  for (const el of document.querySelectorAll(`${scope} *`)) {
    const text = [...el.childNodes].filter((n) => n.nodeType === Node.TEXT_NODE).map((n) => n.textContent).join("").trim();
    if (!text || !visible(el) || inactive(el) || el.closest("svg, option")) continue;
    const style = getComputedStyle(el);
    let ink = parse(style.color);
    for (let node = el; node; node = node.parentElement) ink[3] *= Number(getComputedStyle(node).opacity);
    const size = parseFloat(style.fontSize);
    const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
    const needed = large ? 3 : 4.5;
    const worst = Math.min(...backdrops(el).map((bg) => ratio(ink[3] < 1 ? over(ink, bg) : ink, bg)));
    if (worst < needed) failures.push(`${text.slice(0, 40)} (${el.tagName.toLowerCase()}.${el.className}): ${worst.toFixed(2)} < ${needed}`);
  }
  return failures;
}
