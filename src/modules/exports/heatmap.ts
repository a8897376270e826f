import { renderAsync } from '@resvg/resvg-js';
import { loadOnce } from '../../lib/load-once.ts';
import { MAX_ASPECT, MIN_ASPECT } from '../results/stimulus-aspect.ts';

/**
 * The click-test heatmap (spec Exports: GET /v2/questions/{id}/heatmap.png; docs/results.md
 * "Heatmap"): a transparent PNG to lay over the stimulus image, 800 px on its longer side and
 * shaped by the aspect (see ASPECT_LADDER), with the taps drawn as a smooth density in a classic
 * ramp, transparent → blue → cyan → green → yellow → red. Pure apart from the rendering.
 *
 * How it is drawn, and why:
 * 1. The density is computed here, not by stacking translucent SVG circles: resvg composites in
 *    8 bits, so a tap's share of the alpha rounds to nothing once there are a few hundred taps
 *    (checked: 1,000 circles of alpha 0.001 render fully transparent). Taps are splatted
 *    bilinearly on a grid of CELL_PX-pixel cells and blurred with a separable Gaussian (σ = the
 *    image width / 40, cut at 3σ), so the cost depends on the picture's size, not on the taps.
 * 2. The density is scaled by its peak, but never by less than SATURATION_TAPS taps on one spot:
 *    with many taps the busiest spot is the hottest colour; with few, a lone tap stays cool, and
 *    more taps on a spot are always hotter.
 * 3. The scaled density (0–1) goes through the colour ramp (a 256-entry table) into a small RGBA
 *    bitmap, one pixel per cell, embedded in an SVG as a PNG data URI and stretched to the full
 *    size with smooth (bicubic) interpolation; @resvg/resvg-js renders the SVG to the PNG. Doing
 *    the ramp in the SVG instead (feColorMatrix copying the alpha into the colour channels, then
 *    feComponentTransfer tables) works in resvg too and looks the same, but the filter pass over
 *    the full-size picture made each render about four times slower (≈120 ms against ≈30 ms for
 *    800 × 800), so the ramp is applied to the small bitmap.
 */
/** The longer side of every picture, so none has more pixels than HEATMAP_SIDE² (a square). */
export const HEATMAP_SIDE = 800;
// The range lives with the stored image size it clamps (results/stimulus-aspect.ts): one source.
export { MAX_ASPECT, MIN_ASPECT };
export const DEFAULT_ASPECT = 1;

/**
 * The aspects a heatmap is drawn at: common picture shapes from 1:4 to 4:1. A request's aspect is
 * drawn at the nearest step (by ratio), so however many distinct aspects are asked for, one set of
 * answers has at most this many pictures, which the picture cache keeps: before, every distinct
 * aspect on the keyless public routes was a fresh render (issue 8: one client pushed /healthz
 * from 3 ms to 198 ms). The overlay is stretched to the image anyway, so the taps stay in place;
 * a picture's shape is off by at most MAX_ASPECT_ERROR.
 */
export const ASPECT_STEPS: ReadonlyArray<readonly [width: number, height: number]> = [
  [1, 4], [1, 3], [2, 5], [1, 2], [9, 16], [2, 3], [3, 4], [4, 5], [1, 1], [5, 4], [4, 3], [3, 2], [16, 9], [2, 1], [5, 2], [3, 1], [4, 1],
];
export const ASPECT_LADDER: readonly number[] = ASPECT_STEPS.map(([width, height]) => width / height);
/** The steps as people write them, for the docs: "1:4, 1:3, …, 4:1". */
export const ASPECT_LADDER_TEXT = ASPECT_STEPS.map(([width, height]) => `${width}:${height}`).join(', ');

/** The ladder step an aspect is drawn at: the nearest by ratio (ties go to the squarer one). */
export function snapAspect(aspect: number): number {
  let best = DEFAULT_ASPECT;
  let bestOff = Infinity;
  for (const step of ASPECT_LADDER) {
    const off = Math.abs(Math.log(aspect / step));
    if (off < bestOff - 1e-12 || (Math.abs(off - bestOff) <= 1e-12 && Math.abs(Math.log(step)) < Math.abs(Math.log(best)))) [best, bestOff] = [step, off];
  }
  return best;
}

