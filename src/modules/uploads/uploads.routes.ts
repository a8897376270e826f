import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { Closed } from '../../lib/typebox.ts';
import { compileFor } from '../../lib/validation.ts';
import { actorOf } from '../../http/auth.ts';
import { constantHeader, errorResponse } from '../../http/responses.ts';
import type { UploadsService } from './uploads.service.ts';
import {
  CreateUploadBody,
  FILE_NAME_PATTERN,
  ImportedImageSchema,
  ImportUploadBody,
  MAX_UPLOAD_BYTES,
  MEDIA_TYPE_NAMES,
  UPLOAD_LIMITS,
  UPLOAD_TOKEN_PATTERN,
  UploadedFileSchema,
  UploadTicketSchema,
} from './uploads.schemas.ts';

const TAG = ['Uploads'];

/** Files never change once served (a new file is a new upload with a new URL). */
const FILE_CACHE = 'public, max-age=31536000, immutable';
/** A served file is never a document that runs anything, even opened on its own. */
const FILE_CSP = "default-src 'none'; sandbox";

const TokenParams = Closed({ token: Type.String({ pattern: UPLOAD_TOKEN_PATTERN, description: 'The upload URL\'s token (the last segment of uploadUrl).' }) });
const FileParams = Closed({ file: Type.String({ pattern: FILE_NAME_PATTERN, description: 'The file\'s name in its publicUrl: upl_… and its extension.' }) });
const BINARY = { type: 'string', format: 'binary' } as const;
const FILE_CONTENT = {
  'image/*': { schema: { ...BINARY, description: 'image/jpeg, image/png or image/webp: re-encoded, without metadata.' } },
  'audio/*': { schema: { ...BINARY, description: 'audio/mpeg, audio/mp4, audio/aac, audio/ogg, audio/wav or audio/webm: as uploaded.' } },
};
const FILE_HEADERS = {
  'Cache-Control': constantHeader(FILE_CACHE),
  'Content-Security-Policy': constantHeader(FILE_CSP),
  'X-Content-Type-Options': constantHeader('nosniff'),
  'Content-Disposition': { type: 'string', description: 'inline; filename="upl_….ext"' },
  ETag: { type: 'string', description: 'Names these bytes; send it back in If-None-Match to get a 304.' },
  'Accept-Ranges': constantHeader('bytes'),
};

/** One `bytes=start-end` range inside a file of `size` bytes (suffix and open ranges too), or null: any other Range is ignored (RFC 9110 §14.2). */
function rangeOf(header: string | undefined, size: number): { start: number; end: number } | null {
  const match = /^bytes=(\d*)-(\d*)$/.exec(header?.trim() ?? '');
  if (!match || (match[1] === '' && match[2] === '')) return null;
  let start: number;
  let end: number;
  if (match[1] === '') {
    start = Math.max(0, size - Number(match[2]));
    end = size - 1;
  } else {
    start = Number(match[1]);
    end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  }
  return start <= end && start < size ? { start, end } : null;
}

/**
 * Uploads (spec "Drafts and uploads"; docs/uploads.md): POST /v1/uploads makes an upload URL, a
 * PUT to it brings the file, POST /v1/uploads/import fetches an image from a public https URL,
 * and GET /v1/files/{id}.{ext} serves finished files to anyone (question pages show them).
 */
