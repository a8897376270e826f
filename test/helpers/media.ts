import sharp, { type Sharp } from 'sharp';
import type { LightMyRequestResponse } from 'fastify';
import type { TestApp, TestKey } from './test-app.ts';

/**
 * Files for the upload tests (docs/uploads.md), made here rather than kept as fixtures: images by
 * sharp (one with GPS in its EXIF and an orientation, as a phone writes them), audio as WAV
 * written byte by byte (a RIFF header and 8-bit PCM samples).
 */

/** A noisy image (so JPEG and WebP are not trivially small) of `width` × `height`. */
export function picture(width: number, height: number): Sharp {
  const channels = 3;
  const raw = Buffer.alloc(width * height * channels);
  let state = 12345;
  for (let i = 0; i < raw.length; i++) {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    raw[i] = (i % channels === 0 ? (i / channels) % width : state) & 0xff;
  }
  return sharp(raw, { raw: { width, height, channels } });
}

export const png = (width = 64, height = 32) => picture(width, height).png().toBuffer();
export const webp = (width = 64, height = 32) => picture(width, height).webp().toBuffer();
export const jpeg = (width = 64, height = 32) => picture(width, height).jpeg().toBuffer();

/** GPS as a phone writes it (IFD3 is sharp's name for the GPS IFD). */
export const GPS_EXIF = {
  IFD0: { Make: 'HeadcountPhone', Model: 'Test 1', Copyright: 'Someone private' },
  IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '51/1 30/1 2648/100', GPSLongitudeRef: 'W', GPSLongitude: '0/1 7/1 3972/100' },
};

/**
 * A JPEG of `width` × `height` stored pixels with GPS in its EXIF and, when given, an EXIF
 * orientation (6: shown turned 90° clockwise, so upright it is `height` × `width`).
 */
export async function jpegWithGps(width = 80, height = 40, orientation?: number): Promise<Buffer> {
  const withGps = picture(width, height).jpeg().withExif(GPS_EXIF);
  return (orientation ? withGps.withMetadata({ orientation }) : withGps).toBuffer();
}

/** A WAV of `seconds` of a tone: 8 kHz, 8-bit mono PCM. */
export function wav(seconds: number, rate = 8000): Buffer {
  const samples = Math.round(seconds * rate);
  const out = Buffer.alloc(44 + samples);
  out.write('RIFF', 0, 'ascii');
  out.writeUInt32LE(36 + samples, 4);
  out.write('WAVE', 8, 'ascii');
  out.write('fmt ', 12, 'ascii');
  out.writeUInt32LE(16, 16); // fmt chunk size
  out.writeUInt16LE(1, 20); // PCM
  out.writeUInt16LE(1, 22); // mono
  out.writeUInt32LE(rate, 24);
  out.writeUInt32LE(rate, 28); // bytes per second
  out.writeUInt16LE(1, 32); // block align
  out.writeUInt16LE(8, 34); // bits per sample
  out.write('data', 36, 'ascii');
  out.writeUInt32LE(samples, 40);
  for (let i = 0; i < samples; i++) out[44 + i] = 128 + Math.round(60 * Math.sin((2 * Math.PI * 440 * i) / rate));
  return out;
}

/** The path of an absolute URL (inject takes paths). */
export const pathOf = (url: string) => {
  const parsed = new URL(url);
  return parsed.pathname + parsed.search;
};

export interface Ticket {
  uploadUrl: string;
  publicUrl: string;
  headers: Record<string, string>;
  expiresAt: string;
}

/** POST /v1/uploads, expecting a 201. */
export async function ticket(t: TestApp, key: TestKey, kind: 'image' | 'audio', contentType: string, bytes: number): Promise<Ticket> {
  const response = await t.inject({ method: 'POST', url: '/v1/uploads', headers: key.auth, payload: { kind, contentType, bytes } });
  if (response.statusCode !== 201) throw new Error(`POST /v1/uploads → ${response.statusCode} ${response.body}`);
  return response.json();
}

/** The PUT to an upload URL. */
export function put(t: TestApp, uploadUrl: string, body: Buffer, headers: Record<string, string>): Promise<LightMyRequestResponse> {
  return t.inject({ method: 'PUT', url: pathOf(uploadUrl), headers, payload: body });
}

/** POST /v1/uploads and the PUT of `body`: the finished upload's publicUrl and what the PUT answered. */
export async function upload(t: TestApp, key: TestKey, kind: 'image' | 'audio', contentType: string, body: Buffer): Promise<{ publicUrl: string; file: Record<string, any> }> {
  const made = await ticket(t, key, kind, contentType, body.length);
  const response = await put(t, made.uploadUrl, body, made.headers);
  if (response.statusCode !== 200) throw new Error(`PUT upload → ${response.statusCode} ${response.body}`);
  return { publicUrl: made.publicUrl, file: response.json() };
}
