import { describe, expect, it } from 'vitest';
import { operationUrl } from './url.ts';

describe('operationUrl', () => {
  it('fills path parameters percent-encoded, keeps a base path, and writes the query as the service reads it', () => {
    expect(operationUrl('https://api.example/headcount/', '/v2/questions/{id}/answers', { id: 'q_1/..' }, { limit: 2, bookmarked: false, q: 'a b&c', cursor: undefined, age_band: '65+', x: null })).toBe(
      'https://api.example/headcount/v2/questions/q_1%2F../answers?limit=2&bookmarked=false&q=a+b%26c&age_band=65%2B',
    );
    expect(operationUrl('http://localhost:8080', '/v1/things', undefined, { tag: ['a', 'b'] })).toBe('http://localhost:8080/v1/things?tag=a&tag=b');
  });
  it('refuses a missing path parameter rather than asking for the wrong URL', () => {
    expect(() => operationUrl('http://h', '/v2/questions/{id}', {}, undefined)).toThrow(/Missing path parameter "id"/);
  });
});
