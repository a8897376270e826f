import { describe, expect, it } from 'vitest';
import { redactUrl } from './logger.ts';

describe('redactUrl: credentials in URLs never reach a log line', () => {
  it('cuts the sign-in token from the query', () => {
    expect(redactUrl('/app/sign-in?token=abc123&next=/app')).toBe('/app/sign-in?token=[redacted]&next=/app');
  });

  it('cuts upload, export link and share link tokens from the path, and nothing else', () => {
    expect(redactUrl('/v1/uploads/upt_oGboIzEbO2aQl7AhBjSA8VqZvkHewnBuNNfKTOLVKV2')).toBe('/v1/uploads/[redacted]');
    expect(redactUrl('/v1/uploads/import')).toBe('/v1/uploads/import');
    expect(redactUrl('/v1/public/exports/eyJhIjoi.y42dBipreP2chgPBK2uDPsgjc215bqHtMKI_-7CWAcI')).toBe('/v1/public/exports/[redacted]');
    expect(redactUrl('/v1/public/shared/Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z/heatmap.png?aspect=2')).toBe('/v1/public/shared/[redacted]/heatmap.png?aspect=2');
    expect(redactUrl('/s/Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z')).toBe('/s/[redacted]');
    expect(redactUrl('/v2/questions/q_123/result?tier=1')).toBe('/v2/questions/q_123/result?tier=1');
    expect(redactUrl('/v1/public/results/ABC/heatmap.png')).toBe('/v1/public/results/ABC/heatmap.png');
  });
});
