// A game's rules with a drawing of its board, in a modal dialog: from the home page's cards and
// from the game page.
import { Core } from './core';
import { el } from './dom';
import { gameInfo } from './games';
import { currentLang, t } from './i18n';
import { boardPicture, type PictureLabels } from './picture';
import { lessonLink } from './lesson-link';

export function pictureNode(houses: number, seeds: number, stores: boolean, cw: boolean, width = 240, labels?: PictureLabels): HTMLElement {
  const d = el('div', { class: 'picture-box' });
  d.innerHTML = boardPicture(houses, seeds, stores, cw, width, labels);
  return d;
}

export async function showRules(preset: string): Promise<void> {
  const core = await Core.load();
  const info = gameInfo(preset);
  const o = core.rules().presets.find((p) => p.name === preset)?.options ?? {};
  const lang = currentLang();
  const dialog = el('dialog', { class: 'rules-dialog', 'aria-label': t('rulesTitle', { name: info.name[lang] }) }) as HTMLDialogElement;
  const close = el('button', { type: 'button', class: 'close' }, t('close'));
  close.addEventListener('click', () => dialog.close());
  dialog.addEventListener('close', () => dialog.remove());
  dialog.append(
    el('h2', {}, t('rulesTitle', { name: info.name[lang] })),
    pictureNode(Number(o.houses), Number(o.seeds), o.stores !== 'false', o.direction === 'cw', 360, {
      you: t('pictureYou'),
      them: t('pictureThem'),
      yourStore: t(o.stores !== 'false' ? 'pictureYourStore' : 'pictureYourPile'),
      theirStore: t(o.stores !== 'false' ? 'pictureTheirStore' : 'pictureTheirPile'),
    }),
    el('ol', {}, ...info.rules[lang].map((r) => el('li', {}, r))),
    close,
  );
  // The lesson of this game, played on the board: following it closes the dialog.
  const learn = lessonLink(preset);
  learn.addEventListener('click', () => dialog.close());
  close.before(learn);
  document.body.append(dialog);
  dialog.showModal();
}
