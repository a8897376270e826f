import { renderAsync } from '@resvg/resvg-js';
import { resvgOptions } from './chart-png.ts';
import { chartSvg } from './chart-svg.ts';
import type { ChartInput, ExportSize } from './render.types.ts';

/**
 * The renderer the export service uses (exports.service.ts ChartRenderer). The PNG is rasterised
 * by resvg on a libuv worker thread (`renderAsync`), so a 1080 × 1920 chart does not hold the
 * event loop that answers every other request; drawing the SVG itself takes a millisecond or two.
 */
export const chartRenderer = {
  async png(input: ChartInput, size: ExportSize): Promise<Buffer> {
    const rendered = await renderAsync(chartSvg(input, size), resvgOptions());
    return rendered.asPng();
  },
  /**
   * `generatedAt` is the PDF's creation date (its metadata). pdfkit and its fonts load on the
   * first PDF, not at start-up (a quarter of a second nobody asking questions should wait for).
   */
  async pdf(input: ChartInput, generatedAt: Date): Promise<Buffer> {
    const { renderChartPdf } = await import('./chart-pdf.ts');
    return renderChartPdf(input, { generatedAt });
  },
};
