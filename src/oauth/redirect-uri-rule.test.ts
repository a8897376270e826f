import { describe, expect, it } from 'vitest';
import { webRedirectUriProblem } from './redirect-uri-rule.ts';

describe('webRedirectUriProblem', () => {
  it('takes https anywhere and http on the loopback', () => {
    for (const uri of ['https://app.example/cb', 'https://localhost/cb', 'http://localhost:3000/cb', 'http://127.0.0.1:9/callback', 'http://[::1]:8080/cb', 'http://LOCALHOST/cb']) {
      expect(webRedirectUriProblem(uri), uri).toBeNull();
    }
  });

  it('refuses http to any other host, names and addresses alike', () => {
    for (const uri of ['http://app.example/cb', 'http://192.168.1.10/cb', 'http://127.0.0.2/cb', 'http://localhost.evil.example/cb', 'http://10.0.0.1:3000/cb']) {
      expect(webRedirectUriProblem(uri), uri).toMatch(/^redirect_uris must use https/);
    }
  });

  it("leaves what is not http to oidc-provider's own checks", () => {
    expect(webRedirectUriProblem('not a uri')).toBeNull();
    expect(webRedirectUriProblem('cursor://anysphere/cb')).toBeNull();
  });
});
