import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PNG } from 'pngjs';

/**
 * What the renderer's tests look at, the way a person would: pixels of a PNG (decoded with
 * pngjs), and a PDF through poppler-utils (pdfinfo, pdftotext, pdffonts, pdftoppm; Debian package
 * `poppler-utils`, which CI installs).
 */
export interface Region {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

export const decode = (png: Buffer): PNG => PNG.sync.read(png);

const whole = (img: PNG): Region => ({ x0: 0, y0: 0, x1: img.width, y1: img.height });

function* pixels(img: PNG, region: Region = whole(img)): Generator<{ x: number; y: number; r: number; g: number; b: number; a: number }> {
  for (let y = Math.max(0, region.y0); y < Math.min(img.height, region.y1); y++) {
    for (let x = Math.max(0, region.x0); x < Math.min(img.width, region.x1); x++) {
      const i = (y * img.width + x) * 4;
      yield { x, y, r: img.data[i], g: img.data[i + 1], b: img.data[i + 2], a: img.data[i + 3] };
    }
  }
}

const rgb = (hex: string) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));

/** How many different colours a region holds (a blank image has one). */
export function distinctColours(img: PNG, region?: Region): number {
  const seen = new Set<number>();
  for (const p of pixels(img, region)) seen.add((p.r << 16) | (p.g << 8) | p.b);
  return seen.size;
}

/** Pixels dark enough to be text (luma under 140). */
export function ink(img: PNG, region?: Region): number {
  let n = 0;
  for (const p of pixels(img, region)) if (0.299 * p.r + 0.587 * p.g + 0.114 * p.b < 140) n++;
  return n;
}

/** Pixels that are not `background` (within a small tolerance for anti-aliasing). */
export function notBackground(img: PNG, background: string, region?: Region): number {
  const [r, g, b] = rgb(background);
  let n = 0;
  for (const p of pixels(img, region)) if (Math.abs(p.r - r) + Math.abs(p.g - g) + Math.abs(p.b - b) > 12) n++;
  return n;
}

/** Where a colour occurs: its bounding box and count (exact match, so anti-aliased edges do not count). */
export function colourBox(img: PNG, hex: string, region?: Region): { count: number; x0: number; x1: number; y0: number; y1: number } {
  const [r, g, b] = rgb(hex);
  const box = { count: 0, x0: Infinity, x1: -Infinity, y0: Infinity, y1: -Infinity };
  for (const p of pixels(img, region)) {
    if (p.r !== r || p.g !== g || p.b !== b) continue;
    box.count++;
    box.x0 = Math.min(box.x0, p.x);
    box.x1 = Math.max(box.x1, p.x);
    box.y0 = Math.min(box.y0, p.y);
    box.y1 = Math.max(box.y1, p.y);
  }
  return box;
}

/** Columns of a region that hold ink, as [first, last]; null when none do. */
export function inkSpan(img: PNG, region: Region): [number, number] | null {
  let first = Infinity;
  let last = -Infinity;
  for (const p of pixels(img, region)) {
    if (0.299 * p.r + 0.587 * p.g + 0.114 * p.b < 140) {
      first = Math.min(first, p.x);
      last = Math.max(last, p.x);
    }
  }
  return first === Infinity ? null : [first, last];
}

function poppler(tool: string, args: string[]): string {
  try {
    return execFileSync(tool, args, { encoding: 'utf8' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new Error(`${tool} is missing: install the Debian package poppler-utils`);
    throw error;
  }
}

/** What poppler sees in a PDF: its info, its text, its fonts, and page 1 rendered at `dpi` as a PNG. */
export function inspectPdf(pdf: Buffer, dpi = 50): { info: string; text: string; fonts: string; page: PNG } {
  const dir = mkdtempSync(join(tmpdir(), 'headcount-pdf-'));
  try {
    const file = join(dir, 'export.pdf');
    writeFileSync(file, pdf);
    const info = poppler('pdfinfo', [file]);
    const text = poppler('pdftotext', ['-layout', '-enc', 'UTF-8', file, '-']);
    const fonts = poppler('pdffonts', [file]);
    poppler('pdftoppm', ['-r', String(dpi), '-png', '-singlefile', file, join(dir, 'page')]);
    return { info, text, fonts, page: decode(readFileSync(join(dir, 'page.png'))) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
