// One WebSocket per room (docs/protocol.md): hello first, then snapshot/patch with a gap-free
// seq (resync on any gap or failed patch), acks/rejects per action id, clock sync both ways,
// and reconnection with exponential backoff and jitter. The UI listens through `on`.
//
// One clock for everything: performance.now() (monotonic). Server pings are answered with our
// receive/send times (t2/t3); once the server has measured the link it sends its `offset` (room time
// minus our clock), which countdowns then use. Until then our own pings (min round trip of a window)
// give the offset.
import { applyPatch } from "./patch.js";

const FATAL_CODES = new Set(["AUTH_REQUIRED", "BAD_TOKEN", "UNKNOWN_ROOM", "REMOVED", "LEFT"]);
const FATAL_CLOSES = new Set([4001, 4003, 4004]);
const PING_EVERY_MS = 2000;
const BURST_MS = [0, 120, 240, 360];
const SAMPLES = 8;
const SILENCE_MS = 7000; // the server pings every 2 s: this much silence means a dead link
const RESEND_WITHIN_MS = 10000; // an unanswered action older than this is dropped, not resent

export class RoomConnection {
  constructor(code, token, on) {
    this.code = code;
    this.token = token;
    this.on = on; // {view(view, prev, reason), state(state, info), reply(msg, action), error(msg)}
    this.view = null;
    this.seq = 0;
    this.ws = null;
    this.attempt = 0;
    this.samples = [];
    this.offset = null;
    this.rtt = null;
    this.pending = new Map();
    this.pingId = 0;
    this.idBase = Math.random().toString(36).slice(2, 8) + Date.now().toString(36).slice(-4);
    this.actionNo = 0;
    this.timers = new Set();
    this.stopped = true;
    this.state = "idle";
    this.onOnline = () => this.retryNow();
    this.onVisible = () => document.visibilityState === "visible" && this.retryNow();
  }

  start() {
    this.stopped = false;
    window.addEventListener("online", this.onOnline);
    document.addEventListener("visibilitychange", this.onVisible);
    this.open();
  }

  stop() {
    this.stopped = true;
    window.removeEventListener("online", this.onOnline);
    document.removeEventListener("visibilitychange", this.onVisible);
    this.clearTimers();
    clearInterval(this.pinger);
    const ws = this.ws;
    this.ws = null;
    if (ws && ws.readyState <= 1) ws.close(1000);
  }

  /** Room-clock milliseconds now, from the best (lowest round trip) clock-sync sample. */
  now() {
    return performance.now() + (this.offset ?? 0);
  }

  /** Send a game action; resolves with its ack or reject (resent after a reconnect if unanswered). */
  act(action, options = {}) {
    const id = `${this.idBase}-${++this.actionNo}`;
    return new Promise((resolve) => {
      const entry = { action, resolve, at: performance.now(), quiet: Boolean(options.quiet), sent: false };
      this.pending.set(id, entry);
      if (this.synced) entry.sent = this.raw({ type: "action", id, action });
    });
  }

  // --- internals ---------------------------------------------------------

