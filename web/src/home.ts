// The home page: pick a game and its options, then how to play it.
import { Core, type RulesCatalog } from './core';
import { games } from './games';
import { gameTitle } from './game-title';
import { currentLang, t, type Key } from './i18n';
import { ts } from './study-words';
import { api } from './net';
import { pictureNode, showRules } from './rules-dialog';
import { lessonLink } from './lesson-link';
import { el } from './dom';
import { playBotBox } from './playbot';

let chosen = localStorage.getItem('semis.game') ?? 'kalah';
const choices: Record<string, string> = {};

// The rules chosen on this page, for the club's seek form (lobby.ts): the chosen game, the rules
// text this page's own buttons send (its options included) and whether the rules core refuses it;
// onChange calls back after every change of the choice.
export interface ChosenRules {
  current(): { game: string; rules: string; refused: boolean };
  onChange(f: () => void): void;
}

export async function homePage(root: HTMLElement, navigate: (url: string) => void): Promise<ChosenRules> {
  const core = await Core.load();
  const cat = core.rules();
  const online = await api<{ ok: boolean }>('GET', '/healthz').then((r) => r.ok === true, () => false);
  const lang = currentLang();

  const cards = el('div', { class: 'cards', role: 'radiogroup', 'aria-label': t('chooseGame') });
  const optionsBox = el('div', { class: 'options' });

  const presetValues = (name: string) => cat.presets.find((p) => p.name === name)?.options ?? {};

  const renderOptions = () => {
    const info = games.find((g) => g.preset === chosen) ?? games[0];
    const base = presetValues(info.preset);
    const rows = info.options.flatMap((name) => optionControl(cat, name, base[name]));
    optionsBox.replaceChildren(el('h2', {}, `${t('options')} — ${info.name[lang]}`), ...rows);
    playTitle.textContent = info.name[lang];
  };
  // The value an option has for the chosen game: the visitor's choice, else the preset's.
  const optionValue = (name: string) => choices[`${chosen}:${name}`] ?? presetValues(chosen)[name];

  for (const info of games) {
    const o = presetValues(info.preset);
    const card = el('div', { class: 'card', role: 'radio', 'data-preset': info.preset, 'aria-checked': String(info.preset === chosen) });
    const rulesBtn = el('button', { type: 'button', class: 'rules-link' }, t('rulesOf'));
    rulesBtn.addEventListener('click', (e) => {
      e.stopPropagation();
      void showRules(info.preset);
    });
    card.append(pictureNode(Number(o.houses), Math.min(Number(o.seeds), 7), o.stores !== 'false', o.direction === 'cw'), el('h3', {}, info.name[lang]), el('p', {}, info.blurb[lang]), rulesBtn, lessonLink(info.preset));
    const pick = () => {
      chosen = info.preset;
      localStorage.setItem('semis.game', chosen);
      markChosen();
      renderOptions();
      optionsChanged();
    };
    // A tap on a card brings the ways to play into sight: one more tap starts the game. (The arrow
    // keys move through the cards without scrolling away from them.)
    card.addEventListener('click', (e) => {
      pick();
      if (e.detail > 0) bringPlay();
    });
    card.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' || e.key === ' ') {
        e.preventDefault();
        pick();
        return;
      }
      // A radio group: the arrows move the choice (and the focus) from card to card.
      const step = e.key === 'ArrowRight' || e.key === 'ArrowDown' ? 1 : e.key === 'ArrowLeft' || e.key === 'ArrowUp' ? -1 : 0;
      if (step === 0 || e.target !== card) return;
      e.preventDefault();
      const all = [...cards.children] as HTMLElement[];
      const next = all[(all.indexOf(card) + step + all.length) % all.length];
      next.click();
      next.focus();
    });
    cards.append(card);
  }
  // One tab stop for the group (the chosen card) and its rules button; the others by arrow keys.
  function markChosen(): void {
    for (const c of cards.children) {
      const on = (c as HTMLElement).dataset.preset === chosen;
      c.setAttribute('aria-checked', String(on));
      c.setAttribute('tabindex', on ? '0' : '-1');
      for (const b of c.querySelectorAll('.rules-link, .learn-link')) b.setAttribute('tabindex', on ? '0' : '-1');
    }
  }
  const playTitle = el('h2', { class: 'play-title' });
  // (at once: a smooth scroll still under way when the next card is tapped stops short of them)
  const bringPlay = () => root.querySelector('.play')?.scrollIntoView({ block: 'nearest' });
  markChosen();
  renderOptions();

  const rulesText = () => {
    const base = presetValues(chosen);
    let out = chosen;
    for (const [name, value] of Object.entries(choices)) {
      if (name.startsWith(chosen + ':')) {
        const opt = name.slice(chosen.length + 1);
        if (base[opt] !== value) out += `,${opt}=${value}`;
      }
    }
    return out;
  };

  const select = (id: string, label: string, values: [string, string][]) => {
    const s = el('select', { id }) as HTMLSelectElement;
    for (const [v, text] of values) s.append(el('option', { value: v }, text));
    return { node: el('label', { class: 'field' }, label, s), input: s };
  };
  const level = select('level', t('level'), ['easy', 'medium', 'hard', 'perfect'].map((l) => [l, t(`level.${l}` as Key)]));
  level.input.value = 'medium';
  const side = select('side', t('side'), ['S', 'N', 'random'].map((s) => [s, t(`side.${s}` as Key)]));
  const clock = select('clock', t('clock'), [['none', t('clock.none')], ['5+3', '5 min + 3 s'], ['10+5', '10 min + 5 s']]);

  // The rules core says whether the options go together (rounds=traditional takes sets=1, values
  // in range): a refused combination is never sent, the buttons wait and the note says why.
  const refused = () => core.checkRules(rulesText()).error !== undefined;
  const watchers: (() => void)[] = [];
  const optionsChanged = () => {
    const help = optionsBox.querySelector('#opt-rounds-help');
    if (help) help.textContent = t('roundsHelp', { n: Number(optionValue('seeds')) });
    const bad = refused();
    for (const b of [computer, friend, local]) b.toggleAttribute('disabled', bad || (b === friend && !online));
    note.textContent = bad ? t('optionsRefused') : online ? '' : t('serverDown');
    for (const f of watchers) f();
  };

  const create = async (mode: 'ai' | 'friend') => {
    if (refused()) return;
    const sideValue = side.input.value === 'random' ? (Math.random() < 0.5 ? 'S' : 'N') : side.input.value;
    const body: Record<string, unknown> = { rules: rulesText(), mode, side: side.input.value };
    if (mode === 'ai') body.level = level.input.value;
    if (clock.input.value !== 'none') {
      const [m, i] = clock.input.value.split('+').map(Number);
      body.clock = { minutes: m, increment: i };
    }
    try {
      const g = await api<{ id: string; link: string }>('POST', '/api/games', body);
      navigate(g.link ?? `/g/${g.id}`);
    } catch {
      // No server: the computer still plays, in this page, with the same rules core.
      if (mode === 'ai') navigate(`/?local=${encodeURIComponent(rulesText())}&ai=${level.input.value}&side=${sideValue}`);
      else note.textContent = t('serverDown');
    }
  };

  const btn = (label: string, cls: string, f: () => void) => {
    const b = el('button', { type: 'button', class: `mode ${cls}` }, label);
    b.addEventListener('click', f);
    return b;
  };
  const note = el('p', { class: 'note', role: 'status' }, online ? '' : t('serverDown'));
  const live = el('ul', { class: 'live' });
  const liveBox = el('div', { class: 'live-box' }, el('h3', {}, t('watch')), live);
  // "Kalah · 8 houses · Ada – Computer · 13 moves": the game, who plays it, how far it is.
  const seatName = (seat?: { name?: string | null; kind?: string; level?: string }) =>
    seat?.kind === 'ai' ? `${t('computer')}${seat.level ? ` (${t(`level.${seat.level}` as Key)})` : ''}` : seat?.name ?? '?';
  const liveLine = (g: { rules: string; plies: number; seats?: unknown }) => {
    const seats = (g.seats ?? {}) as Record<string, { name?: string | null; kind?: string; level?: string }>;
    return `${gameTitle(g.rules)} · ${seatName(seats.S)} – ${seatName(seats.N)} · ${t('movesCount', { n: g.plies })}`;
  };
  const loadLive = async () => {
    try {
      const r = await api<{ games: { id: string; rules: string; plies: number; seats?: unknown }[] }>('GET', '/api/games?live=1');
      live.replaceChildren(
        ...(r.games.length === 0
          ? [el('li', {}, t('noLive'))]
          : r.games.map((g) => el('li', {}, el('a', { href: `/g/${g.id}`, 'data-link': '' }, liveLine(g))))),
      );
    } catch {
      live.replaceChildren(el('li', {}, t('noLive')));
    }
  };
  void loadLive();

  const friend = btn(t('playFriend'), 'friend', () => void create('friend'));
  if (!online) friend.setAttribute('disabled', '');
  const computer = btn(t('playComputer'), 'computer', () => void create('ai'));
  const local = btn(t('playLocal'), 'local', () => {
    if (!refused()) navigate(`/?local=${encodeURIComponent(rulesText())}`);
  });
  root.replaceChildren(
    el('div', { class: 'home' },
      el('header', { class: 'hero' }, el('h1', {}, t('title')), el('p', {}, t('tagline'))),
      el('h2', {}, t('chooseGame')),
      cards,
      el('div', { class: 'play' },
        playTitle,
        el('div', { class: 'mode-box' }, level.node, side.node, computer),
        el('div', { class: 'mode-box' }, clock.node, friend),
        el('div', { class: 'mode-box' }, local),
      ),
      playBotBox(navigate, online),
      optionsBox,
      liveBox,
      el('nav', { class: 'study-links' },
        el('a', { href: '/daily', 'data-link': '', class: online ? '' : 'offline' }, ts('daily')),
        el('a', { href: '/analysis', 'data-link': '' }, ts('analysis'))),
      note,
    ),
  );
  optionsChanged(); // (choices kept from an earlier visit of this page)
  return {
    current: () => ({ game: chosen, rules: rulesText(), refused: refused() }),
    onChange: (f) => void watchers.push(f),
  };

  function optionControl(c: RulesCatalog, name: string, value: string): HTMLElement[] {
    const info = c.options.find((o) => o.name === name);
    const key = `${chosen}:${name}`;
    const current = choices[key] ?? value;
    let input: HTMLInputElement | HTMLSelectElement;
    if (info?.values === 'true|false') {
      input = el('input', { type: 'checkbox', id: `opt-${name}` }) as HTMLInputElement;
      (input as HTMLInputElement).checked = current === 'true';
      input.addEventListener('change', () => {
        choices[key] = String((input as HTMLInputElement).checked);
        optionsChanged();
      });
    } else {
      input = el('select', { id: `opt-${name}` }) as HTMLSelectElement;
      const values = info?.values.includes('..') ? range(info.values, name) : (info?.values ?? '').split('|');
      for (const v of values) {
        const label = (`${name}.${v}` as Key) in labelKeys ? t(`${name}.${v}` as Key) : v;
        input.append(el('option', { value: v }, label));
      }
      input.value = current;
      input.addEventListener('change', () => {
        choices[key] = input.value;
        optionsChanged();
      });
    }
    const field = el('label', { class: 'field', for: `opt-${name}` }, labelFor(name), input);
    if (name !== 'rounds') return [field];
    // What traditional rounds are, in the words of the game's players (the seeds refilled per house
    // follow the seeds option).
    input.setAttribute('aria-describedby', 'opt-rounds-help');
    return [field, el('p', { class: 'option-help', id: 'opt-rounds-help' }, t('roundsHelp', { n: Number(optionValue('seeds')) }))];
  }
}

const labelKeys: Record<string, true> = {
  'capture.standard': true, 'capture.empty': true, 'capture.none': true, 'end.immediate': true, 'end.on_turn': true,
  'rounds.single': true, 'rounds.traditional': true,
};

function labelFor(name: string): string {
  const k: Record<string, Key> = { houses: 'houses', seeds: 'seeds', capture: 'capture', end: 'end', pie: 'pie', sets: 'sets', rounds: 'rounds' };
  return k[name] ? t(k[name]) : name;
}

function range(values: string, name: string): string[] {
  const [lo, hi] = values.split('..').map(Number);
  const from = name === 'houses' ? Math.max(lo, 3) : lo;
  const out: string[] = [];
  for (let v = from; v <= Math.min(hi, 12); ++v) out.push(String(v));
  return out;
}
