// Turn alerts: when the table starts waiting for you (or your own long timer runs low) the tab's
// title says so, a short tone plays if sound is on for this device (made by WebAudio, no audio
// file) and a phone vibrates where the browser allows it. The page's title goes through here so
// the alert stays in front of whatever the page calls itself.
import { t } from "../i18n.js";

const SOUND_KEY = "bordet.sound";
const LOW_MS = 10_000; // "running low": this much left of a timer that started with at least twice as much
const TURN_TONE = [[660, 0, 0.12], [880, 0.14, 0.18]];
const LOW_TONE = [[520, 0, 0.1], [520, 0.18, 0.1], [520, 0.36, 0.1]];

let base = document.title;
let flag = "";

export function setTitle(text) {
  base = text;
  paintTitle();
}

function setFlag(text) {
  flag = text;
  paintTitle();
}

function paintTitle() {
  document.title = flag ? `${flag} · ${base}` : base;
}

export function soundOn() {
  try {
    return localStorage.getItem(SOUND_KEY) !== "off";
  } catch {
    return true; // storage blocked: the default
  }
}

let audio = null;

function context() {
  const Ctx = window.AudioContext || window.webkitAudioContext;
  if (!Ctx) return null;
  audio ??= new Ctx();
  // Browsers start audio only after a gesture; a later tap or key resumes it (see unlock below).
  if (audio.state === "suspended") audio.resume().catch(() => {});
  return audio;
}

/** notes: [[hertz, start s, length s]], a soft sine with a short attack and fade. */
function tone(notes) {
  if (!soundOn()) return;
  const ctx = context();
  if (!ctx) return;
  const start = ctx.currentTime + 0.02;
  for (const [hz, at, length] of notes) {
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.type = "sine";
    osc.frequency.value = hz;
    gain.gain.setValueAtTime(0.0001, start + at);
    gain.gain.exponentialRampToValueAtTime(0.18, start + at + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, start + at + length);
    osc.connect(gain).connect(ctx.destination);
    osc.start(start + at);
    osc.stop(start + at + length + 0.02);
  }
}

function buzz(pattern) {
  // Browsers allow vibration only after the person has tapped the page; asking earlier only logs.
  if (!navigator.vibrate || navigator.userActivation?.hasBeenActive === false) return;
  try {
    navigator.vibrate(pattern);
  } catch {
    /* not allowed here */
  }
}

function unlock() {
  if (audio && audio.state === "suspended") audio.resume().catch(() => {});
}
document.addEventListener("pointerdown", unlock, { capture: true });
document.addEventListener("keydown", unlock, { capture: true });

/** The table's switch: "Sound on" / "Sound off", remembered on this device. */
export function soundSwitch() {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "link sound";
  const paint = () => {
    const on = soundOn();
    button.textContent = on ? t("sound.on") : t("sound.off");
    button.setAttribute("aria-pressed", String(on));
  };
  button.addEventListener("click", () => {
    const on = !soundOn();
    try {
      localStorage.setItem(SOUND_KEY, on ? "on" : "off");
    } catch {
      /* storage blocked: the switch lasts for this page only */
    }
    paint();
    if (on) tone(TURN_TONE.slice(0, 1)); // a sample, and the gesture that lets audio start
  });
  paint();
  return button;
}

export class TurnAlert {
  /** now(): the room clock in ms (the clock the timers' deadlines are on). */
  constructor(now) {
    this.now = now;
    this.yours = false;
    this.timers = new Map(); // key -> {at, first: ms left when first seen, warned}
    this.interval = null;
  }

  /** yours: the table waits for you; timers: your countdowns [{key, at}] (room-clock ms). */
  update(yours, timers) {
    if (yours && !this.yours) {
      tone(TURN_TONE);
      buzz([120, 60, 120]);
    }
    this.yours = yours;
    const now = this.now();
    const keep = new Map();
    for (const timer of yours ? timers : []) {
      if (timer.at === null || timer.at === undefined) continue;
      const known = this.timers.get(timer.key);
      keep.set(timer.key, known && known.at === timer.at ? known : { at: timer.at, first: timer.at - now, warned: false });
    }
    this.timers = keep;
    if (keep.size && !this.interval) this.interval = setInterval(() => this.check(), 500);
    if (!keep.size && this.interval) {
      clearInterval(this.interval);
      this.interval = null;
    }
    this.check();
  }

  check() {
    const now = this.now();
    let low = false;
    for (const timer of this.timers.values()) {
      const left = timer.at - now;
      if (timer.first < 2 * LOW_MS || left > LOW_MS || left <= 0) continue;
      low = true;
      if (!timer.warned) {
        timer.warned = true;
        tone(LOW_TONE);
        buzz([80, 80, 80, 80, 80]);
      }
    }
    setFlag(low ? t("alert.low") : this.yours ? t("alert.turn") : "");
  }

  destroy() {
    clearInterval(this.interval);
    this.interval = null;
    setFlag("");
  }
}
