// A hint as the game page shows it, whoever answers (the server or the core in WebAssembly).
import { t } from './i18n';

// The house and its explanation, or why there is none.
export type HintAnswer = { house: number; text: string } | { error: string } | null;

// How long the page waits for the server's hint (it runs on the AI pool: a few seconds at most).
export const HINT_WAIT_MS = 15000;

// The server's refusal of a hint (its error code), worded.
export function hintErrorText(code: string, message: string): string {
  if (code === 'busy' || code === 'not_a_player' || code === 'game_over') return t(`hintError.${code}`);
  return t('hintError.other', { message: message || code });
}
