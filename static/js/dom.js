// Tiny DOM helpers: build elements, and change them only when a value really changed
// (so a patch never rebuilds what the player is looking at or focusing).

export function h(tag, props, ...kids) {
  const el = document.createElement(tag);
  if (props) {
    for (const [k, v] of Object.entries(props)) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "class") el.className = v;
      else if (k === "text") el.textContent = v;
      else if (k === "dataset") Object.assign(el.dataset, v);
      else if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
      else if (k === "value" || k === "checked") el[k] = v;
      else el.setAttribute(k, v === true ? "" : String(v));
    }
  }
  add(el, kids);
  return el;
}

export function add(el, kids) {
  for (const kid of kids.flat(Infinity)) {
    if (kid === null || kid === undefined || kid === false) continue;
    el.append(kid instanceof Node ? kid : String(kid));
  }
  return el;
}

export function setText(el, text) {
  const s = text === null || text === undefined ? "" : String(text);
  if (el.textContent !== s) el.textContent = s;
}

export function setAttr(el, name, value) {
  if (value === null || value === undefined || value === false) {
    if (el.hasAttribute(name)) el.removeAttribute(name);
    return;
  }
  const s = value === true ? "" : String(value);
  if (el.getAttribute(name) !== s) el.setAttribute(name, s);
}

export function toggle(el, cls, on) {
  if (el.classList.contains(cls) !== Boolean(on)) el.classList.toggle(cls, Boolean(on));
}

export function show(el, on) {
  if (el.hidden === Boolean(on)) el.hidden = !on;
}

/** Replace the children only if the new list differs (by node identity). */
export function setKids(el, kids) {
  const list = kids.flat(Infinity).filter((k) => k !== null && k !== undefined && k !== false)
    .map((k) => (k instanceof Node ? k : document.createTextNode(String(k))));
  const same = list.length === el.childNodes.length && list.every((k, i) => el.childNodes[i] === k);
  if (!same) el.replaceChildren(...list);
}

/** A keyed list: make(key) builds a row once, update(row, item) refreshes it. */
export function keyedList(container, make, update) {
  const rows = new Map();
  return (items, keyOf) => {
    const seen = new Set();
    const order = [];
    for (const item of items) {
      const key = keyOf(item);
      seen.add(key);
      let row = rows.get(key);
      if (!row) rows.set(key, (row = make(item, key)));
      update(row, item, key);
      order.push(row);
    }
    for (const [key, row] of rows) if (!seen.has(key)) { row.remove(); rows.delete(key); }
    setKids(container, order);
  };
}

/** A game module's own stylesheet, added once to the page (``href`` under /static/css/games/). */
export function loadStyle(href) {
  if (document.querySelector(`link[rel="stylesheet"][href="${href}"]`)) return;
  document.head.append(h("link", { rel: "stylesheet", href }));
}

/** A race button: fires on the press itself (pointerdown), so finger time is not reaction time; a
 * click without a pointer (Enter, Space, assistive tech) fires too, a pointer's own click does not. */
export function onPress(button, fire) {
  let pressedAt = -1e9;
  button.addEventListener("pointerdown", (e) => {
    if (e.button !== 0) return;
    pressedAt = performance.now();
    fire(e);
  });
  button.addEventListener("click", (e) => {
    if (e.detail !== 0 || performance.now() - pressedAt < 600) return;
    fire(e);
  });
}
