// Draws the app's icons (web/public/icons/): a wooden board with two rows of pits and seeds, as SVG
// and as PNG at the sizes phones ask for, with no dependency but node's zlib. The PNGs are
// committed; run `node scripts/make-icons.mjs` again after changing the drawing.
import { writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';

const out = new URL('../public/icons/', import.meta.url);
const WOOD = [0x9a, 0x5d, 0x2b];
const PIT = [0x5a, 0x32, 0x14];
const SEED = [0xef, 0xe4, 0xcc];
const BG = [0xf6, 0xf1, 0xe7];

// The drawing in a 100x100 box: a rounded board, two stores and 2x3 houses, two seeds in each.
// `safe`: the maskable variant keeps everything inside the central 80% circle.
function shapes(safe) {
  const k = safe ? 0.72 : 0.92;
  const o = (100 - 100 * k) / 2;
  const s = (v) => o + v * k;
  const pits = [];
  for (const y of [38, 62]) for (const x of [33, 50, 67]) pits.push({ x: s(x), y: s(y), r: 7.5 * k });
  const stores = [{ x: s(15), y: s(50), rx: 7 * k, ry: 19 * k }, { x: s(85), y: s(50), rx: 7 * k, ry: 19 * k }];
  const seeds = pits.flatMap((p) => [{ x: p.x - 2.3 * k, y: p.y + 0.5 * k, r: 2.4 * k }, { x: p.x + 2.3 * k, y: p.y - 0.8 * k, r: 2.4 * k }]);
  seeds.push({ x: s(85), y: s(44), r: 2.4 * k }, { x: s(85), y: s(52), r: 2.4 * k }, { x: s(15), y: s(50), r: 2.4 * k });
  return { board: { x: s(4), y: s(22), w: 92 * k, h: 56 * k, r: 12 * k }, pits, stores, seeds };
}

const hex = (c) => '#' + c.map((v) => v.toString(16).padStart(2, '0')).join('');

function svg(safe) {
  const d = shapes(safe);
  const b = d.board;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">
<rect width="100" height="100" rx="${safe ? 0 : 18}" fill="${hex(BG)}"/>
<rect x="${b.x}" y="${b.y}" width="${b.w}" height="${b.h}" rx="${b.r}" fill="${hex(WOOD)}"/>
${d.stores.map((e) => `<ellipse cx="${e.x}" cy="${e.y}" rx="${e.rx}" ry="${e.ry}" fill="${hex(PIT)}"/>`).join('\n')}
${d.pits.map((p) => `<circle cx="${p.x}" cy="${p.y}" r="${p.r}" fill="${hex(PIT)}"/>`).join('\n')}
${d.seeds.map((p) => `<circle cx="${p.x.toFixed(2)}" cy="${p.y.toFixed(2)}" r="${p.r.toFixed(2)}" fill="${hex(SEED)}"/>`).join('\n')}
</svg>
`;
}

// The same shapes rasterized: each pixel sampled 4x4 times for smooth edges.
function png(size, safe) {
  const d = shapes(safe);
  const inRound = (x, y, r) => {
    const b = d.board;
    const cx = Math.min(Math.max(x, b.x + b.r), b.x + b.w - b.r);
    const cy = Math.min(Math.max(y, b.y + b.r), b.y + b.h - b.r);
    return (x - cx) ** 2 + (y - cy) ** 2 <= r * r && x >= b.x && x <= b.x + b.w && y >= b.y && y <= b.y + b.h;
  };
  const colourAt = (x, y) => {
    for (const p of d.seeds) if ((x - p.x) ** 2 + (y - p.y) ** 2 <= p.r ** 2) return SEED;
    for (const p of d.pits) if ((x - p.x) ** 2 + (y - p.y) ** 2 <= p.r ** 2) return PIT;
    for (const e of d.stores) if (((x - e.x) / e.rx) ** 2 + ((y - e.y) / e.ry) ** 2 <= 1) return PIT;
    if (inRound(x, y, d.board.r)) return WOOD;
    return BG;
  };
  const raw = Buffer.alloc(size * (size * 3 + 1));
  const n = 4;
  for (let py = 0; py < size; ++py) {
    raw[py * (size * 3 + 1)] = 0;
    for (let px = 0; px < size; ++px) {
      const sum = [0, 0, 0];
      for (let sy = 0; sy < n; ++sy) for (let sx = 0; sx < n; ++sx) {
        const c = colourAt(((px + (sx + 0.5) / n) * 100) / size, ((py + (sy + 0.5) / n) * 100) / size);
        for (let i = 0; i < 3; ++i) sum[i] += c[i];
      }
      for (let i = 0; i < 3; ++i) raw[py * (size * 3 + 1) + 1 + px * 3 + i] = Math.round(sum[i] / (n * n));
    }
  }
  const chunk = (type, data) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const td = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(td));
    return Buffer.concat([len, td, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // truecolour
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw, { level: 9 })), chunk('IEND', Buffer.alloc(0))]);
}

const table = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; ++k) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf) {
  let c = 0xffffffff;
  for (const b of buf) c = table[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

writeFileSync(new URL('icon.svg', out), svg(false));
writeFileSync(new URL('icon-maskable.svg', out), svg(true));
for (const size of [192, 512]) {
  writeFileSync(new URL(`icon-${size}.png`, out), png(size, false));
  writeFileSync(new URL(`icon-maskable-${size}.png`, out), png(size, true));
}
writeFileSync(new URL('apple-touch-icon.png', out), png(180, false));
