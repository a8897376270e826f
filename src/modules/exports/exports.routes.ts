import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { IdParams } from '../../lib/typebox.ts';
import { actorOf } from '../../http/auth.ts';
import { PUBLIC_RESULTS_MAX_AGE_SECONDS, PublicCodeParams, TokenParams } from '../sharing/sharing.schemas.ts';
import { constantHeader, errorResponse, privatePage } from '../../http/responses.ts';
import { create } from 'content-disposition';
import { asciiFilename } from './export-filename.ts';
import type { HeatmapService } from './heatmap.service.ts';
import type { ExportFile, ExportService } from './exports.service.ts';
import {
  CHART_PNG_CONTENT,
  CreateExportBodySchema,
  CreateExportResponseSchema,
  CSV_CONTENT,
  CsvExportQuerySchema,
  EXPORT_LINK_SECONDS,
  ExportTokenParams,
  HeatmapQuerySchema,
  PDF_CONTENT,
  PNG_CONTENT,
  PngExportQuerySchema,
  PublicHeatmapQuerySchema,
  SVG_CONTENT,
} from './exports.schemas.ts';

const TAG = ['Exports'];
const PUBLIC_TAG = ['Public results'];

/** The heatmap changes with every answer: never stored by any cache. */
const PRIVATE_CACHE = 'private, no-store';
const PUBLIC_CACHE = `public, max-age=${PUBLIC_RESULTS_MAX_AGE_SECONDS}`;

const DRAWING =
  'A transparent PNG to lay over the stimulus image: the taps as a smooth density, coloured from transparent through blue, cyan, green and ' +
  'yellow to red at the busiest spot (a spot needs at least 4 taps to be red). 800 px on its longer side, shaped by `aspect` (drawn at the ' +
  'nearest of a few fixed steps, see the parameter). No taps: fully transparent.';

const FILENAME_HEADER = {
  type: 'string',
  description: '`inline` (`attachment` for CSV) with the file\'s name (Export.filename): an ASCII `filename` and the UTF-8 `filename*` (RFC 6266).',
};
/** The headers every export file is sent with (sendFile). */
const FILE_HEADERS = { 'Cache-Control': constantHeader(PRIVATE_CACHE), 'Content-Disposition': FILENAME_HEADER };
const QUESTION_404 = errorResponse('`not_found`: no such question on this account.');

/** RFC 6266: the ASCII `filename` for old clients and the UTF-8 `filename*`. */
const contentDisposition = (filename: string, type: 'inline' | 'attachment') => create(filename, { type, fallback: asciiFilename(filename) });

/** The file's headers: its type, its name, and no cache (a result changes with every answer). */
function sendFile(reply: FastifyReply, file: ExportFile) {
  return reply.header('cache-control', PRIVATE_CACHE).header('content-disposition', contentDisposition(file.filename, 'inline')).type(file.contentType).send(file.body);
}

/**
 * GET /v2/questions/{id}/heatmap.png and its public variants (spec Exports; docs/results.md
 * "Heatmap"); the CSV, PNG and PDF exports, export links and QR codes (docs/exports.md).
 */