  later(fn, ms) {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      fn();
    }, ms);
    this.timers.add(timer);
  }

  clearTimers() {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  setState(state, info = {}) {
    this.state = state;
    this.on.state?.(state, info);
  }

  raw(msg) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(msg));
      return true;
    }
    return false;
  }

  open() {
    if (this.stopped) return;
    this.clearTimers();
    this.synced = false;
    this.awaitingSnapshot = true;
    this.setState(this.attempt === 0 && !this.view ? "connecting" : "reconnecting", { now: true });
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${scheme}://${location.host}/ws/rooms/${encodeURIComponent(this.code)}`);
    this.ws = ws;
    ws.onopen = () => {
      if (ws !== this.ws) return;
      this.lastHeard = performance.now();
      this.raw({ type: "hello", token: this.token });
      for (const ms of BURST_MS) this.later(() => this.ping(), ms);
      clearInterval(this.pinger);
      this.pinger = setInterval(() => this.tick(), PING_EVERY_MS);
    };
    ws.onmessage = (event) => {
      if (ws !== this.ws) return;
      const received = performance.now();
      this.lastHeard = received;
      let msg;
      try {
        msg = JSON.parse(event.data);
      } catch {
        return;
      }
      this.handle(msg, received);
    };
    ws.onclose = (event) => {
      if (ws !== this.ws) return;
      this.closed(event);
    };
  }

  tick() {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return;
    if (performance.now() - this.lastHeard > SILENCE_MS) {
      this.ws.close(4000, "silent");
      return;
    }
    this.ping();
  }

  ping() {
    this.raw({ type: "ping", id: ++this.pingId, t0: performance.now() });
  }

  closed(event) {
    clearInterval(this.pinger);
    this.clearTimers();
    this.synced = false;
    this.ws = null;
    if (this.stopped) return;
    if (this.fatal || FATAL_CLOSES.has(event.code)) {
      this.setState("closed", { error: this.fatal || { code: `CLOSE_${event.code}`, message: event.reason } });
      return;
    }
    const base = Math.min(10000, 500 * 2 ** this.attempt);
    const delay = Math.round(base / 2 + (Math.random() * base) / 2); // "equal jitter"
    this.attempt += 1;
    this.retryAt = performance.now() + delay;
    this.setState("reconnecting", { at: this.retryAt, attempt: this.attempt });
    this.later(() => this.open(), delay);
  }

  retryNow() {
    if (!this.stopped && !this.ws && !this.fatal) this.open();
  }

  resync() {
    if (this.awaitingSnapshot) return;
    this.awaitingSnapshot = true;
    this.raw({ type: "resync" });
  }

  handle(msg, received = performance.now()) {
    switch (msg.type) {
      case "welcome":
        this.welcome = msg;
        if (this.offset === null) this.offset = msg.server_time - received;
        break;
      case "snapshot": {
        const prev = this.view;
        this.view = msg.view;
        this.seq = msg.seq;
        this.awaitingSnapshot = false;
        if (!this.synced) {
          this.synced = true;
          this.attempt = 0;
          this.setState("online");
          this.resendPending();
        }
        this.on.view?.(this.view, prev, msg.reason);
        break;
      }
      case "patch": {
        if (this.awaitingSnapshot) return; // the snapshot we asked for replaces all of this
        if (msg.seq !== this.seq + 1 || !this.view) return this.resync();
        let next;
        try {
          next = applyPatch(this.view, msg.ops);
        } catch {
          return this.resync();
        }
        const prev = this.view;
        this.view = next;
        this.seq = msg.seq;
        this.on.view?.(next, prev, "patch");
        break;
      }
      case "ack":
      case "reject": {
        const entry = this.pending.get(msg.id);
        if (!entry) return;
        this.pending.delete(msg.id);
        entry.resolve(msg);
        if (msg.type === "reject" && !entry.quiet) this.on.reply?.(msg, entry.action);
        break;
      }
      case "error":
        if (FATAL_CODES.has(msg.code)) this.fatal = msg;
        this.on.error?.(msg);
        break;
      case "ping":
        this.raw({ type: "pong", id: msg.id, t: msg.t, t2: received, t3: performance.now() });
        if (typeof msg.offset === "number") {
          this.serverOffset = msg.offset;
          this.offset = msg.offset;
          if (typeof msg.rtt === "number") this.rtt = msg.rtt;
        }
        break;
      case "pong":
        this.sample(msg);
        break;
      default:
        break;
    }
  }

  sample({ t0, t1, t2 }) {
    const t3 = performance.now();
    const rtt = t3 - t0 - (t2 - t1);
    if (!(rtt >= 0)) return;
    this.samples.push({ rtt, offset: (t1 - t0 + (t2 - t3)) / 2 });
    if (this.samples.length > SAMPLES) this.samples.shift();
    const best = this.samples.reduce((a, b) => (b.rtt < a.rtt ? b : a));
    this.ownOffset = best.offset;
    if (this.serverOffset === undefined) { // the server's own estimate, once it sends one, wins
      this.offset = best.offset;
      this.rtt = best.rtt;
    }
  }

  resendPending() {
    const now = performance.now();
    for (const [id, entry] of this.pending) {
      if (now - entry.at > RESEND_WITHIN_MS) {
        this.pending.delete(id);
        entry.resolve({ type: "reject", id, code: "NOT_SENT", message: "" });
        continue;
      }
      if (entry.sent) entry.quiet = true; // a retry may be stale by now: the view shows its outcome
      entry.sent = this.raw({ type: "action", id, action: entry.action }) || entry.sent;
    }
  }
}
