// proxyFor: which proxy applies to a URL, from the environment, as curl decides
// (NO_PROXY honoured, credentials never shown). The requests themselves are
// proven in test/commands/http-proxy.test.ts.
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { proxyFor, proxyRoute } from '../../src/http/proxy.js';

const P = 'http://proxy.corp:3128';

describe('proxyFor', () => {
  it('takes HTTPS_PROXY for https:// and HTTP_PROXY for http://, either case, lower case first', () => {
    expect(proxyFor('https://api.example.com/api/v1', { HTTPS_PROXY: P })).toBe(P);
    expect(proxyFor('https://api.example.com/api/v1', { https_proxy: P, HTTPS_PROXY: 'http://other:1' })).toBe(P);
    expect(proxyFor('http://api.example.com/', { HTTP_PROXY: P })).toBe(P);
    expect(proxyFor('http://api.example.com/', { http_proxy: P })).toBe(P);
    expect(proxyFor('https://api.example.com/', { HTTP_PROXY: P })).toBeUndefined();
    expect(proxyFor('http://api.example.com/', { HTTPS_PROXY: P })).toBeUndefined();
    expect(proxyFor('https://api.example.com/', {})).toBeUndefined();
    expect(proxyFor('https://api.example.com/', { HTTPS_PROXY: '' })).toBeUndefined();
  });

  it('reads a proxy without a scheme as http://, and hides its credentials', () => {
    expect(proxyFor('https://api.example.com/', { HTTPS_PROXY: 'proxy.corp:3128' })).toBe(P);
    expect(proxyFor('https://api.example.com/', { HTTPS_PROXY: 'http://ada:s3cret@proxy.corp:3128/' })).toBe(
      'http://***@proxy.corp:3128',
    );
    const route = proxyRoute(new URL('https://api.example.com/'), {
      HTTPS_PROXY: 'http://ada:s3cret@proxy.corp:3128/',
    });
    expect(route).toEqual({
      url: 'http://ada:s3cret@proxy.corp:3128',
      display: 'http://***@proxy.corp:3128',
      variable: 'HTTPS_PROXY',
    });
  });

  it.each([
    ['*', 'https://api.example.com/', true],
    ['example.com', 'https://api.example.com/', true],
    ['.example.com', 'https://api.example.com/', true],
    ['*.example.com', 'https://api.example.com/', true],
    ['example.com', 'https://example.com/', true],
    ['ample.com', 'https://example.com/', false],
    ['example.com', 'https://example.com.org/', false],
    ['other.org, example.com', 'https://api.example.com/', true],
    ['API.Example.COM', 'https://api.example.com/', true],
    ['example.com:8443', 'https://api.example.com:8443/', true],
    ['example.com:8443', 'https://api.example.com/', false],
    ['127.0.0.1', 'http://127.0.0.1:8080/', true],
    ['127.0.0.0/8', 'http://127.0.0.2:8080/', true],
    ['10.0.0.0/8', 'http://127.0.0.1:8080/', false],
    ['::1', 'http://[::1]:8080/', true],
    ['localhost', 'http://127.0.0.1:8080/', false],
    ['127.0.0.1', 'http://localhost:8080/', false],
    ['', 'http://127.0.0.1:8080/', false],
  ])('NO_PROXY=%j for %s: direct = %s', (noProxy, url, direct) => {
    const env = { HTTP_PROXY: P, HTTPS_PROXY: P, NO_PROXY: noProxy };
    expect(proxyFor(url, env)).toBe(direct ? undefined : P);
  });

  it('does not bypass loopback on its own (as curl)', () => {
    expect(proxyFor('http://127.0.0.1:4000/api/v1', { HTTP_PROXY: P })).toBe(P);
    expect(proxyFor('http://localhost:4000/api/v1', { HTTP_PROXY: P })).toBe(P);
    expect(proxyFor('http://localhost:4000/api/v1', { HTTP_PROXY: P, no_proxy: 'localhost' })).toBeUndefined();
  });

  it('refuses a proxy it cannot use with a usage error naming the variable', () => {
    expect(() => proxyFor('https://api.example.com/', { HTTPS_PROXY: 'socks5://127.0.0.1:1080' })).toThrow(UsageError);
    expect(() => proxyFor('https://api.example.com/', { HTTPS_PROXY: 'socks5://127.0.0.1:1080' })).toThrow(
      /^HTTPS_PROXY: /,
    );
    expect(() => proxyFor('https://api.example.com/', { https_proxy: 'http://ada:pw@[bad' })).toThrow(
      /^https_proxy is not a proxy URL: "http:\/\/\*\*\*@\[bad"$/,
    );
  });
});
