import { Worker } from 'node:worker_threads';
import type { ChartInput } from './render.types.ts';

/**
 * Draws PDFs on one worker thread (pdf-worker.ts), started on the first PDF and kept, unref'd, so
 * it never holds the process open. Its entry (pdf-worker.mjs) registers tsx in the thread, as
 * `npm start` does for the main one, so it runs the same TypeScript under any runner.
 * A worker that dies fails the PDFs it was drawing and is replaced on the next one.
 */
interface Pending {
  resolve: (pdf: Buffer) => void;
  reject: (error: Error) => void;
}

let worker: Worker | null = null;
const pending = new Map<number, Pending>();
let nextId = 0;

function failAll(error: Error): void {
  for (const job of pending.values()) job.reject(error);
  pending.clear();
  worker = null;
}

function started(): Worker {
  if (worker) return worker;
  // Built (dist/, plain JavaScript): the compiled worker itself. From src/ (tsx, tests): an
  // entry that registers tsx in the thread first (a worker does not inherit its parent's loaders).
  const entry = import.meta.url.endsWith('.js') ? './pdf-worker.js' : './pdf-worker.mjs';
  const thread = new Worker(new URL(entry, import.meta.url));
  thread.unref();
  thread.on('message', (message: { id: number; pdf?: Uint8Array; error?: string }) => {
    const job = pending.get(message.id);
    if (!job) return;
    pending.delete(message.id);
    if (message.pdf) job.resolve(Buffer.from(message.pdf.buffer, message.pdf.byteOffset, message.pdf.byteLength));
    else job.reject(new Error(`PDF worker: ${message.error}`));
  });
  thread.on('error', (error) => failAll(error));
  thread.on('exit', (code) => {
    if (worker === thread) failAll(new Error(`PDF worker exited with code ${code}`));
  });
  worker = thread;
  return thread;
}

export function renderPdfOffThread(input: ChartInput, generatedAt: Date): Promise<Buffer> {
  const thread = started();
  const id = ++nextId;
  return new Promise<Buffer>((resolve, reject) => {
    pending.set(id, { resolve, reject });
    // Question and Result are JSON shapes: they cross to the worker by structured clone.
    thread.postMessage({ id, input, generatedAt: generatedAt.getTime() });
  });
}
