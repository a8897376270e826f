import type { Readable } from 'node:stream';
import type { Clock } from '../../lib/clock.ts';
import { concurrencyLimit } from '../../lib/concurrency-limit.ts';
import { loadOnce } from '../../lib/load-once.ts';
import { AppError, notFound, validationError } from '../../lib/errors.ts';
import { tokenSigner } from '../../lib/signed-token.ts';
import { answerLinkUrl, questionView } from '../questions/question-view.ts';
import { applyFilter, filterOf, type ResultQuery } from '../results/filters.ts';
import type { ResultService } from '../results/results.service.ts';
import type { QuestionsRepository } from '../questions/questions.repository.ts';
import { storedDraft } from '../draft/stored-draft.ts';
import type { ChartInput } from './render/render.types.ts';
import { answersCsv } from './answers-csv.ts';
import { exportFilename } from './export-filename.ts';
import { EXPORT_LINK_SECONDS, type CreateExportBody, type Export, type ExportFormat, type ExportSizeName } from './exports.schemas.ts';

/**
 * Files made from a question (spec Exports; docs/exports.md): the answers as CSV, the chart as
 * PNG, a one-page PDF, signed links that open a PNG or PDF for an hour without signing in, and
 * the answer link as a QR code.
 *
 * PNG and PDF are drawn from the Question and the Result exactly as the API returns them (the
 * result service's cached answers, so an export costs the question row and nothing more), by the
 * renderer in render/. Renders take the event loop or a worker thread for tens of milliseconds and
 * export links need no key, so at most MAX_RENDERS run at once; the rest queue.
 *
 * Export links carry everything in a signed token (lib/signed-token.ts: account, question,
 * format, size, expiry), so nothing is stored and nothing needs cleaning up; the HMAC key comes
 * from SESSION_SECRET, which every process shares. A link opens the result as it is when opened.
 */
export interface ChartRenderer {
  png(input: ChartInput, size: ExportSizeName): Promise<Buffer>;
  pdf(input: ChartInput, generatedAt: Date): Promise<Buffer>;
}

export interface ExportFile {
  filename: string;
  contentType: string;
  body: Buffer;
}

interface LinkPayload {
  a: string;
  q: string;
  f: ExportFormat;
  s: ExportSizeName | null;
  /** Expiry, seconds since the epoch. */
  e: number;
}

const MAX_RENDERS = 2;
/** The QR PNG's side (spec: 1024-pixel PNG); quiet zone and error correction from the spec. */
export const QR_PNG_PIXELS = 1024;
const QR_OPTIONS = { errorCorrectionLevel: 'M', margin: 4 } as const;

const CONTENT_TYPES: Record<ExportFormat, string> = { pdf: 'application/pdf', png: 'image/png' };

export interface ExportServiceDeps {
  /** The question with what its view needs (questions.repository's find). */
  questions: Pick<QuestionsRepository, 'find'>;
  results: Pick<ResultService, 'build' | 'entry'>;
  renderer: ChartRenderer;
  clock: Clock;
  /** PUBLIC_BASE_URL: export links and the answer link in QR codes start with it. */
  publicBaseUrl: string;
  /** SESSION_SECRET: keys the export links' signatures. */
  signingSecret: string;
}

/** qrcode loads with the first QR code, not at start-up (issue 15). */
const qrcode = loadOnce(() => import('qrcode'));

