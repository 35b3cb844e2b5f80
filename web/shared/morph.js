// Bring a region of the page to a frame's HTML with the fewest DOM changes.
//
// Writing a region with innerHTML makes the browser style and lay out every element of it again, and
// loses the focus: a frame's write took 54-80 ms of a loaded machine's main thread. Most frames change a
// few attributes (a card becomes playable, a count goes down), so the elements are kept and only what
// differs is set: the browser restyles those alone, and a focused card stays focused. Cards are matched
// by their data-card, so a card that leaves or joins the hand does not shift its neighbours' identity.

/** Make `element`'s children those of `html`. */
export function morph(element, html) {
  const template = document.createElement("template");
  template.innerHTML = html;
  morphChildren(element, template.content);
}

function morphChildren(into, from) {
  const wanted = [...from.childNodes];
  const wantedCards = new Set(wanted.map(cardOf).filter(Boolean));
  const keptCards = new Map([...into.children].filter(cardOf).map((child) => [cardOf(child), child]));
  let cursor = into.firstChild;
  for (const node of wanted) {
    const kept = keptCards.get(cardOf(node));
    if (kept) {
      // what comes before it and the frame no longer has goes; a card the frame still has waits its turn
      while (cursor && cursor !== kept && !wantedCards.has(cardOf(cursor))) cursor = removeAndNext(cursor);
      if (cursor === kept) cursor = cursor.nextSibling;
      else into.insertBefore(kept, cursor); // the cards are in a new order: this one moves
      update(kept, node);
    } else if (cursor && !cardOf(cursor) && !cardOf(node) && cursor.nodeType === node.nodeType &&
               cursor.nodeName === node.nodeName) {
      update(cursor, node);
      cursor = cursor.nextSibling;
    } else {
      into.insertBefore(node, cursor); // new: moved in from the template
    }
  }
  while (cursor) cursor = removeAndNext(cursor);
}

function cardOf(node) {
  return node.nodeType === Node.ELEMENT_NODE ? node.getAttribute("data-card") : null;
}

function removeAndNext(node) {
  const next = node.nextSibling;
  node.remove();
  return next;
}

function update(kept, wanted) {
  if (kept.nodeType !== Node.ELEMENT_NODE) {
    if (kept.nodeValue !== wanted.nodeValue) kept.nodeValue = wanted.nodeValue;
    return;
  }
  for (const { name, value } of wanted.attributes) if (kept.getAttribute(name) !== value) kept.setAttribute(name, value);
  for (const { name } of [...kept.attributes]) if (!wanted.hasAttribute(name)) kept.removeAttribute(name);
  morphChildren(kept, wanted);
}
