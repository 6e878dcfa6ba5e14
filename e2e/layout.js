/**
 * Layout checks for the browser steps (issue 29, finding 9: at 375 px figures, the heatmap's last column, the
 * orders table's State column and the chart's last time label were cut off). Each returns a list of problems
 * in words (empty when all is well), so a step can say what is wrong at which width.
 */
'use strict';

const WIDE = { width: 1280, height: 860 };
const NARROW = { width: 375, height: 812 };

/** Runs `fn(width)` at 1280 and at 375 px, and leaves the page at 1280. */
async function atBothWidths(page, fn) {
  const problems = [];
  for (const vp of [WIDE, NARROW]) {
    await page.setViewportSize(vp);
    await page.waitForTimeout(300);
    for (const p of await fn(vp.width)) problems.push(`at ${vp.width}: ${p}`);
  }
  await page.setViewportSize(WIDE);
  await page.waitForTimeout(100);
  if (problems.length) throw new Error(problems.join('\n'));
}

/**
 * Everything matching `selector` inside the `locator`'s elements lies within the window's width and within
 * its scroll box's visible part (no column hidden behind a sideways scroll); the boxes scroll nothing sideways.
 */
async function nothingCutOff(locator, selector = '*') {
  return locator.evaluateAll(
    (roots, sel) => {
      const out = [];
      const vw = document.documentElement.clientWidth;
      for (const root of roots) {
        if (root.scrollWidth > root.clientWidth + 1) out.push(`${root.getAttribute('data-testid') || root.className || root.tagName} scrolls sideways by ${root.scrollWidth - root.clientWidth} px`);
        const clipBox = root.getBoundingClientRect();
        for (const el of root.querySelectorAll(sel)) {
          const r = el.getBoundingClientRect();
          if (r.width === 0 && r.height === 0) continue;
          const text = (el.textContent || el.getAttribute('aria-label') || el.tagName).trim().slice(0, 40);
          if (r.left < -0.5 || r.right > vw + 0.5) out.push(`"${text}" runs past the window (${Math.round(r.left)}…${Math.round(r.right)} of ${vw})`);
          else if (r.left < clipBox.left - 0.5 || r.right > clipBox.right + 0.5) out.push(`"${text}" is outside its box (${Math.round(r.left)}…${Math.round(r.right)}, box ${Math.round(clipBox.left)}…${Math.round(clipBox.right)})`);
        }
      }
      return out;
    },
    selector,
  );
}

/**
 * An equity curve (EquityCurve.tsx) as a reader sees it: a title naming the currency, the currency over the
 * value axis, at least two value ticks, at least two time labels none of them twice and none over another,
 * every label inside the picture and the window, drawn at its box's width (labels not shrunk) and readable.
 */
async function equityCurveProblems(curve, currency = 'USDT') {
  const info = await curve.evaluate((fig) => {
    const vw = document.documentElement.clientWidth;
    const box = fig.getBoundingClientRect();
    const all = (id) => [...fig.querySelectorAll(`[data-testid="${id}"]`)];
    const rect = (el) => el.getBoundingClientRect();
    const labels = [...all('equity-x-tick'), ...all('equity-y-tick'), ...all('equity-y-unit'), ...all('equity-title')];
    const outside = labels
      .filter((el) => {
        const r = rect(el);
        return r.width === 0 || r.left < Math.max(0, box.left) - 0.5 || r.right > Math.min(vw, box.right) + 0.5;
      })
      .map((el) => el.textContent);
    const xs = all('equity-x-tick').map((el) => ({ text: el.textContent, r: rect(el) })).sort((a, b) => a.r.left - b.r.left);
    const overlapping = xs.filter((x, i) => i > 0 && x.r.left < xs[i - 1].r.right + 2).map((x) => x.text);
    const svg = fig.querySelector('svg');
    const tick = all('equity-y-tick')[0];
    return {
      title: fig.querySelector('[data-testid="equity-title"]')?.textContent || '',
      unit: fig.querySelector('[data-testid="equity-y-unit"]')?.textContent || '',
      x: xs.map((x) => x.text),
      y: all('equity-y-tick').map((el) => el.textContent),
      outside,
      overlapping,
      sideways: fig.scrollWidth - fig.clientWidth,
      scale: svg ? rect(svg).width / Number(svg.getAttribute('width')) : 0,
      fontPx: tick ? parseFloat(getComputedStyle(tick).fontSize) * (svg ? rect(svg).width / Number(svg.getAttribute('width')) : 1) : 0,
    };
  });
  const p = [];
  if (!info.title.includes(`(${currency})`)) p.push(`the curve's title "${info.title}" does not name ${currency}`);
  if (info.unit !== currency) p.push(`the value axis says "${info.unit}", not ${currency}`);
  if (info.y.length < 2) p.push(`${info.y.length} value ticks`);
  if (info.x.length < 2) p.push(`${info.x.length} time labels`);
  if (new Set(info.x).size !== info.x.length) p.push(`a time label repeats: ${info.x.join(' | ')}`);
  if (info.outside.length) p.push(`labels cut off: ${info.outside.join(' | ')}`);
  if (info.overlapping.length) p.push(`time labels on top of each other: ${info.overlapping.join(' | ')}`);
  if (info.sideways > 1) p.push(`the curve scrolls sideways by ${info.sideways} px`);
  if (Math.abs(info.scale - 1) > 0.02) p.push(`the picture is scaled ×${info.scale.toFixed(2)} (its labels shrink with it)`);
  if (info.fontPx < 10) p.push(`labels drawn at ${info.fontPx.toFixed(1)} px`);
  return { problems: p, info };
}

