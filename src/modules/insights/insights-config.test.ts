import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config.ts';

/** INSIGHTS_* and TRANSLATE_* (docs/insights.md "Configuration"). */
const base = { NODE_ENV: 'test' };
const problemsOf = (env: Record<string, string>) => {
  try {
    loadConfig({ ...base, ...env });
    return [];
  } catch (error) {
    return (error as ConfigError).problems;
  }
};

describe('insights configuration', () => {
  it('is off by default', () => {
    expect(loadConfig(base).insights).toEqual({ api: null, translate: null });
  });

  it('reads both APIs, the key being optional', () => {
    const config = loadConfig({
      ...base,
      INSIGHTS_API_URL: 'https://llm.example/v1/',
      INSIGHTS_MODEL: 'summariser',
      INSIGHTS_API_KEY: 'sk-1',
      TRANSLATE_API_URL: 'http://127.0.0.1:8081/v1',
      TRANSLATE_MODEL: 'mt',
    });
    expect(config.insights).toEqual({
      api: { url: 'https://llm.example/v1', key: 'sk-1', model: 'summariser' },
      translate: { url: 'http://127.0.0.1:8081/v1', key: null, model: 'mt' },
    });
  });

  it('refuses half a configuration and bad URLs', () => {
    expect(problemsOf({ INSIGHTS_API_URL: 'https://llm.example/v1' })).toEqual(['INSIGHTS_API_URL and INSIGHTS_MODEL must be set together (INSIGHTS_API_KEY is optional)']);
    expect(problemsOf({ TRANSLATE_MODEL: 'mt' })).toEqual(['TRANSLATE_API_URL and TRANSLATE_MODEL must be set together (TRANSLATE_API_KEY is optional)']);
    expect(problemsOf({ INSIGHTS_API_KEY: 'sk-1' })).toHaveLength(1);
    expect(problemsOf({ INSIGHTS_API_URL: 'ftp://x', INSIGHTS_MODEL: 'm' })).toEqual(['INSIGHTS_API_URL must use https: or http: (got "ftp:")']);
  });
});
