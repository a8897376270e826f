import { Resvg, type ResvgRenderOptions } from '@resvg/resvg-js';
import { chartSvg } from './chart-svg.ts';
import { DEFAULT_EXPORT_SIZE, type ChartInput, type ExportSize } from './render.types.ts';

/**
 * resvg with no fonts at all: the SVG draws its text as glyph outlines of the shipped Noto fonts
 * (glyphs.ts), so no font of the machine can ever take part, and not loading them keeps a render
 * in tens of milliseconds.
 */
export function resvgOptions(): ResvgRenderOptions {
  return {
    font: { loadSystemFonts: false },
    // Text and bars anti-aliased: these pictures are looked at, not measured.
    shapeRendering: 2,
    textRendering: 1,
    logLevel: 'error',
  };
}

/** The chart as a PNG of the export size (spec Exports: export.png). */
export function renderChartPng(input: ChartInput, size: ExportSize = DEFAULT_EXPORT_SIZE): Buffer {
  return new Resvg(chartSvg(input, size), resvgOptions()).render().asPng();
}
