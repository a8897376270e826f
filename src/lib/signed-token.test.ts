import { describe, expect, it } from 'vitest';
import { tokenSigner } from './signed-token.ts';

const SECRET = 'a'.repeat(32);

describe('tokenSigner', () => {
  const signer = tokenSigner<{ q: string; e: number }>(SECRET, 'export link');

  it('gives back what it signed', () => {
    const token = signer.sign({ q: 'q_1', e: 123 });
    expect(token).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
    expect(signer.verify(token)).toEqual({ q: 'q_1', e: 123 });
  });

  it('refuses a changed payload, a changed signature, another secret and another purpose', () => {
    const token = signer.sign({ q: 'q_1', e: 123 });
    const [body, signature] = token.split('.');
    const extended = Buffer.from(JSON.stringify({ q: 'q_1', e: 99999 })).toString('base64url');
    expect(signer.verify(`${extended}.${signature}`)).toBeNull();
    const flipped = signature.slice(0, -2) + (signature.at(-2) === 'A' ? 'B' : 'A') + signature.at(-1);
    expect(signer.verify(`${body}.${flipped}`)).toBeNull();
    expect(tokenSigner(`${SECRET}b`, 'export link').verify(token)).toBeNull();
    expect(tokenSigner(SECRET, 'another purpose').verify(token)).toBeNull();
  });

  it('refuses malformed tokens without throwing', () => {
    for (const bad of ['', '.', 'abc', `.${'A'.repeat(43)}`, `abc.${'A'.repeat(42)}`, `${'A'.repeat(2000)}.${'A'.repeat(43)}`, 'not-json.' + 'A'.repeat(43)]) {
      expect(signer.verify(bad), bad.slice(0, 20)).toBeNull();
    }
  });
});
