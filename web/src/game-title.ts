// A game's name from its rules text, with its options in words: "congkak,rounds=traditional" ->
// "Congkak · traditional rounds", "kalah,houses=8,seeds=6" -> "Kalah · 8 houses · 6 seeds". The
// server writes a rules text with only the options that differ from the preset (docs/rules.md), so
// every option there tells this game from the preset's: each is named, none dropped. Naming only:
// whether rules are valid is the core's or the server's to say.
import { games } from './games';
import { currentLang, format } from './i18n';

const en = {
  houses: '{n:houses}',
  seeds: '{n:seeds}',
  sets: '{n:sets}',
  win_at: 'first to {n:seeds} wins',
  'capture.standard': 'standard capture',
  'capture.empty': 'capture even facing an empty house',
  'capture.none': 'no capture',
  'end.immediate': 'ends when a row is empty',
  'end.on_turn': 'ends when the player to move has no seeds',
  'pie.true': 'pie rule',
  'pie.false': 'no pie rule',
  'rounds.single': 'a single round',
  'rounds.traditional': 'traditional rounds',
  'direction.cw': 'clockwise',
  'direction.ccw': 'counter-clockwise',
  'stores.true': 'with stores',
  'stores.false': 'no stores',
  'first.south': 'South begins',
  'first.north': 'North begins',
};

type TitleKey = keyof typeof en;

const fr: Record<TitleKey, string> = {
  houses: '{n:houses}',
  seeds: '{n:seeds}',
  sets: '{n:sets}',
  win_at: 'le premier à {n:seeds} gagne',
  'capture.standard': 'prise classique',
  'capture.empty': 'prise même face à une case vide',
  'capture.none': 'sans prise',
  'end.immediate': 'fin dès qu’une rangée est vide',
  'end.on_turn': 'fin quand le joueur au trait n’a plus de graines',
  'pie.true': 'règle du gâteau',
  'pie.false': 'sans règle du gâteau',
  'rounds.single': 'une seule manche',
  'rounds.traditional': 'manches traditionnelles',
  'direction.cw': 'sens des aiguilles d’une montre',
  'direction.ccw': 'sens inverse des aiguilles d’une montre',
  'stores.true': 'avec greniers',
  'stores.false': 'sans greniers',
  'first.south': 'Sud commence',
  'first.north': 'Nord commence',
};

// One option ("rounds=traditional") in words; one the page has no words for stays as written.
function optionText(item: string): string {
  const eq = item.indexOf('=');
  const name = eq < 0 ? item : item.slice(0, eq);
  const value = eq < 0 ? '' : item.slice(eq + 1);
  const words = currentLang() === 'fr' ? fr : en;
  // An option whose value is a count has a word of its own name ("houses"), worded with its noun.
  if (name in en && /^\d+$/.test(value)) return format(words[name as TitleKey], { n: Number(value) });
  const key = `${name}.${value}`;
  return key in en ? words[key as TitleKey] : item;
}

// "Kalah · 8 houses · 6 seeds", in the page's language; a preset the page does not know keeps its
// own name.
export function gameTitle(rules: string): string {
  const [preset, ...options] = rules.split(',');
  const name = games.find((g) => g.preset === preset)?.name[currentLang()] ?? preset;
  return [name, ...options.filter((o) => o !== '').map(optionText)].join(' · ');
}
