// The way to a game's lesson (/learn/<preset>), on the home page's cards and in the rules dialog.
// Apart from lesson.ts, which opens the rules dialog, so that the two do not import each other.
import { el } from './dom';
import { currentLang } from './i18n';
import { lessonWords } from './lesson-data';

// Its keys are its own: a card takes Enter and Space to choose itself.
export function lessonLink(preset: string): HTMLElement {
  const a = el('a', { href: `/learn/${preset}`, 'data-link': '', class: 'learn-link' }, lessonWords.learn[currentLang()]);
  a.addEventListener('keydown', (e) => e.stopPropagation());
  return a;
}