/** The largest ratio between a requested aspect and the step it is drawn at: the square root of the widest gap between steps (1:4 to 1:3, so about 1.155). */
export const MAX_ASPECT_ERROR = Math.sqrt(Math.max(...ASPECT_LADDER.slice(1).map((step, i) => step / ASPECT_LADDER[i])));
/** Output pixels per cell of the density grid (the bitmap is stretched smoothly to full size). */
export const CELL_PX = 4;
/** σ of a tap's blob as a share of the image width (a fingertip on a phone-width image). */
export const SIGMA_OF_WIDTH = 1 / 40;
/** Taps on one spot that reach the hottest colour when no spot has more. */
export const SATURATION_TAPS = 4;

/** The ramp at heat 0, 0.2, 0.4, 0.6, 0.8, 1 (linear in between): [r, g, b, alpha], 0–1. */
export const RAMP: ReadonlyArray<readonly [number, number, number, number]> = [
  [0, 0, 1, 0],
  [0, 0, 1, 0.45],
  [0, 1, 1, 0.7],
  [0, 1, 0, 0.85],
  [1, 1, 0, 1],
  [1, 0, 0, 1],
];

export interface TapPoint {
  x: number;
  y: number;
}

/** The picture's size: HEATMAP_SIDE on the longer side, the other side by the aspect (rounded). */
export function heatmapSize(aspect: number = DEFAULT_ASPECT): { width: number; height: number } {
  if (!(aspect >= MIN_ASPECT && aspect <= MAX_ASPECT)) throw new RangeError(`aspect must be ${MIN_ASPECT} to ${MAX_ASPECT}`);
  return aspect >= 1
    ? { width: HEATMAP_SIDE, height: Math.max(1, Math.round(HEATMAP_SIDE / aspect)) }
    : { width: Math.max(1, Math.round(HEATMAP_SIDE * aspect)), height: HEATMAP_SIDE };
}

export interface HeatField {
  cols: number;
  rows: number;
  /** cols × rows values 0–1, row-major from the top left; a cell's centre is at ((c + ½)·CELL_PX, (r + ½)·CELL_PX). */
  heat: Float64Array;
}

function gaussianKernel(sigma: number): Float64Array {
  const radius = Math.ceil(3 * sigma);
  const kernel = new Float64Array(2 * radius + 1);
  for (let d = -radius; d <= radius; d++) kernel[d + radius] = Math.exp(-(d * d) / (2 * sigma * sigma));
  return kernel;
}

/** One pass of the separable blur along rows (step 1) or columns (step = cols). */
function blur(src: Float64Array, cols: number, rows: number, kernel: Float64Array, alongRows: boolean): Float64Array {
  const out = new Float64Array(src.length);
  const radius = (kernel.length - 1) / 2;
  const [lines, length] = alongRows ? [rows, cols] : [cols, rows];
  const stride = alongRows ? 1 : cols;
  for (let line = 0; line < lines; line++) {
    const base = alongRows ? line * cols : line;
    for (let i = 0; i < length; i++) {
      const value = src[base + i * stride];
      if (value === 0) continue;
      const from = Math.max(0, i - radius);
      const to = Math.min(length - 1, i + radius);
      for (let j = from; j <= to; j++) out[base + j * stride] += value * kernel[j - i + radius];
    }
  }
  return out;
}

