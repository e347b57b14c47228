// Sounds for your turn, a trick won and belote, made with the Web Audio API
// (no sound file): short tones and a card's rustle of filtered noise.  Off
// until the player turns them on in the settings (js/settings.js `sound`).
//
// `cue(model, event, mineBefore)` is called with each event the table
// draws; `played` lists the sounds made (for tests and debugging).

import { getSetting } from './settings.js';

/** The sounds made, in order: "turn", "trick", "belote". */
export const played = [];

let context = null;

/** The page's audio context, made at the first sound (browsers let a page
 * start one only after the person used it: the settings' switch is such
 * a use). */
function audio() {
  if (!context) {
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return null;
    context = new Context();
  }
  if (context.state === 'suspended') context.resume().catch(() => {});
  return context;
}

/** A note of `freq` Hz from `at` (s, the context's clock) for `length` s. */
function note(ctx, freq, at, length, { type = 'sine', volume = 0.12 } = {}) {
  const osc = ctx.createOscillator();
  const gain = ctx.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(freq, at);
  gain.gain.setValueAtTime(0.0001, at);
  gain.gain.exponentialRampToValueAtTime(volume, at + 0.015);
  gain.gain.exponentialRampToValueAtTime(0.0001, at + length);
  osc.connect(gain).connect(ctx.destination);
  osc.start(at);
  osc.stop(at + length + 0.02);
}

/** A card swept off the table: a short burst of band-passed noise. */
function rustle(ctx, at, length = 0.18) {
  const frames = Math.ceil(ctx.sampleRate * length);
  const buffer = ctx.createBuffer(1, frames, ctx.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < frames; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / frames);
  const source = ctx.createBufferSource();
  source.buffer = buffer;
  const band = ctx.createBiquadFilter();
  band.type = 'bandpass';
  band.frequency.setValueAtTime(2400, at);
  band.frequency.exponentialRampToValueAtTime(900, at + length);
  const gain = ctx.createGain();
  gain.gain.setValueAtTime(0.35, at);
  gain.gain.exponentialRampToValueAtTime(0.0001, at + length);
  source.connect(band).connect(gain).connect(ctx.destination);
  source.start(at);
}

const SOUNDS = {
  // your turn: two soft rising notes
  turn: (ctx, t) => {
    note(ctx, 660, t, 0.16);
    note(ctx, 880, t + 0.11, 0.22);
  },
  // a trick won: the cards swept together, and a low note
  trick: (ctx, t) => {
    rustle(ctx, t);
    note(ctx, 330, t + 0.05, 0.2, { type: 'triangle', volume: 0.08 });
  },
  // belote: a bright arpeggio
  belote: (ctx, t) => {
    [523.25, 659.25, 783.99, 1046.5].forEach((f, i) => note(ctx, f, t + i * 0.08, 0.22, { type: 'triangle', volume: 0.1 }));
  },
};

/** Make sound `kind` when sounds are on; whether it was made. */
export function playSound(kind) {
  if (!getSetting('sound') || !SOUNDS[kind]) return false;
  const ctx = audio();
  if (!ctx) return false;
  SOUNDS[kind](ctx, ctx.currentTime + 0.01);
  played.push(kind);
  return true;
}

/**
 * The sound of a table `event` just drawn, if any: our turn come (it was
 * not ours before: `mineBefore`, the model's `myDecision` before the
 * event), a trick won, belote or rebelote said.  Never in a replay.
 */
export function cue(model, event, mineBefore) {
  if (model.mode === 'replay') return;
  if (event.kind === 'trick') playSound('trick');
  else if (event.kind === 'belote') playSound('belote');
  else if (event.kind === 'turn' && model.mode === 'play' && !mineBefore && model.myDecision
    && event.waiting === 'action') playSound('turn');
}
