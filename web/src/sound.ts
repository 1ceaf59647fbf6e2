// The board's sounds: a short wooden tick for each seed dropped, a lower knock for a capture. Made
// with the Web Audio API (no files to load). Off by default on touch screens (phones are often
// used where sound is unwelcome), on elsewhere; the player's choice is kept (semis.sound).
let ctx: AudioContext | null = null;

export function soundOn(): boolean {
  const saved = localStorage.getItem('semis.sound');
  if (saved === 'on' || saved === 'off') return saved === 'on';
  return !window.matchMedia('(pointer: coarse)').matches;
}

export function setSound(on: boolean): void {
  localStorage.setItem('semis.sound', on ? 'on' : 'off');
}

export function playSound(kind: 'drop' | 'capture'): void {
  if (!soundOn()) return;
  try {
    ctx ??= new AudioContext();
    if (ctx.state === 'suspended') void ctx.resume();
    const now = ctx.currentTime;
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.type = kind === 'drop' ? 'triangle' : 'sine';
    osc.frequency.setValueAtTime(kind === 'drop' ? 880 + Math.random() * 240 : 220, now);
    osc.frequency.exponentialRampToValueAtTime(kind === 'drop' ? 420 : 110, now + (kind === 'drop' ? 0.05 : 0.18));
    gain.gain.setValueAtTime(kind === 'drop' ? 0.08 : 0.15, now);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + (kind === 'drop' ? 0.07 : 0.25));
    osc.connect(gain).connect(ctx.destination);
    osc.start(now);
    osc.stop(now + 0.3);
  } catch {
    // No audio here (a policy, an old browser): the game goes on silently.
  }
}