export function uploadsRoutes(deps: { uploads: UploadsService }): FastifyPluginAsync {
  const { uploads } = deps;
  return async (base) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();

    app.post('/v1/uploads', {
      config: { scope: 'questions:write' },
      schema: {
        operationId: 'createUpload',
        tags: TAG,
        summary: 'An upload URL for one image or audio file',
        description:
          `PUT the file to \`uploadUrl\` with \`headers\` within ${UPLOAD_LIMITS.urlMinutes} minutes (the URL is the credential; it works once), then use \`publicUrl\` in a question. ` +
          `Images: JPEG, PNG or WebP up to ${UPLOAD_LIMITS.imageBytes} bytes; checked by their bytes, turned upright, scaled down past ${UPLOAD_LIMITS.maxSide} px and re-encoded without metadata. ` +
          `Audio: MP3, M4A/AAC, Ogg/Opus, WAV or WebM up to ${UPLOAD_LIMITS.audioBytes} bytes and ${UPLOAD_LIMITS.audioSeconds} s. ` +
          'A contentType that does not go with `kind`, or bytes over the kind\'s limit: 400 `validation_failed`.',
        body: CreateUploadBody,
        response: { 201: UploadTicketSchema },
      },
    }, async (request, reply) => {
      reply.code(201);
      return uploads.create(actorOf(request), request.body);
    });

    app.post('/v1/uploads/import', {
      config: { scope: 'questions:write' },
      schema: {
        operationId: 'importUpload',
        tags: TAG,
        summary: 'Import an image from a public https URL',
        description:
          'The service fetches the URL itself: https only; every address the name resolves to must be public (no loopback, private, link-local, ' +
          'CGNAT, metadata or reserved addresses, IPv4-mapped forms included), and the connection goes to the address checked; at most 3 redirects, ' +
          `each checked again; ${UPLOAD_LIMITS.importBytes} bytes at most; ${UPLOAD_LIMITS.importTimeoutMs / 1000} s in all. The image (JPEG, PNG or WebP, by its bytes) is then checked and stored exactly as an upload.`,
        body: ImportUploadBody,
        response: {
          201: ImportedImageSchema,
          422: errorResponse('`import_failed`: the URL could not be fetched or refused (`details.reason`: bad_url, https_required, not_public_address, dns_failed, connect_failed, tls_failed, timeout, too_many_redirects, http_status, too_large, empty, not_accepted, unreadable, too_many_pixels…).'),
        },
      },
    }, async (request, reply) => {
      reply.code(201);
      return uploads.importImage(actorOf(request), request.body.url);
    });

    // The PUT reads the raw file: this context alone takes any body, as bytes, up to the largest upload.
    await app.register(async (raw) => {
      raw.removeAllContentTypeParsers();
      raw.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: MAX_UPLOAD_BYTES }, (_request, body, done) => done(null, body));
      raw.withTypeProvider<TypeBoxTypeProvider>().put('/v1/uploads/:token', {
        config: { scope: null },
        bodyLimit: MAX_UPLOAD_BYTES,
        // Refused on its headers before the body is read: an unknown or used URL, the wrong type, a declared length that is not the one promised.
        preParsing: async (request) => {
          const { token } = request.params as { token: string };
          const length = request.headers['content-length'];
          await uploads.precheck(token, request.headers['content-type'], typeof length === 'string' ? length : undefined);
        },
        // The body is bytes, checked by the service; only the path is validated here.
        validatorCompiler: ({ schema, httpPart }) => (httpPart === 'body' ? () => true : compileFor(httpPart ?? 'body', schema)),
        schema: {
          operationId: 'putUpload',
          tags: TAG,
          summary: 'Send the file of an upload (the upload URL)',
          description:
            'No credential: the URL is one. Send the `headers` POST /v1/uploads returned (Content-Type exactly as declared) and exactly the declared number of bytes. ' +
            'The bytes are checked (docs/uploads.md); nothing is stored unless every check passes, and a refused PUT may be followed by a corrected one while the URL works. ' +
            '404 for an unknown or expired URL; 409 once the upload is complete.',
          params: TokenParams,
          body: { content: Object.fromEntries(MEDIA_TYPE_NAMES.map((type) => [type, { schema: { ...BINARY, description: 'The file.' } }])) },
          response: {
            200: UploadedFileSchema,
            404: errorResponse('`not_found`: no upload at this URL, or its 15 minutes are over.'),
            409: errorResponse('`conflict`: the upload is complete already, or another PUT to it is being checked.'),
            413: errorResponse('`payload_too_large`: more bytes than declared (`details.declared`, `details.received`), or more than any upload may have.'),
            415: errorResponse('`unsupported_media_type`: the Content-Type is not the one declared (`details.expected`).'),
            422: errorResponse('`upload_refused`: the bytes are not of the declared type, not a type we accept, damaged, too many pixels, or audio too long (`details.reason`).'),
          },
        },
      }, async (request) => {
        const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        return uploads.receive(request.params.token, { contentType: request.headers['content-type'], body });
      });
    });

    app.get('/v1/files/:file', {
      config: { scope: null },
      schema: {
        operationId: 'getFile',
        tags: TAG,
        summary: 'A finished upload, as heads see it (the publicUrl)',
        description:
          'No credential. Served with its checked type, `nosniff`, a CSP that lets nothing run, and cached for a year (a file never changes). ' +
          'One byte range (`Range: bytes=…`) gives a 206, as audio players ask; If-None-Match with the ETag a 304. 404 for an unknown file or an upload not finished.',
        params: FileParams,
        response: {
          200: { description: 'The file.', headers: FILE_HEADERS, content: FILE_CONTENT },
          206: { description: 'The byte range asked for.', headers: { ...FILE_HEADERS, 'Content-Range': { type: 'string', description: 'bytes start-end/size' } }, content: FILE_CONTENT },
          304: { type: 'null', description: 'Not modified: the ETag matched If-None-Match.', headers: { ETag: FILE_HEADERS.ETag, 'Cache-Control': constantHeader(FILE_CACHE) } },
          404: errorResponse('`not_found`: no such file, or its upload has not finished.'),
        },
      },
    }, async (request, reply) => {
      const file = await uploads.file(request.params.file);
      fileHeaders(reply, file.etag, file.name);
      if (request.headers['if-none-match']?.split(',').some((tag) => tag.trim() === file.etag)) return reply.code(304).send();
      reply.type(file.contentType);
      const range = rangeOf(request.headers.range, file.bytes.length);
      if (!range) return reply.send(file.bytes);
      reply.code(206).header('content-range', `bytes ${range.start}-${range.end}/${file.bytes.length}`);
      return reply.send(file.bytes.subarray(range.start, range.end + 1));
    });
  };
}

function fileHeaders(reply: FastifyReply, etag: string, name: string): void {
  reply.header('cache-control', FILE_CACHE);
  reply.header('content-security-policy', FILE_CSP);
  reply.header('x-content-type-options', 'nosniff');
  reply.header('content-disposition', `inline; filename="${name}"`);
  reply.header('accept-ranges', 'bytes');
  reply.header('etag', etag);
}
