// The page's colours (the system's, light or dark) and the board's look (wood, plain, high
// contrast): two choices in the top bar, remembered on this device. "System" follows
// prefers-color-scheme as it changes; theme.css holds the colours.
import './theme.css';
import { el } from './dom';
import { t, type Key } from './i18n';

const themes = ['system', 'light', 'dark'] as const;
const boards = ['wood', 'plain', 'contrast'] as const;
type Theme = (typeof themes)[number];

const systemDark = matchMedia('(prefers-color-scheme: dark)');

function remembered<T extends string>(key: string, allowed: readonly T[], fallback: T): T {
  const v = localStorage.getItem(key);
  return allowed.includes(v as T) ? (v as T) : fallback;
}

function apply(): void {
  const choice: Theme = remembered('semis.theme', themes, 'system');
  const root = document.documentElement;
  root.dataset.theme = choice === 'system' ? (systemDark.matches ? 'dark' : 'light') : choice;
  root.dataset.board = remembered('semis.board', boards, 'wood');
}

systemDark.addEventListener('change', apply);
apply();

function chooser<T extends string>(id: string, label: Key, key: string, allowed: readonly T[], fallback: T, words: (v: T) => Key): HTMLElement {
  const select = el('select', { id }) as HTMLSelectElement;
  for (const v of allowed) select.append(el('option', { value: v }, t(words(v))));
  select.value = remembered(key, allowed, fallback);
  select.addEventListener('change', () => {
    localStorage.setItem(key, select.value);
    apply();
  });
  return el('label', { for: id }, t(label), select);
}

// The "Display" menu of the top bar, in the current language.
export function displaySettings(): HTMLElement {
  return el('details', { class: 'display-settings' },
    el('summary', {}, t('display')),
    el('div', { class: 'panel' },
      chooser('theme', 'theme', 'semis.theme', themes, 'system', (v) => `theme.${v}` as Key),
      chooser('board-theme', 'boardTheme', 'semis.board', boards, 'wood', (v) => `boardTheme.${v}` as Key)));
}
