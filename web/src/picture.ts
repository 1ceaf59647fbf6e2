// A small drawing of a board for the home page and the rules: houses, stores (or captured piles),
// and an arrow for the sowing direction.

// `labels`: the rules dialog names the rows and the stores (whose is which), under the drawing.
export interface PictureLabels {
  you: string; // the bottom row
  them: string; // the top row
  yourStore: string;
  theirStore: string;
}

const escapeText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');

export function boardPicture(houses: number, seeds: number, stores: boolean, clockwise: boolean, width = 240, labels?: PictureLabels): string {
  const pad = 10;
  const storeW = stores ? 30 : 22;
  const cell = (width - 2 * pad - 2 * storeW - 8) / houses;
  const r = Math.min(cell * 0.4, 14);
  const h = 2 * cell + 2 * pad + 16 + (labels ? 48 : 0);
  const x0 = pad + storeW + 4;
  let out = `<svg class="picture" viewBox="0 0 ${width} ${h}" width="${width}" height="${h}" role="img" aria-hidden="true">`;
  const woodH = 2 * cell + 2 * pad - 4;
  out += `<rect x="2" y="2" width="${width - 4}" height="${woodH}" rx="18" fill="url(#wood)" stroke="#5b3716" stroke-width="2"/>`;
  out += `<defs><linearGradient id="wood" x1="0" x2="1"><stop offset="0" stop-color="#b97a43"/><stop offset="0.5" stop-color="#a0632f"/><stop offset="1" stop-color="#b4733c"/></linearGradient></defs>`;
  for (let row = 0; row < 2; ++row) {
    for (let i = 0; i < houses; ++i) {
      const cx = x0 + cell * (i + 0.5);
      const cy = pad + cell * (row + 0.5);
      out += `<circle cx="${cx}" cy="${cy}" r="${r}" fill="#6d4019" stroke="#4a2a0e"/>`;
      for (let s = 0; s < Math.min(seeds, 7); ++s) {
        const a = s * 2.4;
        const d = r * 0.45 * Math.sqrt(s / 7);
        out += `<circle cx="${cx + Math.cos(a) * d}" cy="${cy + Math.sin(a) * d}" r="${Math.max(2, r * 0.2)}" fill="#e9dcc0"/>`;
      }
    }
  }
  const sh = 2 * cell - 6;
  for (const x of [pad, width - pad - storeW]) {
    out += stores
      ? `<rect x="${x}" y="${pad + 3}" width="${storeW}" height="${sh}" rx="${storeW / 2}" fill="#6d4019" stroke="#4a2a0e"/>`
      : `<rect x="${x}" y="${pad + 3}" width="${storeW}" height="${sh}" rx="6" fill="none" stroke="#4a2a0e" stroke-dasharray="4 3"/>`;
  }
  // Sowing direction along the bottom row.
  const ay = woodH + 11;
  const [ax1, ax2] = clockwise ? [width - 40, 40] : [40, width - 40];
  out += `<line x1="${ax1}" y1="${ay}" x2="${ax2}" y2="${ay}" stroke="#7a5a3a" stroke-width="2" marker-end="url(#arrow)"/>`;
  out += `<defs><marker id="arrow" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="6" markerHeight="6" orient="auto"><path d="M0 0 L10 5 L0 10 z" fill="#7a5a3a"/></marker></defs>`;
  if (labels) {
    // The viewer's store is at the end of his row's sowing: on the right, or on the left when sowing
    // runs clockwise (Congkak); the opponent's is at the other end.
    const y = woodH + 28;
    const mine = clockwise ? pad : width - pad;
    const theirs = clockwise ? width - pad : pad;
    // An arrow up to each store, on the store's side of its label.
    const left = (text: string) => `↑ ${text}`;
    const right = (text: string) => `${text} ↑`;
    out += `<text x="${mine}" y="${y}" font-size="11" fill="#3b2a1a" text-anchor="${clockwise ? 'start' : 'end'}">${escapeText(clockwise ? left(labels.yourStore) : right(labels.yourStore))}</text>`;
    out += `<text x="${theirs}" y="${y}" font-size="11" fill="#3b2a1a" text-anchor="${clockwise ? 'end' : 'start'}">${escapeText(clockwise ? right(labels.theirStore) : left(labels.theirStore))}</text>`;
    out += `<text x="${width / 2}" y="${y + 15}" font-size="11" fill="#3b2a1a" text-anchor="middle">${escapeText(labels.you)}</text>`;
    out += `<text x="${width / 2}" y="${y + 29}" font-size="11" fill="#3b2a1a" text-anchor="middle">${escapeText(labels.them)}</text>`;
  }
  return out + '</svg>';
}
