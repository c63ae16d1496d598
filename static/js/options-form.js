// A form generated from a game's options JSON schema (GET /api/games): integers, booleans,
// enums, small anyOf choices (e.g. "random" or a seat) and fixed-length number lists.
// Labels come from i18n when present (opt.<game>.<name>), else from the schema itself.
import { h } from "./dom.js";
import { has, t } from "./i18n.js";

const label = (game, name, prop) => (has(`opt.${game}.${name}`) ? t(`opt.${game}.${name}`) : prop.title || name);
const hint = (game, name, prop) => (has(`opt.${game}.${name}.hint`) ? t(`opt.${game}.${name}.hint`)
  : humanValues(game, name, prop.description || ""));

/** The server's descriptions quote raw option values ("starter", "single_round"); a player reads
 * each as the label the form shows for it (or as words where the form has none). */
function humanValues(game, name, text) {
  return text.replace(/"([A-Za-z0-9_]+)"/g, (_, raw) => {
    const known = has(`opt.${game}.${name}.${raw}`);
    return `“${known ? choiceLabel(game, name, raw) : raw.replaceAll("_", " ")}”`;
  });
}

function choiceLabel(game, name, value) {
  if (has(`opt.${game}.${name}.${value}`)) return t(`opt.${game}.${name}.${value}`);
  if (typeof value === "number" && has(`opt.${game}.${name}.n`)) return t(`opt.${game}.${name}.n`, { n: value + 1 });
  if (typeof value === "boolean") return value ? t("opt.yes") : t("opt.no");
  return String(value);
}

function choicesOf(prop) {
  if (Array.isArray(prop.enum)) return prop.enum;
  if (!Array.isArray(prop.anyOf)) return null;
  const out = [];
  for (const member of prop.anyOf) {
    if ("const" in member) out.push(member.const);
    else if (Array.isArray(member.enum)) out.push(...member.enum);
    else if (member.type === "integer" && Number.isInteger(member.minimum) && Number.isInteger(member.maximum)
      && member.maximum - member.minimum <= 20) {
      for (let n = member.minimum; n <= member.maximum; n++) out.push(n);
    } else return null;
  }
  return out;
}

function numberInput(id, prop, extra = {}) {
  return h("input", { type: "number", id, inputmode: "numeric", min: prop.minimum, max: prop.maximum,
    step: prop.type === "integer" ? 1 : "any", required: true, ...extra });
}

function field(game, name, prop, fid) {
  const id = `${fid}-${name}`;
  const choices = choicesOf(prop);
  let control;
  let read;
  let write;
  if (prop.type === "boolean") {
    control = h("input", { type: "checkbox", id });
    read = () => control.checked;
    write = (v) => { control.checked = Boolean(v); };
  } else if (choices) {
    control = h("select", { id }, choices.map((c) => h("option", { value: JSON.stringify(c) }, choiceLabel(game, name, c))));
    read = () => JSON.parse(control.value);
    write = (v) => { control.value = JSON.stringify(v); };
  } else if (prop.type === "integer" || prop.type === "number") {
    control = numberInput(id, prop);
    read = () => Number(control.value);
    write = (v) => { control.value = String(v); };
  } else if (prop.type === "array" && (prop.prefixItems || prop.items) && Number.isInteger(prop.minItems)
    && prop.minItems === prop.maxItems) {
    const items = Array.from({ length: prop.minItems }, (_, i) => (prop.prefixItems || [])[i] || prop.items || {});
    const inputs = items.map((item, i) => numberInput(i === 0 ? id : `${id}-${i}`, item,
      { "aria-label": `${label(game, name, prop)} ${i + 1}`, class: "small" }));
    control = h("span", { class: "num-list" }, inputs);
    read = () => inputs.map((input) => Number(input.value));
    write = (v) => inputs.forEach((input, i) => { input.value = String(v?.[i] ?? ""); });
  } else {
    control = h("input", { type: "text", id });
    read = () => {
      try {
        return JSON.parse(control.value);
      } catch {
        return control.value;
      }
    };
    write = (v) => { control.value = typeof v === "string" ? v : JSON.stringify(v); };
  }
  const help = hint(game, name, prop);
  const row = h("div", { class: `field ${prop.type === "boolean" ? "check" : ""}`.trim() },
    h("label", { for: id }, label(game, name, prop)), control,
    help ? h("small", { class: "help", id: `${id}-help` }, help) : null);
  if (help) (control.tagName === "SPAN" ? control.firstChild : control).setAttribute("aria-describedby", `${id}-help`);
  return { row, read, write, control, name };
}

let formNo = 0;

/** -> {el, read() -> {name: value}, write(values), setDisabled(bool), changed(base) -> {name: value}} */
export function optionsForm(game, schema, values, { basic = [] } = {}) {
  const fid = `of${++formNo}`;
  const props = schema?.properties || {};
  const names = Object.keys(props);
  const ordered = [...basic.filter((n) => n in props), ...names.filter((n) => !basic.includes(n))];
  // Enums and nested models arrive as {"$ref": "#/$defs/X"} (or allOf [$ref]): inline them.
  const resolve = (prop) => {
    const ref = prop.$ref || (Array.isArray(prop.allOf) && prop.allOf.length === 1 ? prop.allOf[0].$ref : null);
    const target = typeof ref === "string" ? schema.$defs?.[ref.split("/").pop()] : null;
    return target ? { ...target, ...prop, $ref: undefined, allOf: undefined } : { ...prop };
  };
  const fields = ordered.map((name) => field(game, name, resolve(props[name]), fid));
  const first = basic.length ? fields.filter((f) => basic.includes(f.name)) : fields;
  const rest = basic.length ? fields.filter((f) => !basic.includes(f.name)) : [];
  const el = h("div", { class: "options-form" },
    h("div", { class: "fields" }, first.map((f) => f.row)),
    rest.length ? h("details", { class: "more" }, h("summary", {}, t("options.more")),
      h("div", { class: "fields" }, rest.map((f) => f.row))) : null);
  const api = {
    el,
    read: () => Object.fromEntries(fields.map((f) => [f.name, f.read()])),
    write(vals) {
      for (const f of fields) {
        const v = vals && f.name in vals ? vals[f.name] : props[f.name].default;
        if (v !== undefined) f.write(v);
      }
    },
    setDisabled(off) {
      for (const c of el.querySelectorAll("input, select")) c.disabled = off;
    },
    changed(base) {
      const now = api.read();
      return Object.fromEntries(Object.entries(now).filter(([k, v]) => JSON.stringify(v) !== JSON.stringify(base?.[k])));
    },
  };
  api.write(values);
  return api;
}