export function exportsRoutes(deps: { heatmaps: HeatmapService; exportFiles: ExportService }): FastifyPluginAsync {
  const { heatmaps, exportFiles } = deps;
  return async (base) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();

    app.get('/v2/questions/:id/heatmap.png', {
      config: { scope: 'questions:read' },
      schema: {
        operationId: 'getHeatmap',
        tags: TAG,
        summary: 'Click-test heatmap as a transparent PNG',
        description:
          `${DRAWING} Accepts the result's filters (but \`option\`: a click test has no options) with the same rules: a country or age band ` +
          'matching fewer than 5 answers draws nothing. `clicks.heatmapUrl` in the result links here with the result\'s filter. Not cached ' +
          '(`private, no-store`): it changes with every answer.',
        params: IdParams,
        querystring: HeatmapQuerySchema,
        response: {
          200: { description: 'The heatmap.', headers: { 'Cache-Control': constantHeader(PRIVATE_CACHE) }, content: PNG_CONTENT },
          404: errorResponse('`not_found`: no such question on this account, or the question is not a click test.'),
        },
      },
    }, async (request, reply) => {
      const png = await heatmaps.forAccount(actorOf(request).accountId, request.params.id, request.query);
      return reply.header('cache-control', PRIVATE_CACHE).type('image/png').send(png);
    });

    app.get('/v1/public/results/:code/heatmap.png', {
      config: { scope: null },
      schema: {
        operationId: 'getPublicHeatmap',
        tags: PUBLIC_TAG,
        summary: 'Heatmap of a click test whose results were made public (extension)',
        description:
          `${DRAWING} Every tap, as the public results page counts them; no filters. The public page's \`clicks.heatmapUrl\` links here. ` +
          `Cached for up to ${PUBLIC_RESULTS_MAX_AGE_SECONDS} s, like the page. 404 when the code is unknown, the page was turned off, or the ` +
          'question is not a click test.',
        params: PublicCodeParams,
        querystring: PublicHeatmapQuerySchema,
        response: {
          200: { description: 'The heatmap.', headers: { 'Cache-Control': constantHeader(PUBLIC_CACHE) }, content: PNG_CONTENT },
          404: errorResponse('`not_found`: unknown code, the page was turned off, or the question is not a click test.'),
        },
      },
    }, async (request, reply) => {
      const png = await heatmaps.forPublicResults(request.params.code, request.query.aspect);
      return reply.header('cache-control', PUBLIC_CACHE).type('image/png').send(png);
    });

    app.get('/v1/public/shared/:token/heatmap.png', {
      config: { scope: null },
      // Before anything can fail, so a 404 is not cached either (as for the shared results).
      onRequest: async (_request, reply) => privatePage(reply),
      schema: {
        operationId: 'getSharedHeatmap',
        tags: PUBLIC_TAG,
        summary: 'Heatmap of a click test behind a private share link (extension)',
        description:
          `${DRAWING} Every tap; no filters. The shared result's \`clicks.heatmapUrl\` links here. Never cached, not indexed; stops working with ` +
          'the link. 404 for an unknown, tampered, expired or revoked token, or a question that is not a click test.',
        params: TokenParams,
        querystring: PublicHeatmapQuerySchema,
        response: {
          200: {
            description: 'The heatmap.',
            headers: { 'Cache-Control': constantHeader('no-store'), 'X-Robots-Tag': constantHeader('noindex') },
            content: PNG_CONTENT,
          },
          404: errorResponse('`not_found`: unknown, tampered, expired or revoked token, or the question is not a click test.'),
        },
      },
    }, async (request, reply) => reply.type('image/png').send(await heatmaps.forSharedLink(request.params.token, request.query.aspect)));

    app.get('/v2/questions/:id/export.csv', {
      config: { scope: 'questions:read' },
      schema: {
        operationId: 'exportAnswersCsv',
        tags: TAG,
        summary: 'Every answer as CSV',
        description:
          'One row per answer the result\'s filters keep, oldest first, with the columns of docs/exports.md (answered_at, attestation_ref, tier, ' +
          'option, option_index, options, text, reason, translated_text, translated_reason, translated_to, taps, tap_count, seconds, pinned, ' +
          'simulated). RFC 4180 (CRLF, quoted where needed), UTF-8 with a byte order mark. A text cell beginning with `=`, `+`, `-`, `@`, a tab ' +
          'or a carriage return starts with an apostrophe so spreadsheets show it and never run it. Streamed. A suppressed filter (a country ' +
          'or age band matching fewer than 5 answers) gives the header alone. Filters as the result (same 400s).',
        params: IdParams,
        querystring: CsvExportQuerySchema,
        response: {
          200: { description: 'The CSV.', headers: FILE_HEADERS, content: CSV_CONTENT },
          404: QUESTION_404,
        },
      },
    }, async (request, reply) => {
      const { filename, stream } = await exportFiles.csv(actorOf(request).accountId, request.params.id, request.query);
      return reply
        .header('cache-control', PRIVATE_CACHE)
        .header('content-disposition', contentDisposition(filename, 'attachment'))
        .type('text/csv; charset=utf-8; header=present')
        .send(stream);
    });

    app.get('/v2/questions/:id/export.png', {
      config: { scope: 'questions:read' },
      schema: {
        operationId: 'exportChartPng',
        tags: TAG,
        summary: 'The chart as a PNG',
        description:
          'The result drawn for a post or a slide: the question, the bars with their 95% intervals (or what the type shows instead), the summary ' +
          'line and the verification line, in the question\'s language with the fonts the service ships. `size`: `square` 1080 × 1080 (default), ' +
          '`wide` 1200 × 675, `story` 1080 × 1920. The result as it is now, unfiltered; not cached.',
        params: IdParams,
        querystring: PngExportQuerySchema,
        response: {
          200: { description: 'The chart.', headers: FILE_HEADERS, content: CHART_PNG_CONTENT },
          404: QUESTION_404,
        },
      },
    }, async (request, reply) => sendFile(reply, await exportFiles.png(actorOf(request).accountId, request.params.id, request.query.size)));

    app.get('/v2/questions/:id/export.pdf', {
      config: { scope: 'questions:read' },
      schema: {
        operationId: 'exportPdf',
        tags: TAG,
        summary: 'One A4 page: question, chart, what it means, answers',
        description:
          'The question, the chart, what it means (the summary and its confidence), the answers with pinned ones first (as many as fit, then ' +
          'how many more) and the verification line, on one A4 page with the fonts the service ships. The result as it is now, always unfiltered ' +
          '(it takes no query parameters); not cached.',
        params: IdParams,
        response: {
          200: { description: 'The PDF.', headers: FILE_HEADERS, content: PDF_CONTENT },
          404: QUESTION_404,
        },
      },
    }, async (request, reply) => sendFile(reply, await exportFiles.pdf(actorOf(request).accountId, request.params.id)));

    app.post('/v2/questions/:id/exports', {
      config: { scope: 'questions:read' },
      schema: {
        operationId: 'createExportLink',
        tags: TAG,
        summary: 'A link that opens a PDF or PNG for an hour without signing in',
        description:
          `For a chat message, a slide deck or a tool that cannot send a key: \`url\` opens the file for ${EXPORT_LINK_SECONDS / 60} minutes ` +
          'without any credential, then answers 410 `link_expired`. The url is signed (HMAC-SHA256 over the question, format, size and expiry), ' +
          'so it cannot be guessed, changed or extended; nothing is stored. It shows the result as it is when opened. `size` is for PNG only.',
        params: IdParams,
        body: CreateExportBodySchema,
        response: { 201: CreateExportResponseSchema, 404: QUESTION_404 },
      },
    }, async (request, reply) => reply.code(201).send({ export: await exportFiles.createLink(actorOf(request).accountId, request.params.id, request.body) }));

    app.get('/v1/public/exports/:exportToken', {
      config: { scope: null },
      onRequest: async (_request, reply) => privatePage(reply),
      schema: {
        operationId: 'openExportLink',
        tags: PUBLIC_TAG,
        summary: 'Open an export link (no authentication)',
        description:
          'The PDF or PNG an export link names (POST /v2/questions/{id}/exports), drawn from the result as it is now. Never cached, not indexed. ' +
          '404 for a token the service did not sign; 410 `link_expired` once its hour is over.',
        params: ExportTokenParams,
        response: {
          200: {
            description: 'The file.',
            headers: { 'Cache-Control': constantHeader('no-store'), 'Content-Disposition': FILENAME_HEADER, 'X-Robots-Tag': constantHeader('noindex') },
            content: { ...PDF_CONTENT, ...CHART_PNG_CONTENT },
          },
          404: errorResponse('`not_found`: the token was not made by this service, or its question is gone.'),
          410: errorResponse('`link_expired`: the link\'s hour is over; make a new one.'),
        },
      },
    }, async (request, reply) => {
      const file = await exportFiles.openLink(request.params.exportToken);
      return reply.header('content-disposition', contentDisposition(file.filename, 'inline')).type(file.contentType).send(file.body);
    });

    app.get('/v2/questions/:id/link/qr.svg', {
      config: { scope: 'questions:read' },
      schema: {
        operationId: 'getAnswerLinkQrSvg',
        tags: TAG,
        summary: 'The answer link as a QR code (SVG)',
        description: 'The question\'s answer link (`linkUrl`) as a QR code: error correction M, a quiet zone of four modules, black on white. Scales to any size.',
        params: IdParams,
        response: { 200: { description: 'The QR code.', headers: FILE_HEADERS, content: SVG_CONTENT }, 404: QUESTION_404 },
      },
    }, async (request, reply) => sendFile(reply, await exportFiles.qr(actorOf(request).accountId, request.params.id, 'svg')));

    app.get('/v2/questions/:id/link/qr.png', {
      config: { scope: 'questions:read' },
      schema: {
        operationId: 'getAnswerLinkQrPng',
        tags: TAG,
        summary: 'The answer link as a QR code (1024-pixel PNG)',
        description: 'The question\'s answer link (`linkUrl`) as a 1024 × 1024 PNG QR code: error correction M, a quiet zone of four modules, black on white.',
        params: IdParams,
        response: { 200: { description: 'The QR code.', headers: FILE_HEADERS, content: CHART_PNG_CONTENT }, 404: QUESTION_404 },
      },
    }, async (request, reply) => sendFile(reply, await exportFiles.qr(actorOf(request).accountId, request.params.id, 'png')));
  };
}
