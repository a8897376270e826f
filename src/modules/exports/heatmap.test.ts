import { describe, expect, it } from 'vitest';
import { PNG } from 'pngjs';
import { heatField, heatmapSize, heatmapSvg, rampColour, renderHeatmapPng, snapAspect, ASPECT_LADDER, HEATMAP_SIDE, MAX_ASPECT, MAX_ASPECT_ERROR, MIN_ASPECT, SATURATION_TAPS, type TapPoint } from './heatmap.ts';

/** The heatmap drawing (docs/results.md "Heatmap"), checked on the decoded PNG that resvg renders. */
async function draw(points: TapPoint[], aspect?: number) {
  const png = PNG.sync.read(await renderHeatmapPng(points, aspect));
  const at = (x: number, y: number) => {
    const i = (Math.round(y) * png.width + Math.round(x)) * 4;
    const [r, g, b, a] = png.data.subarray(i, i + 4);
    return { r, g, b, a };
  };
  /** The pixel under a point given 0–1 of the image. */
  const under = (p: TapPoint) => at(Math.min(png.width - 1, p.x * png.width), Math.min(png.height - 1, p.y * png.height));
  return { png, at, under };
}

const cluster = (x: number, y: number, n: number): TapPoint[] => Array.from({ length: n }, (_, i) => ({ x: x + ((i % 3) - 1) * 0.002, y: y + (Math.floor(i / 3) % 3 - 1) * 0.002 }));

/** Where on the ramp (0 cool … 1 hot) a drawn colour sits: the nearest ramp colour by RGB. */
function heatOf(p: { r: number; g: number; b: number }): number {
  let best = 0;
  let bestDistance = Infinity;
  for (let i = 1; i <= 255; i++) {
    const [r, g, b] = rampColour(i / 255);
    const distance = (r - p.r) ** 2 + (g - p.g) ** 2 + (b - p.b) ** 2;
    if (distance < bestDistance) [best, bestDistance] = [i / 255, distance];
  }
  return best;
}

function everyAlpha(png: PNG): Set<number> {
  const seen = new Set<number>();
  for (let i = 3; i < png.data.length; i += 4) seen.add(png.data[i]);
  return seen;
}

describe('heatmap size', () => {
  it.each([
    [1, 800, 800],
    [0.5, 400, 800],
    [2, 800, 400],
    [4 / 3, 800, 600],
    [16 / 9, 800, 450],
    [9 / 16, 450, 800],
    [0.25, 200, 800],
    [4, 800, 200],
  ])('aspect %d → %d × %d (the longer side is 800 px), decoded', async (aspect, width, height) => {
    expect(heatmapSize(aspect)).toEqual({ width, height });
    const { png } = await draw(cluster(0.5, 0.5, 3), aspect);
    expect([png.width, png.height]).toEqual([width, height]);
  });

  it('no picture has more pixels than an 800 × 800 square (the tallest used to be 800 × 3200)', () => {
    for (let aspect = MIN_ASPECT; aspect <= MAX_ASPECT; aspect += 0.01) {
      const { width, height } = heatmapSize(aspect);
      expect(Math.max(width, height)).toBe(HEATMAP_SIDE);
      expect(width * height).toBeLessThanOrEqual(HEATMAP_SIDE * HEATMAP_SIDE);
    }
  });

  it('refuses an aspect outside 0.25–4', () => {
    for (const aspect of [0.2, 4.5, 0, -1, Number.NaN, Infinity]) expect(() => heatmapSize(aspect)).toThrow(RangeError);
  });
});

