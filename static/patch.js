// RFC 6902 JSON Patch (add/remove/replace), applied in place to a parsed view.
const unescape = (s) => s.replace(/~1/g, "/").replace(/~0/g, "~");

export function applyPatch(doc, ops) {
  for (const op of ops) {
    const parts = op.path.split("/").slice(1).map(unescape);
    if (parts.length === 0) { doc = op.value; continue; }
    let parent = doc;
    for (const p of parts.slice(0, -1)) parent = parent[Array.isArray(parent) ? Number(p) : p];
    const last = parts[parts.length - 1];
    if (Array.isArray(parent)) {
      const i = last === "-" ? parent.length : Number(last);
      if (op.op === "add") parent.splice(i, 0, op.value);
      else if (op.op === "remove") parent.splice(i, 1);
      else parent[i] = op.value;
    } else if (op.op === "remove") delete parent[last];
    else parent[last] = op.value;
  }
  return doc;
}
