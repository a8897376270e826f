import { parentPort } from 'node:worker_threads';
import { renderChartPdf } from './chart-pdf.ts';
import type { ChartInput } from './render.types.ts';

/**
 * The worker thread PDFs are drawn in (pdf-thread.ts): pdfkit and fontkit's shaping are plain
 * JavaScript and take 100–200 ms a page, which on the main thread would hold every other request.
 * One message in ({id, input, generatedAt}), one out ({id, pdf} or {id, error}).
 */
interface Job {
  id: number;
  input: ChartInput;
  generatedAt: number;
}

parentPort!.on('message', (job: Job) => {
  // Through a promise, so a throw while drawing is answered as an error, not a dead thread.
  Promise.resolve().then(() => renderChartPdf(job.input, { generatedAt: new Date(job.generatedAt) })).then(
    (pdf) => {
      const bytes = new Uint8Array(pdf.buffer, pdf.byteOffset, pdf.byteLength).slice();
      parentPort!.postMessage({ id: job.id, pdf: bytes }, [bytes.buffer]);
    },
    (error: unknown) => parentPort!.postMessage({ id: job.id, error: error instanceof Error ? error.stack ?? error.message : String(error) }),
  );
});