describe('the aspect ladder (a few fixed steps, so distinct aspects share pictures)', () => {
  it('is the common picture shapes from 1:4 to 4:1, each step mapping to itself', () => {
    expect(ASPECT_LADDER[0]).toBe(MIN_ASPECT);
    expect(ASPECT_LADDER.at(-1)).toBe(MAX_ASPECT);
    for (const step of [1, 4 / 3, 3 / 2, 16 / 9, 2, 3 / 4, 2 / 3, 9 / 16, 1 / 2, 4 / 5, 5 / 4]) expect(ASPECT_LADDER).toContain(step);
    for (const step of ASPECT_LADDER) expect(snapAspect(step)).toBe(step);
    expect(ASPECT_LADDER.length).toBeLessThanOrEqual(17);
  });

  it('100 distinct aspects land on at most the ladder’s steps, each the nearest by ratio and within MAX_ASPECT_ERROR of the request', () => {
    const requested = Array.from({ length: 100 }, (_, i) => MIN_ASPECT * (MAX_ASPECT / MIN_ASPECT) ** (i / 99));
    const snapped = requested.map(snapAspect);
    expect(new Set(snapped).size).toBeLessThanOrEqual(ASPECT_LADDER.length);
    for (const [i, aspect] of requested.entries()) {
      const off = (step: number) => Math.max(step / aspect, aspect / step);
      expect(off(snapped[i])).toBeLessThanOrEqual(MAX_ASPECT_ERROR + 1e-12);
      for (const step of ASPECT_LADDER) expect(off(snapped[i])).toBeLessThanOrEqual(off(step) + 1e-12);
    }
    expect(MAX_ASPECT_ERROR).toBeLessThan(1.16);
  });

  it('typical images keep their shape: a phone screenshot (9:19.5) draws at 1:2, 0.85 at 4:5, 1.85:1 at 16:9', () => {
    expect(snapAspect(9 / 19.5)).toBe(1 / 2);
    expect(snapAspect(0.85)).toBe(4 / 5);
    expect(snapAspect(1.85)).toBe(16 / 9);
    expect(snapAspect(1.01)).toBe(1);
  });
});

