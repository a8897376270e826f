import type { Metadata } from 'sharp';
import type { parseBuffer as ParseBuffer } from 'music-metadata';
import { AUDIO_TYPES, IMAGE_TYPES, UPLOAD_LIMITS, type AudioType, type ImageType, type MediaType } from './uploads.schemas.ts';

/**
 * The three libraries load on the first file checked, not at start-up: together they cost about a
 * quarter of a second of every `npm start`, and most processes never see an upload.
 */
const libraries = {
  sharp: () => import('sharp').then((m) => m.default),
  fileTypeFromBuffer: () => import('file-type').then((m) => m.fileTypeFromBuffer),
  parseBuffer: () => import('music-metadata').then((m) => m.parseBuffer),
};

/**
 * The one check every file goes through before it is stored, uploaded or imported (RELIABILITY
 * R5.3; docs/uploads.md "What is checked"):
 *
 * - the type comes from the bytes (file-type's magic numbers), never from a name or a header; it
 *   must be one we accept and, for an upload, the one declared (a PNG declared as JPEG, an HTML or
 *   SVG file declared as PNG: refused);
 * - images are decoded by sharp with a pixel limit (a decompression bomb is refused from its
 *   header, before any pixel is decoded), turned upright by their EXIF orientation (`rotate()`),
 *   scaled down to fit UPLOAD_LIMITS.maxSide, and re-encoded in the same format without any
 *   metadata (EXIF with GPS, XMP, IPTC, ICC profiles, comments are gone; bytes after the image,
 *   as in a polyglot file, too), so what heads see is only pixels;
 * - audio is stored as sent, after music-metadata has read it: it must hold audio and no video,
 *   and last at most UPLOAD_LIMITS.audioSeconds.
 *
 * Anything refused throws MediaRefused with a reason a client can act on.
 */

export type RefusalReason = 'not_accepted' | 'type_mismatch' | 'unreadable' | 'too_many_pixels' | 'too_long' | 'no_audio';

export class MediaRefused extends Error {
  override readonly name = 'MediaRefused';
  constructor(readonly reason: RefusalReason, message: string, options: { cause?: unknown } = {}) {
    super(message, options);
  }
}

export interface CheckedFile {
  bytes: Buffer;
  contentType: MediaType;
  ext: string;
  width: number | null;
  height: number | null;
  durationMs: number | null;
}

const IMAGE_NAMES: Record<ImageType, string> = { 'image/jpeg': 'JPEG', 'image/png': 'PNG', 'image/webp': 'WebP' };

function typeOf<T extends string>(table: Record<T, { detected: readonly string[] }>, detected: string): T | null {
  for (const [type, entry] of Object.entries(table) as Array<[T, { detected: readonly string[] }]>) {
    if (entry.detected.includes(detected)) return type;
  }
  return null;
}

/** What the bytes are, as file-type names it (null: nothing it knows, e.g. text, HTML, SVG). */
async function detect(bytes: Buffer): Promise<string | null> {
  try {
    return (await (await libraries.fileTypeFromBuffer())(bytes))?.mime ?? null;
  } catch {
    // A header that starts like a known format and then breaks: nothing we accept.
    return null;
  }
}

/**
 * An image, checked and re-encoded. `declared` is the type an upload promised (the bytes must be
 * of it); null for an import, which takes any type we accept.
 */
