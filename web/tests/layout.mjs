// The board's layout checks shared by the browser tests (the game page, the big boards).
import assert from 'node:assert/strict';

// No two count badges overlap, none covers another house or a store's name, every house shows one,
// and every house is at least 44 px across; store names are not cut. (A name may wrap, even within a
// word: a long username cannot always fit a narrow store whole, and fonts differ between machines.)
export async function checkLayout(page, where) {
  const boxes = await page.$$eval('.board .pit', (cells) => cells.map((c) => {
    const r = c.getBoundingClientRect();
    const b = c.querySelector('.count').getBoundingClientRect();
    const name = c.querySelector('.store-name');
    const n = name?.textContent ? name.getBoundingClientRect() : null;
    return { house: c.classList.contains('house'), pit: c.dataset.pit, cell: [r.left, r.top, r.right, r.bottom], count: [b.left, b.top, b.right, b.bottom],
      shown: c.querySelector('.count').textContent !== '', cut: name ? name.scrollWidth > name.clientWidth + 1 : false,
      name: n ? [n.left, n.top, n.right, n.bottom] : null };
  }));
  const overlap = (a, b) => a[0] < b[2] - 1 && b[0] < a[2] - 1 && a[1] < b[3] - 1 && b[1] < a[3] - 1;
  for (const x of boxes) {
    assert.ok(x.shown, `${where}: pit ${x.pit} shows its count`);
    assert.ok(!x.cut, `${where}: the store name of pit ${x.pit} is whole`);
    if (x.house) assert.ok(Math.min(x.cell[2] - x.cell[0], x.cell[3] - x.cell[1]) >= 44, `${where}: house ${x.pit} is ${x.cell[2] - x.cell[0]} px`);
    for (const y of boxes) {
      if (y.name) assert.ok(!overlap(x.count, y.name), `${where}: the count of pit ${x.pit} covers the name in pit ${y.pit}`);
      if (x === y) continue;
      assert.ok(!overlap(x.count, y.count), `${where}: counts of pits ${x.pit} and ${y.pit} overlap`);
      if (y.house) assert.ok(!overlap(x.count, y.cell), `${where}: the count of pit ${x.pit} covers house ${y.pit}`);
    }
  }
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth), `${where}: no sideways scroll`);
  const names = await page.$$eval('.player .name', (n) => n.map((x) => x.scrollWidth <= x.clientWidth + 1));
  assert.ok(names.every(Boolean), `${where}: the players' names are whole`);
}