/** The tap density on the grid of a width × height picture, scaled to 0–1 (see the top). */
export function heatField(points: readonly TapPoint[], width: number, height: number): HeatField {
  const cols = Math.ceil(width / CELL_PX);
  const rows = Math.ceil(height / CELL_PX);
  const counts = new Float64Array(cols * rows);
  for (const { x, y } of points) {
    // Cell coordinates whose integers are cell centres; a tap on the border leans on the edge cell.
    const u = Math.min(cols - 1, Math.max(0, (x * width) / CELL_PX - 0.5));
    const v = Math.min(rows - 1, Math.max(0, (y * height) / CELL_PX - 0.5));
    const c0 = Math.floor(u);
    const r0 = Math.floor(v);
    const c1 = Math.min(cols - 1, c0 + 1);
    const r1 = Math.min(rows - 1, r0 + 1);
    const fu = u - c0;
    const fv = v - r0;
    counts[r0 * cols + c0] += (1 - fu) * (1 - fv);
    counts[r0 * cols + c1] += fu * (1 - fv);
    counts[r1 * cols + c0] += (1 - fu) * fv;
    counts[r1 * cols + c1] += fu * fv;
  }
  // An unnormalised kernel: one tap on a cell centre peaks at exactly 1.
  const kernel = gaussianKernel((SIGMA_OF_WIDTH * width) / CELL_PX);
  const heat = blur(blur(counts, cols, rows, kernel, true), cols, rows, kernel, false);
  let peak = 0;
  for (const value of heat) if (value > peak) peak = value;
  const scale = Math.max(peak, SATURATION_TAPS);
  for (let i = 0; i < heat.length; i++) heat[i] = Math.min(1, heat[i] / scale);
  return { cols, rows, heat };
}

/** RGBA bytes (not premultiplied) of the ramp at heat i / 255. */
const LUT = (() => {
  const lut = new Uint8Array(256 * 4);
  for (let i = 0; i < 256; i++) {
    const at = (i / 255) * (RAMP.length - 1);
    const lower = Math.min(RAMP.length - 2, Math.floor(at));
    const f = at - lower;
    for (let c = 0; c < 4; c++) lut[i * 4 + c] = Math.round(255 * (RAMP[lower][c] + (RAMP[lower + 1][c] - RAMP[lower][c]) * f));
  }
  return lut;
})();

/** The ramp's RGBA bytes at a heat 0–1 (as drawn, to 1/255). */
export function rampColour(heat: number): [number, number, number, number] {
  const at = Math.round(Math.min(1, Math.max(0, heat)) * 255) * 4;
  return [LUT[at], LUT[at + 1], LUT[at + 2], LUT[at + 3]];
}

/** pngjs loads with the first heatmap, not at start-up (issue 15). */
const pngjs = loadOnce(() => import('pngjs'));

/** The SVG of the heatmap of `points` (0–1 from the top left of the image) at `aspect` = width / height. */
export async function heatmapSvg(points: readonly TapPoint[], aspect: number = DEFAULT_ASPECT): Promise<string> {
  const { width, height } = heatmapSize(aspect);
  const open = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">`;
  if (points.length === 0) return `${open}</svg>`;
  const { cols, rows, heat } = heatField(points, width, height);
  const rgba = new Uint8Array(cols * rows * 4);
  for (let i = 0; i < heat.length; i++) {
    const at = Math.round(heat[i] * 255) * 4;
    rgba.set(LUT.subarray(at, at + 4), i * 4);
  }
  // pngjs encodes the small bitmap the SVG stretches (resvg renders SVG; it does not encode raw pixels).
  const { PNG } = await pngjs();
  const png = new PNG({ width: cols, height: rows });
  png.data = Buffer.from(rgba.buffer, rgba.byteOffset, rgba.byteLength);
  const bitmap = PNG.sync.write(png).toString('base64');
  // The bitmap may overhang the picture by less than a cell: it is cut at the edge.
  return (
    open +
    `<image x="0" y="0" width="${cols * CELL_PX}" height="${rows * CELL_PX}" preserveAspectRatio="none" image-rendering="optimizeQuality" ` +
    `href="data:image/png;base64,${bitmap}"/></svg>`
  );
}

/** The heatmap as a PNG. Rendered off the main thread (resvg's async render); no fonts are loaded. */
export async function renderHeatmapPng(points: readonly TapPoint[], aspect: number = DEFAULT_ASPECT): Promise<Buffer> {
  const image = await renderAsync(await heatmapSvg(points, aspect), { fitTo: { mode: 'original' }, font: { loadSystemFonts: false }, imageRendering: 0, logLevel: 'off' });
  return image.asPng();
}