export async function checkImage(input: Buffer, declared: ImageType | null): Promise<CheckedFile> {
  const detected = await detect(input);
  const actual = detected ? typeOf(IMAGE_TYPES, detected) : null;
  if (!actual) {
    throw new MediaRefused('not_accepted', detected
      ? `The file is ${detected}, which is not accepted: send a JPEG, PNG or WebP image.`
      : 'The file is not a JPEG, PNG or WebP image (its bytes are not an image format we accept; HTML, SVG and text never are).');
  }
  if (declared && actual !== declared) {
    throw new MediaRefused('type_mismatch', `The file is a ${IMAGE_NAMES[actual]} image but was declared as ${declared}; declare the type it is.`);
  }
  let meta: Metadata;
  try {
    meta = await (await libraries.sharp())(input).metadata();
  } catch (error) {
    throw new MediaRefused('unreadable', 'The image could not be read: it is damaged or not really an image.', { cause: error });
  }
  const pixels = (meta.width ?? 0) * (meta.pageHeight ?? meta.height ?? 0);
  if (!pixels) throw new MediaRefused('unreadable', 'The image has no size: it is damaged.');
  if (pixels > UPLOAD_LIMITS.inputPixels) {
    throw new MediaRefused('too_many_pixels', `The image is ${meta.width} × ${meta.pageHeight ?? meta.height} pixels; at most ${UPLOAD_LIMITS.inputPixels.toLocaleString('en')} pixels are accepted.`);
  }
  try {
    // rotate() first: the orientation lives in EXIF, which the re-encode drops.
    const sharp = await libraries.sharp();
    const pipeline = sharp(input, { limitInputPixels: UPLOAD_LIMITS.inputPixels })
      .rotate()
      .resize({ width: UPLOAD_LIMITS.maxSide, height: UPLOAD_LIMITS.maxSide, fit: 'inside', withoutEnlargement: true });
    const encoded = actual === 'image/jpeg' ? pipeline.jpeg({ quality: 85 }) : actual === 'image/png' ? pipeline.png() : pipeline.webp({ quality: 85 });
    const { data, info } = await encoded.toBuffer({ resolveWithObject: true });
    return { bytes: data, contentType: actual, ext: IMAGE_TYPES[actual].ext, width: info.width, height: info.height, durationMs: null };
  } catch (error) {
    throw new MediaRefused('unreadable', 'The image could not be decoded: it is damaged or truncated.', { cause: error });
  }
}

/** Audio, checked and returned as sent. The bytes must be of the declared type. */
export async function checkAudio(input: Buffer, declared: AudioType): Promise<CheckedFile> {
  const detected = await detect(input);
  const actual = detected ? typeOf(AUDIO_TYPES, detected) : null;
  if (!actual) {
    throw new MediaRefused('not_accepted', detected
      ? `The file is ${detected}, which is not accepted: send MP3, M4A/AAC, Ogg/Opus, WAV or WebM audio.`
      : 'The file is not audio we accept (MP3, M4A/AAC, Ogg/Opus, WAV or WebM).');
  }
  if (actual !== declared) throw new MediaRefused('type_mismatch', `The file is ${actual} but was declared as ${declared}; declare the type it is.`);
  let format: Awaited<ReturnType<typeof ParseBuffer>>['format'];
  try {
    ({ format } = await (await libraries.parseBuffer())(input, { mimeType: detected!, size: input.length }, { duration: true, skipCovers: true }));
  } catch (error) {
    throw new MediaRefused('unreadable', 'The audio could not be read: it is damaged or truncated.', { cause: error });
  }
  if (format.hasVideo) throw new MediaRefused('not_accepted', 'The file holds video; only audio is accepted.');
  if (format.hasAudio === false) throw new MediaRefused('no_audio', 'The file holds no audio track.');
  const seconds = format.duration;
  if (seconds === undefined || !Number.isFinite(seconds) || seconds <= 0) {
    throw new MediaRefused('unreadable', 'How long the audio lasts could not be read from the file.');
  }
  if (seconds > UPLOAD_LIMITS.audioSeconds) {
    throw new MediaRefused('too_long', `The audio lasts ${seconds.toFixed(1)} s; at most ${UPLOAD_LIMITS.audioSeconds} s is accepted.`);
  }
  return { bytes: input, contentType: declared, ext: AUDIO_TYPES[declared].ext, width: null, height: null, durationMs: Math.round(seconds * 1000) };
}
