import { Type, type Static } from '@sinclair/typebox';
import { Closed, DateTime, Nullable, StringEnum } from '../../lib/typebox.ts';

/**
 * Uploads (spec "Drafts and uploads"; docs/uploads.md): the types accepted, the limits, and the
 * request and response shapes of POST /v1/uploads, the PUT to its upload URL, and
 * POST /v1/uploads/import.
 */

/** What the upload URL's PUT and every check accept, by declared Content-Type: the file extension served and what file-type may detect. */
export const IMAGE_TYPES = {
  'image/jpeg': { ext: 'jpg', detected: ['image/jpeg'] },
  'image/png': { ext: 'png', detected: ['image/png', 'image/apng'] },
  'image/webp': { ext: 'webp', detected: ['image/webp'] },
} as const;

/**
 * Audio is stored as sent (no transcoding), so the container must be one every current browser's
 * <audio> plays. WebM and MP4 are detected as video containers by their magic bytes: they pass
 * only when music-metadata finds audio and no video in them.
 */
export const AUDIO_TYPES = {
  'audio/mpeg': { ext: 'mp3', detected: ['audio/mpeg'] },
  'audio/mp4': { ext: 'm4a', detected: ['audio/x-m4a', 'audio/mp4', 'video/mp4'] },
  'audio/aac': { ext: 'aac', detected: ['audio/aac'] },
  'audio/ogg': { ext: 'ogg', detected: ['audio/ogg', 'audio/ogg; codecs=opus'] },
  'audio/wav': { ext: 'wav', detected: ['audio/wav'] },
  'audio/webm': { ext: 'webm', detected: ['video/webm', 'audio/webm'] },
} as const;

export type ImageType = keyof typeof IMAGE_TYPES;
export type AudioType = keyof typeof AUDIO_TYPES;
export type MediaType = ImageType | AudioType;
export const IMAGE_TYPE_NAMES = Object.keys(IMAGE_TYPES) as ImageType[];
export const AUDIO_TYPE_NAMES = Object.keys(AUDIO_TYPES) as AudioType[];
export const MEDIA_TYPE_NAMES: MediaType[] = [...IMAGE_TYPE_NAMES, ...AUDIO_TYPE_NAMES];

/** The extension of every type we serve, and the type of every extension. */
export const EXT_OF: Record<MediaType, string> = Object.fromEntries(
  [...Object.entries(IMAGE_TYPES), ...Object.entries(AUDIO_TYPES)].map(([type, { ext }]) => [type, ext]),
) as Record<MediaType, string>;

const MB = 1024 * 1024;

/** docs/uploads.md "Limits". */
export const UPLOAD_LIMITS = {
  /** The upload URL works this long (spec "Limits": upload URL life). */
  urlMinutes: 15,
  imageBytes: 10 * MB,
  audioBytes: 10 * MB,
  /** Spec "Limits": import, up to 5 MB. */
  importBytes: 5 * MB,
  /** Decoded pixels an image may have (decompression bombs are refused before decoding). */
  inputPixels: 40_000_000,
  /** Images are served at most this many pixels on their longer side (larger ones are scaled down). */
  maxSide: 2048,
  audioSeconds: 60,
  /** The import's whole exchange (resolve, connect, redirects, body). */
  importTimeoutMs: 10_000,
} as const;

export const MAX_UPLOAD_BYTES = Math.max(UPLOAD_LIMITS.imageBytes, UPLOAD_LIMITS.audioBytes);

/** Upload URL tokens: `upt_` and 43 base62 characters (~256 bits); only their SHA-256 is stored. */
export const UPLOAD_TOKEN_PATTERN = '^upt_[0-9A-Za-z]{43}$';
/** A served file's name: the upload id and the extension of its type. */
export const FILE_NAME_PATTERN = `^upl_[0-9A-Za-z]{20}\\.(${[...new Set(Object.values(EXT_OF))].join('|')})$`;

export const CreateUploadBody = Closed({
  kind: StringEnum(['image', 'audio'] as const, { description: 'image (JPEG, PNG or WebP) or audio (MP3, M4A/AAC, Ogg/Opus, WAV or WebM).' }),
  contentType: StringEnum(MEDIA_TYPE_NAMES, { description: 'The file\'s type; the PUT must send exactly this Content-Type, and the bytes must be of this type.' }),
  bytes: Type.Integer({ minimum: 1, maximum: MAX_UPLOAD_BYTES, description: `The file's size in bytes: the PUT must send exactly this many. At most ${UPLOAD_LIMITS.imageBytes} for an image, ${UPLOAD_LIMITS.audioBytes} for audio.` }),
});
export type CreateUploadInput = Static<typeof CreateUploadBody>;

export const UploadTicketSchema = Closed({
  uploadUrl: Type.String({ format: 'uri', description: 'PUT the file here with `headers`; the URL is the credential and works for 15 minutes, once.' }),
  publicUrl: Type.String({ format: 'uri', description: 'Where the file is served once the PUT succeeded (404 until then); use it in a question.' }),
  headers: Type.Record(Type.String(), Type.String(), { description: 'Headers the PUT must send (Content-Type).' }),
  expiresAt: DateTime({ description: 'Extension: when uploadUrl stops working.' }),
});
export type UploadTicket = Static<typeof UploadTicketSchema>;

export const UploadedFileSchema = Closed({
  publicUrl: Type.String({ format: 'uri' }),
  kind: StringEnum(['image', 'audio'] as const),
  contentType: Type.String({ description: 'The type it is served with.' }),
  bytes: Type.Integer({ description: 'The size served: images are re-encoded without metadata, so this differs from what was sent.' }),
  width: Nullable(Type.Integer(), { description: 'Pixels, after orientation and any scaling down; null for audio.' }),
  height: Nullable(Type.Integer()),
  durationMs: Nullable(Type.Integer(), { description: 'Audio length in milliseconds; null for images.' }),
});
export type UploadedFile = Static<typeof UploadedFileSchema>;

export const ImportUploadBody = Closed({
  url: Type.String({ format: 'uri', maxLength: 2048, description: 'A public https URL of a JPEG, PNG or WebP image (up to 5 MB, at most 3 redirects).' }),
});

export const ImportedImageSchema = Closed({
  publicUrl: Type.String({ format: 'uri' }),
  width: Nullable(Type.Integer()),
  height: Nullable(Type.Integer()),
});
export type ImportedImage = Static<typeof ImportedImageSchema>;
