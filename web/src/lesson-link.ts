// The way to a game's lesson (/learn/<preset>), on the home page's cards and in the rules dialog.
// Apart from lesson.ts, which opens the rules dialog, so that the two do not import each other.
import { el } from './dom';
import { currentLang } from './i18n';
import { lessons, lessonWords } from './lesson-data';

// Its keys are its own: a card takes Enter and Space to choose itself.
// A game without a lesson yet (awale) gets no link: an empty, hidden placeholder.
export function lessonLink(preset: string): HTMLElement {
  if (!(preset in lessons)) return el('span', { hidden: '' });
  const a = el('a', { href: `/learn/${preset}`, 'data-link': '', class: 'learn-link' }, lessonWords.learn[currentLang()]);
  a.addEventListener('keydown', (e) => e.stopPropagation());
  return a;
}
