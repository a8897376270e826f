import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { checkAudio, checkImage, MediaRefused } from './media-check.ts';

const image = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: { r: 200, g: 30, b: 90 } } });

async function refusal(promise: Promise<unknown>): Promise<MediaRefused> {
  const error = await promise.then(() => null, (e: unknown) => e);
  expect(error).toBeInstanceOf(MediaRefused);
  return error as MediaRefused;
}

function wav(seconds: number): Buffer {
  const rate = 8000;
  const samples = seconds * rate;
  const out = Buffer.alloc(44 + samples, 128);
  out.write('RIFF', 0, 'ascii');
  out.writeUInt32LE(36 + samples, 4);
  out.write('WAVEfmt ', 8, 'ascii');
  out.writeUInt32LE(16, 16);
  out.writeUInt16LE(1, 20);
  out.writeUInt16LE(1, 22);
  out.writeUInt32LE(rate, 24);
  out.writeUInt32LE(rate, 28);
  out.writeUInt16LE(1, 32);
  out.writeUInt16LE(8, 34);
  out.write('data', 36, 'ascii');
  out.writeUInt32LE(samples, 40);
  return out;
}

describe('checkImage (R5.3)', () => {
  it('re-encodes without metadata, upright', async () => {
    const input = await image(30, 10).jpeg().withExif({ IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '1/1 2/1 3/1' } }).withMetadata({ orientation: 8 }).toBuffer();
    const checked = await checkImage(input, 'image/jpeg');
    expect(checked).toMatchObject({ contentType: 'image/jpeg', ext: 'jpg', width: 10, height: 30, durationMs: null });
    const meta = await sharp(checked.bytes).metadata();
    expect(meta.exif).toBeUndefined();
    expect(meta.orientation).toBeUndefined();
  });

  it('drops what follows the image (a PNG with HTML appended)', async () => {
    const polyglot = Buffer.concat([await image(8, 8).png().toBuffer(), Buffer.from('<html><script>alert(1)</script></html>')]);
    const checked = await checkImage(polyglot, 'image/png');
    expect(checked.bytes.includes(Buffer.from('<script>'))).toBe(false);
  });

  it('takes the type from the bytes for an import (declared null)', async () => {
    expect((await checkImage(await image(8, 8).webp().toBuffer(), null)).contentType).toBe('image/webp');
  });

  it('refuses a mismatch, text, and too many pixels', async () => {
    expect((await refusal(checkImage(await image(8, 8).png().toBuffer(), 'image/jpeg'))).reason).toBe('type_mismatch');
    expect((await refusal(checkImage(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), 'image/png'))).reason).toBe('not_accepted');
    expect((await refusal(checkImage(await image(8000, 6000).png().toBuffer(), 'image/png'))).reason).toBe('too_many_pixels');
  });
});

describe('checkAudio', () => {
  it('reads the duration, and refuses past 60 s', async () => {
    expect((await checkAudio(wav(2), 'audio/wav')).durationMs).toBe(2000);
    expect((await refusal(checkAudio(wav(61), 'audio/wav'))).reason).toBe('too_long');
    expect((await refusal(checkAudio(wav(2), 'audio/ogg'))).reason).toBe('type_mismatch');
  });
});

describe('garbage behind a real magic number', () => {
  const MAGIC: Array<[string, Buffer]> = [
    ['PNG', Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex')],
    ['JPEG', Buffer.from('ffd8ffe000104a464946', 'hex')],
    ['WebP', Buffer.concat([Buffer.from('RIFF'), Buffer.from('00100000', 'hex'), Buffer.from('WEBPVP8 ')])],
    ['WAV', Buffer.concat([Buffer.from('RIFF'), Buffer.from('00100000', 'hex'), Buffer.from('WAVEfmt ')])],
    ['Ogg', Buffer.from('OggS\u0000\u0002')],
    ['MP3', Buffer.from('ID3\u0004\u0000\u0000\u0000\u0000\u0000\u0010')],
    ['WebM', Buffer.from('1a45dfa3a34282887765626d', 'hex')],
  ];

  it('is always refused with a reason, never another error', async () => {
    for (const [name, magic] of MAGIC) {
      for (let i = 0; i < 5; i++) {
        const body = Buffer.concat([magic, randomBytes(64 + i * 500)]);
        for (const check of [() => checkImage(body, null), () => checkImage(body, 'image/png'), () => checkAudio(body, 'audio/wav'), () => checkAudio(body, 'audio/mpeg'), () => checkAudio(body, 'audio/ogg'), () => checkAudio(body, 'audio/webm')]) {
          const error = await check().then(() => null, (e: unknown) => e);
          expect(error, `${name} + ${body.length - magic.length} random bytes`).toBeInstanceOf(MediaRefused);
        }
      }
    }
  });
});
