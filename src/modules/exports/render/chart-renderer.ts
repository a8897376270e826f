import { renderAsync } from '@resvg/resvg-js';
import { resvgOptions } from './chart-png.ts';
import { chartSvg } from './chart-svg.ts';
import { renderPdfOffThread } from './pdf-thread.ts';
import type { ChartInput, ExportSize } from './render.types.ts';

/**
 * The renderer the export service uses (exports.service.ts ChartRenderer). The PNG is rasterised
 * by resvg on a libuv worker thread (`renderAsync`), so a 1080 × 1920 chart does not hold the
 * event loop that answers every other request; drawing the SVG itself takes a few milliseconds.
 */
export const chartRenderer = {
  async png(input: ChartInput, size: ExportSize): Promise<Buffer> {
    const rendered = await renderAsync(chartSvg(input, size), resvgOptions());
    return rendered.asPng();
  },
  /**
   * `generatedAt` is the PDF's creation date (its metadata). Drawn on a worker thread
   * (pdf-thread.ts) started on the first PDF, so pdfkit costs nothing at start-up and its
   * 100–200 ms a page never hold the event loop.
   */
  pdf: (input: ChartInput, generatedAt: Date): Promise<Buffer> => renderPdfOffThread(input, generatedAt),
};
