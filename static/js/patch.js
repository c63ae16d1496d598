// RFC 6902 JSON Patch (add, remove, replace: what the server sends) with RFC 6901 pointers.
// Copy-on-write: only the containers along a changed path are copied, the input is never
// mutated, so `prev.x === next.x` tells a renderer that nothing under x changed.

export class PatchError extends Error {}

const unescape = (s) => s.replace(/~1/g, "/").replace(/~0/g, "~");
const isObj = (v) => v !== null && typeof v === "object";

function index(list, token, allowEnd) {
  if (allowEnd && token === "-") return list.length;
  if (!/^(0|[1-9][0-9]*)$/.test(token)) throw new PatchError(`bad index ${token}`);
  const i = Number(token);
  if (i > list.length || (!allowEnd && i === list.length)) throw new PatchError(`index ${i} out of range`);
  return i;
}

export function applyPatch(doc, ops) {
  if (!Array.isArray(ops)) throw new PatchError("ops must be a list");
  const fresh = new WeakSet();
  const copy = (v) => {
    if (!isObj(v) || fresh.has(v)) return v;
    const c = Array.isArray(v) ? v.slice() : { ...v };
    fresh.add(c);
    return c;
  };
  let root = doc;
  for (const op of ops) {
    if (!isObj(op) || !["add", "remove", "replace"].includes(op.op)) throw new PatchError("unsupported op");
    const path = op.path;
    if (typeof path !== "string" || (path !== "" && path[0] !== "/")) throw new PatchError("bad path");
    if (path === "") {
      if (op.op === "remove") throw new PatchError("cannot remove the root");
      root = op.value;
      continue;
    }
    const parts = path.slice(1).split("/").map(unescape);
    if (parts.includes("__proto__")) throw new PatchError("bad key");
    root = copy(root);
    let parent = root;
    for (const token of parts.slice(0, -1)) {
      if (!isObj(parent)) throw new PatchError(`no container at ${path}`);
      const key = Array.isArray(parent) ? index(parent, token, false) : token;
      if (!Array.isArray(parent) && !Object.hasOwn(parent, key)) throw new PatchError(`missing ${key}`);
      const child = copy(parent[key]);
      parent[key] = child;
      parent = child;
    }
    if (!isObj(parent)) throw new PatchError(`no container at ${path}`);
    const last = parts[parts.length - 1];
    if (Array.isArray(parent)) {
      if (op.op === "add") parent.splice(index(parent, last, true), 0, op.value);
      else if (op.op === "remove") parent.splice(index(parent, last, false), 1);
      else parent[index(parent, last, false)] = op.value;
    } else {
      if (op.op !== "add" && !Object.hasOwn(parent, last)) throw new PatchError(`missing ${last}`);
      if (op.op === "remove") delete parent[last];
      else parent[last] = op.value;
    }
  }
  return root;
}
