import zlib from 'node:zlib';
import { promisify } from 'node:util';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * A JSON body that many requests share, sent as prepared bytes: serialized once per shared object
 * and variant, kept as a Buffer, and compressed (brotli or gzip, RFC 9110 §8.4.1) once per
 * encoding, the first time a client that accepts it asks, for as long as the shared object lives.
 * The caller guarantees that the same object and variant always stand for the same body: a
 * change of anything the body shows must give a new object (the results module's memoized Result
 * does, result-builder.ts).
 *
 * Every response says `Vary: Accept-Encoding`; a client sending no Accept-Encoding (or refusing
 * both codings) gets the bytes as they are. Bodies under MIN_COMPRESS_BYTES go out as they are:
 * compressing them saves less than it costs.
 */
export const MIN_COMPRESS_BYTES = 1024;

export type ContentCoding = 'br' | 'gzip';

/** Brotli at quality 5 (not the default 11) and gzip at 6: about the same ratio on JSON, in ~1 ms for 90 KB rather than ~100 ms. */
const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);
function compress(coding: ContentCoding, bytes: Buffer): Promise<Buffer> {
  return coding === 'br'
    ? brotli(bytes, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } })
    : gzip(bytes, { level: 6 });
}

/**
 * The coding to send for an Accept-Encoding header (RFC 9110 §12.5.3): the acceptable one
 * (q > 0, by name or through `*`) with the highest weight among br and gzip, br on a tie; null
 * (identity) when neither is acceptable, when identity is weighted above both, or with no header.
 */
export function preferredCoding(header: string | string[] | undefined): ContentCoding | null {
  if (header === undefined) return null;
  const weights = new Map<string, number>();
  for (const part of (Array.isArray(header) ? header.join(',') : header).split(',')) {
    const [name, ...params] = part.split(';');
    const coding = name.trim().toLowerCase();
    if (!coding) continue;
    let q = 1;
    for (const param of params) {
      const [key, value] = param.split('=');
      if (key.trim().toLowerCase() === 'q') q = Number(value);
    }
    weights.set(coding, Number.isFinite(q) ? q : 0);
  }
  const br = weights.get('br') ?? weights.get('*') ?? 0;
  // "x-gzip" is gzip (RFC 9110 §8.4.1.3).
  const gz = weights.get('gzip') ?? weights.get('x-gzip') ?? weights.get('*') ?? 0;
  const best = Math.max(br, gz);
  if (best <= 0) return null;
  const identity = weights.get('identity');
  if (identity !== undefined && identity > best) return null;
  return br >= gz ? 'br' : 'gzip';
}

interface Prepared {
  identity: Buffer;
  br?: Buffer | Promise<Buffer | null>;
  gzip?: Buffer | Promise<Buffer | null>;
}

/** Adds `accept-encoding` to the reply's Vary header, keeping what another part put there. */
function varyOnEncoding(reply: FastifyReply): void {
  const vary = reply.getHeader('vary');
  if (vary === undefined) reply.header('vary', 'accept-encoding');
  else if (!/(^|,)\s*(accept-encoding|\*)\s*(,|$)/i.test(String(vary))) reply.header('vary', `${String(vary)}, accept-encoding`);
}

export function createPreparedJson() {
  const cache = new WeakMap<object, Map<string, Prepared>>();

  /** The compressed bytes, made once; null if compressing failed (then tried again next time). */
  function compressed(prepared: Prepared, coding: ContentCoding): Buffer | Promise<Buffer | null> {
    const made = prepared[coding];
    if (made) return made;
    const pending = compress(coding, prepared.identity).then(
      (bytes) => (prepared[coding] = bytes),
      () => {
        delete prepared[coding];
        return null;
      },
    );
    prepared[coding] = pending;
    return pending;
  }

  /**
   * Sends the body of `shared` in `variant` (made by `serialize` the first time) as
   * `application/json`, compressed when the request accepts it.
   */
  return async function sendPrepared(request: FastifyRequest, reply: FastifyReply, shared: object, variant: string, serialize: () => string): Promise<FastifyReply> {
    let byVariant = cache.get(shared);
    if (!byVariant) cache.set(shared, (byVariant = new Map()));
    let prepared = byVariant.get(variant);
    if (!prepared) byVariant.set(variant, (prepared = { identity: Buffer.from(serialize(), 'utf8') }));
    varyOnEncoding(reply);
    reply.type('application/json; charset=utf-8');
    const coding = prepared.identity.length < MIN_COMPRESS_BYTES ? null : preferredCoding(request.headers['accept-encoding']);
    if (coding) {
      const made = compressed(prepared, coding);
      const bytes = made instanceof Buffer ? made : await made;
      if (bytes) return reply.header('content-encoding', coding).send(bytes);
    }
    return reply.send(prepared.identity);
  };
}