/**
 * A sweep's heatmap as a reader sees it (issue 40, point 12: digits wrapped mid-number at 375 px, a 20-column
 * sweep was clipped at 1280): the map within the window, its caption in view; every number and axis label on
 * one line and whole; the table scrolls inside its box (`.sweep-heatmap__scroll`), and scrolled to either end
 * the grid-size labels of the rows stay in view and the first and the last interval column can be read inside
 * the box. Leaves the box scrolled back to its start.
 */
async function heatmapProblems(map) {
  return map.evaluate((fig) => {
    const out = [];
    const vw = document.documentElement.clientWidth;
    const box = fig.querySelector('.sweep-heatmap__scroll') || fig;
    const f = fig.getBoundingClientRect();
    if (f.left < -0.5 || f.right > vw + 0.5) out.push(`the heatmap runs past the window (${Math.round(f.left)}…${Math.round(f.right)} of ${vw})`);
    const caption = fig.querySelector('caption, figcaption');
    if (caption) {
      const c = caption.getBoundingClientRect();
      if (c.left < Math.max(0, f.left) - 0.5 || c.right > Math.min(vw, f.right) + 0.5) out.push(`the caption "${caption.textContent.trim().slice(0, 30)}…" is cut off`);
    }
    // each label and number on one line (a label made of lines, the corner's "interval →" / "orders ↓": each of them)
    for (const el of [...fig.querySelectorAll('th, button')].flatMap((x) => (x.children.length ? [...x.children] : [x]))) {
      const text = (el.textContent || '').trim();
      const range = document.createRange();
      range.selectNodeContents(el);
      const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
      if (lines.size > 1) out.push(`"${text}" wraps onto ${lines.size} lines`);
      if (el.scrollWidth > el.clientWidth + 1) out.push(`"${text}" is clipped (${el.scrollWidth} px in ${el.clientWidth})`);
    }
    const inBox = (el) => {
      const r = el.getBoundingClientRect();
      const b = box.getBoundingClientRect();
      return r.left >= Math.max(0, b.left) - 0.5 && r.right <= Math.min(vw, b.right) + 0.5;
    };
    const heads = [...fig.querySelectorAll('thead th')];
    const rowLabels = [...fig.querySelectorAll('tbody th')];
    for (const [end, at] of [['start', 0], ['end', box.scrollWidth]]) {
      box.scrollLeft = at;
      const column = end === 'start' ? heads[1] : heads[heads.length - 1];
      if (column && !inBox(column)) out.push(`scrolled to the ${end}, the ${end === 'start' ? 'first' : 'last'} interval column ("${column.textContent.trim()}") is not inside the box`);
      const hidden = rowLabels.filter((th) => !inBox(th)).map((th) => th.textContent.trim());
      if (hidden.length) out.push(`scrolled to the ${end}, the grid-size labels ${hidden.join(', ')} are out of view`);
    }
    box.scrollLeft = 0;
    return out;
  });
}

module.exports = { WIDE, NARROW, atBothWidths, nothingCutOff, equityCurveProblems, heatmapProblems };
