import { describe, expect, it } from 'vitest';
import zlib from 'node:zlib';
import Fastify from 'fastify';
import { createPreparedJson, MIN_COMPRESS_BYTES, preferredCoding } from './prepared-json.ts';

describe('preferredCoding (RFC 9110 §12.5.3)', () => {
  it('br before gzip when both are accepted; either alone; none without a header', () => {
    expect(preferredCoding('gzip, deflate, br')).toBe('br');
    expect(preferredCoding('gzip')).toBe('gzip');
    expect(preferredCoding('x-gzip')).toBe('gzip');
    expect(preferredCoding('BR')).toBe('br');
    expect(preferredCoding(undefined)).toBeNull();
    expect(preferredCoding('')).toBeNull();
    expect(preferredCoding('deflate')).toBeNull();
    expect(preferredCoding('identity')).toBeNull();
  });

  it('honours weights: q=0 refuses, the higher weight wins, identity above both wins', () => {
    expect(preferredCoding('br;q=0, gzip')).toBe('gzip');
    expect(preferredCoding('br;q=0.5, gzip;q=0.8')).toBe('gzip');
    expect(preferredCoding('gzip;q=0, br;q=0')).toBeNull();
    expect(preferredCoding('identity;q=1, gzip;q=0.5')).toBeNull();
    expect(preferredCoding('gzip ; q=0.9 , identity;q=0.1')).toBe('gzip');
    expect(preferredCoding('gzip;q=nonsense')).toBeNull();
  });

  it('"*" stands for every coding not named', () => {
    expect(preferredCoding('*')).toBe('br');
    expect(preferredCoding('br;q=0, *')).toBe('gzip');
    expect(preferredCoding('*;q=0')).toBeNull();
  });
});

describe('createPreparedJson', () => {
  async function server() {
    const app = Fastify({ logger: false });
    const send = createPreparedJson();
    let serialized = 0;
    const shared = { text: 'word '.repeat(2000) };
    const small = { text: 'tiny' };
    app.get('/big', async (request, reply) => send(request, reply, shared, 'v', () => (serialized++, JSON.stringify(shared))));
    app.get('/small', async (request, reply) => send(request, reply, small, 'v', () => JSON.stringify(small)));
    await app.ready();
    return { app, serializations: () => serialized, shared };
  }

  it('serializes once, compresses for clients that accept it, always says Vary, and sends the same JSON', async () => {
    const { app, serializations, shared } = await server();
    const plain = await app.inject({ method: 'GET', url: '/big' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toBe('accept-encoding');
    expect(plain.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(plain.json()).toEqual(shared);
    for (const [accept, coding, decode] of [
      ['gzip, br', 'br', zlib.brotliDecompressSync],
      ['gzip', 'gzip', zlib.gunzipSync],
    ] as const) {
      for (let i = 0; i < 2; i++) {
        const response = await app.inject({ method: 'GET', url: '/big', headers: { 'accept-encoding': accept } });
        expect(response.headers['content-encoding']).toBe(coding);
        expect(response.headers.vary).toBe('accept-encoding');
        expect(Number(response.headers['content-length'])).toBe(response.rawPayload.length);
        expect(response.rawPayload.length).toBeLessThan(plain.rawPayload.length / 10);
        expect(decode(response.rawPayload).equals(plain.rawPayload)).toBe(true);
      }
    }
    expect(serializations()).toBe(1);
    await app.close();
  });

  it(`sends bodies under ${MIN_COMPRESS_BYTES} bytes as they are`, async () => {
    const { app } = await server();
    const response = await app.inject({ method: 'GET', url: '/small', headers: { 'accept-encoding': 'br' } });
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.headers.vary).toBe('accept-encoding');
    expect(response.json()).toEqual({ text: 'tiny' });
    await app.close();
  });
});