describe('heatmap drawing', () => {
  it('no taps: a fully transparent picture of the right size', async () => {
    const { png } = await draw([], 1.5);
    expect([png.width, png.height]).toEqual([800, 533]);
    expect(everyAlpha(png)).toEqual(new Set([0]));
  });

  it('a tall picture: the blob keeps its size relative to the width, under the tap', async () => {
    const { png, under } = await draw(cluster(0.3, 0.7, 6), 0.5);
    expect([png.width, png.height]).toEqual([400, 800]);
    expect(under({ x: 0.3, y: 0.7 }).a).toBe(255);
    // σ is 1/40 of the width (10 px here): 5σ away from the cluster nothing is drawn.
    expect(under({ x: 0.3 + 50 / 400 + 0.02, y: 0.7 }).a).toBe(0);
    expect(under({ x: 0.3, y: 0.7 - 50 / 800 - 0.02 }).a).toBe(0);
  });

  it('corners stay transparent; a cluster is opaque and red at its centre, cooling outwards', async () => {
    const { png, at, under } = await draw(cluster(0.5, 0.5, 6));
    for (const [x, y] of [[0, 0], [799, 0], [0, 799], [799, 799]]) expect(at(x, y).a).toBe(0);
    const centre = under({ x: 0.5, y: 0.5 });
    expect(centre.a).toBe(255);
    expect(centre.r).toBeGreaterThan(230);
    expect(centre.g).toBeLessThan(60);
    expect(centre.b).toBeLessThan(30);
    // 30 px out (1.5σ): cooler (green to cyan), still visible; 100 px out (5σ): nothing.
    const ring = at(430, 400);
    expect(ring.r).toBeLessThan(centre.r);
    expect(ring.g).toBeGreaterThan(150);
    expect(ring.a).toBeGreaterThan(0);
    expect(at(500, 400).a).toBe(0);
    // Transparent everywhere far from the taps.
    let far = 0;
    for (let y = 0; y < png.height; y += 7) for (let x = 0; x < png.width; x += 7) if (Math.hypot(x - 400, y - 400) > 80) far = Math.max(far, at(x, y).a);
    expect(far).toBe(0);
  });

  it('x runs left to right and y top to bottom, on any aspect', async () => {
    for (const aspect of [0.5, 1, 3]) {
      const { under } = await draw(cluster(0.9, 0.1, 5), aspect);
      expect(under({ x: 0.9, y: 0.1 }).a).toBe(255);
      expect(under({ x: 0.1, y: 0.9 }).a).toBe(0);
      expect(under({ x: 0.1, y: 0.1 }).a).toBe(0);
    }
  });

  it('a lone tap is cool and half transparent (blue), not the hottest colour', async () => {
    const { under } = await draw([{ x: 0.3, y: 0.7 }]);
    const p = under({ x: 0.3, y: 0.7 });
    // Heat 1/SATURATION_TAPS = 0.25 on the ramp: between blue (0.2, alpha 0.45) and cyan (0.4, alpha 0.7).
    expect(SATURATION_TAPS).toBe(4);
    expect(p.b).toBeGreaterThan(240);
    expect(p.r).toBeLessThan(10);
    expect(p.g).toBeGreaterThan(40);
    expect(p.g).toBeLessThan(90);
    expect(p.a).toBeGreaterThan(115);
    expect(p.a).toBeLessThan(145);
  });

  it('more taps on a spot are hotter: in one picture, and from one picture to the next', async () => {
    const both = await draw([...cluster(0.25, 0.25, 6), ...cluster(0.75, 0.75, 2)]);
    const busy = both.under({ x: 0.25, y: 0.25 });
    const quiet = both.under({ x: 0.75, y: 0.75 });
    expect(heatOf(busy)).toBeGreaterThan(0.95);
    // Scaled by the busiest spot: 2 of 6 taps.
    expect(heatOf(quiet)).toBeCloseTo(2 / 6, 1);
    expect(busy.a).toBeGreaterThan(quiet.a);

    let previous = { heat: 0, alpha: 0 };
    for (const n of [1, 2, 3, 4]) {
      const p = (await draw(cluster(0.5, 0.5, n))).under({ x: 0.5, y: 0.5 });
      // Drawn colours are the ramp's, at about n / SATURATION_TAPS.
      expect(heatOf(p)).toBeCloseTo(n / SATURATION_TAPS, 1);
      expect(heatOf(p)).toBeGreaterThan(previous.heat);
      expect(p.a).toBeGreaterThanOrEqual(previous.alpha);
      previous = { heat: heatOf(p), alpha: p.a };
    }
    expect(previous.alpha).toBe(255);
  });

  it('the busiest spot of many taps is the hottest; the field is scaled to 0–1', () => {
    const many = [...cluster(0.2, 0.2, 200), ...cluster(0.8, 0.8, 50)];
    const { heat, cols } = heatField(many, 800, 800);
    expect(Math.max(...heat)).toBe(1);
    expect(heat[40 * cols + 40]).toBeCloseTo(1, 1);
    expect(heat[160 * cols + 160]).toBeCloseTo(0.25, 1);
    expect(Math.min(...heat)).toBe(0);
  });

  it('taps on the border and corners are drawn, not dropped', async () => {
    const { at } = await draw([...cluster(1, 1, 4), { x: 0, y: 0 }, { x: 0, y: 0 }]);
    expect(at(799, 799).a).toBeGreaterThan(100);
    expect(at(0, 0).a).toBeGreaterThan(50);
    expect(at(0, 799).a).toBe(0);
  });

  it('the SVG is a plain picture: one embedded bitmap, no script or external reference', async () => {
    const svg = await heatmapSvg(cluster(0.5, 0.5, 3), 2);
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="800" height="400"/);
    expect(svg.match(/<image /g)).toHaveLength(1);
    expect(svg).toContain('href="data:image/png;base64,');
    expect(svg).not.toMatch(/https?:\/\/(?!www\.w3\.org\/2000\/svg)/);
  });
});