export function createExportService(deps: ExportServiceDeps) {
  const { questions, results, renderer, clock } = deps;
  const base = deps.publicBaseUrl.replace(/\/+$/, '');
  const links = tokenSigner<LinkPayload>(deps.signingSecret, 'export link v1');
  const limited = concurrencyLimit(MAX_RENDERS);

  /** The question's text, which names every file made from it. */
  const textOf = (row: { draft: Record<string, unknown> }): string => storedDraft(row.draft).text ?? '';

  async function rowOf(accountId: string, id: string) {
    const row = await questions.find(accountId, id);
    if (!row) throw notFound('No such question on this account.');
    return row;
  }

  async function render(accountId: string, id: string, format: ExportFormat, size: ExportSizeName | null): Promise<ExportFile> {
    const row = await rowOf(accountId, id);
    const input: ChartInput = { question: questionView(row, base), result: await results.build(row) };
    const body = await limited(() => (format === 'pdf' ? renderer.pdf(input, clock.now()) : renderer.png(input, size ?? 'square')));
    return { filename: exportFilename(input.question.text, row.id, format, format === 'png' ? (size ?? 'square') : undefined), contentType: CONTENT_TYPES[format], body };
  }

  return {
    /** GET /v2/questions/{id}/export.csv: every answer the result's filters keep, oldest first. */
    async csv(accountId: string, id: string, query: ResultQuery = {}): Promise<{ filename: string; stream: Readable }> {
      const { row, entry } = await results.entry(accountId, id);
      const filter = filterOf(query, entry.ctx.type, entry.ctx.labels);
      const { rows } = applyFilter(entry.rows, filter, entry.ctx.type);
      return { filename: exportFilename(textOf(row), row.id, 'csv'), stream: await answersCsv(rows, entry.ctx) };
    },

    /** GET /v2/questions/{id}/export.png */
    png: (accountId: string, id: string, size: ExportSizeName = 'square') => render(accountId, id, 'png', size),

    /** GET /v2/questions/{id}/export.pdf */
    pdf: (accountId: string, id: string) => render(accountId, id, 'pdf', null),

    /** POST /v2/questions/{id}/exports: a link that opens the file for an hour without signing in. */
    async createLink(accountId: string, id: string, body: CreateExportBody): Promise<Export> {
      if (body.format === 'pdf' && body.size != null) {
        throw validationError([{ field: 'size', code: 'not_allowed', message: 'A PDF has one size (an A4 page): leave size out for format "pdf".' }]);
      }
      const row = await rowOf(accountId, id);
      const size = body.format === 'png' ? (body.size ?? 'square') : null;
      const expires = Math.floor(clock.now().getTime() / 1000) + EXPORT_LINK_SECONDS;
      const token = links.sign({ a: accountId, q: row.id, f: body.format, s: size, e: expires });
      return {
        format: body.format,
        size,
        url: `${base}/v1/public/exports/${token}`,
        filename: exportFilename(textOf(row), row.id, body.format, size ?? undefined),
        expiresAt: new Date(expires * 1000).toISOString(),
      };
    },

    /**
     * GET /v1/public/exports/{token}: 404 for a token this service did not sign (or whose question
     * is gone), 410 `link_expired` for one past its hour; the signature covers the expiry.
     */
    async openLink(token: string): Promise<ExportFile> {
      const link = links.verify(token);
      if (!link || typeof link.a !== 'string' || typeof link.q !== 'string' || typeof link.e !== 'number') throw notFound('No such export link.');
      if (clock.now().getTime() >= link.e * 1000) throw new AppError('link_expired', 'This export link has expired (links work for one hour); make a new one.');
      return render(link.a, link.q, link.f, link.s);
    },

    /** GET /v2/questions/{id}/link/qr.svg and qr.png: the answer link, quiet zone 4 modules, error correction M. */
    async qr(accountId: string, id: string, format: 'svg' | 'png'): Promise<ExportFile> {
      const row = await rowOf(accountId, id);
      const url = answerLinkUrl(base, row.link_code);
      const { default: QRCode } = await qrcode();
      // Without a callback both return promises (the types declare the callback form only).
      const body =
        format === 'svg'
          ? Buffer.from(await (QRCode.toString(url, { ...QR_OPTIONS, type: 'svg' }) as unknown as Promise<string>))
          : await (QRCode.toBuffer(url, { ...QR_OPTIONS, type: 'png', width: QR_PNG_PIXELS }) as unknown as Promise<Buffer>);
      const filename = exportFilename(textOf(row), row.id, format, 'QR code');
      return { filename, contentType: format === 'svg' ? 'image/svg+xml' : 'image/png', body };
    },
  };
}
export type ExportService = ReturnType<typeof createExportService>;
