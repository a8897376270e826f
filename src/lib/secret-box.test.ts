import { describe, expect, it } from 'vitest';
import { createSecretBox } from './secret-box.ts';

const A = 'a'.repeat(32);
const B = 'b'.repeat(40);

describe('secret box', () => {
  it('opens what it sealed, and the sealed form hides the secret', () => {
    const box = createSecretBox([A]);
    const sealed = box.seal('whsec_c2VjcmV0', 'whe_1');
    expect(sealed).not.toContain('c2VjcmV0');
    expect(sealed.startsWith('v1.')).toBe(true);
    expect(box.open(sealed, 'whe_1')).toBe('whsec_c2VjcmV0');
    expect(box.seal('x', 'c')).not.toBe(box.seal('x', 'c'));
  });

  it('refuses a secret moved to another record, altered, or sealed by an unknown key', () => {
    const box = createSecretBox([A]);
    const sealed = box.seal('whsec_x', 'whe_1');
    expect(() => box.open(sealed, 'whe_2')).toThrow();
    const parts = sealed.split('.');
    const flipped = Buffer.from(parts[3], 'base64url');
    flipped[0] ^= 1;
    parts[3] = flipped.toString('base64url');
    expect(() => box.open(parts.join('.'), 'whe_1')).toThrow();
    expect(() => createSecretBox([B]).open(sealed, 'whe_1')).toThrow(/not configured/);
    expect(() => box.open('plain', 'whe_1')).toThrow(/not a sealed secret/);
  });

  it('rotates: the new key seals, the old one still opens what it sealed', () => {
    const before = createSecretBox([A]).seal('old', 'whe_1');
    const rotated = createSecretBox([B, A]);
    expect(rotated.open(before, 'whe_1')).toBe('old');
    expect(createSecretBox([B]).open(rotated.seal('new', 'whe_1'), 'whe_1')).toBe('new');
  });
});
