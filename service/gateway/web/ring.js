// The turn clock as a ring: it runs around the deck (the table's panel) on your turn and around the panel of whoever
// is playing otherwise, green, then amber from 10 seconds left, then red from 5; your last five seconds tick aloud
// (Web Audio: a short tone made on the page, no sound file), unless the mute switch is on. The seconds are also
// written beside it, so colour is never the only sign.
//
// The clock is counted by performance.now() and redrawn by a timer, both of which the browser tests stand still and
// move themselves (Playwright's clock), so no test waits on real time. Test hook: `window.__kickoffTicks` counts the
// ticks sounded.

const MUTED = "kickoff:muted";

export function ringPhase(left) {
  return left > 10 ? "green" : left > 5 ? "amber" : "red";
}

export class ClockRing {
  constructor() {
    this.target = null;
    this.lastTick = null; // the second last ticked, so each of the last five ticks once
    this.audio = null;
    window.__kickoffTicks ??= 0;
  }

  get muted() {
    return localStorage.getItem(MUTED) === "yes";
  }

  set muted(value) {
    if (value) localStorage.setItem(MUTED, "yes");
    else localStorage.removeItem(MUTED);
  }

  /** Draws the ring on `target` (null: none) with `left` of `total` seconds; `mine`: the viewer's own clock. */
  show(target, left, total, mine) {
    if (this.target && this.target !== target) this.clear();
    this.target = target;
    if (!target) return;
    const phase = ringPhase(left);
    target.classList.add("clock-ring");
    for (const other of ["green", "amber", "red"]) target.classList.toggle(`ring-${other}`, other === phase);
    target.dataset.ring = phase;
    target.style.setProperty("--ring-angle", `${total ? Math.min(360, (360 * left) / total) : 0}deg`);
    const second = Math.ceil(left);
    if (mine && second >= 1 && second <= 5 && second !== this.lastTick) {
      this.lastTick = second;
      if (!this.muted) this.tick();
    }
    if (second > 5) this.lastTick = null;
  }

  clear() {
    if (this.target) {
      this.target.classList.remove("clock-ring", "ring-green", "ring-amber", "ring-red");
      delete this.target.dataset.ring;
    }
    this.target = null;
    this.lastTick = null;
  }

  tick() {
    window.__kickoffTicks += 1;
    try {
      this.audio ??= new AudioContext();
      const tone = this.audio.createOscillator();
      const gain = this.audio.createGain();
      tone.frequency.value = 880;
      gain.gain.setValueAtTime(0.15, this.audio.currentTime);
      gain.gain.exponentialRampToValueAtTime(0.001, this.audio.currentTime + 0.08);
      tone.connect(gain).connect(this.audio.destination);
      tone.start();
      tone.stop(this.audio.currentTime + 0.08);
    } catch {
      // (no audio here: the tick is counted, and the ring and seconds still show it)
    }
  }
}
