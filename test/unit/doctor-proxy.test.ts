// The doctor's reading of HTTPS_PROXY / HTTP_PROXY / ALL_PROXY / NO_PROXY.
import { describe, expect, it } from 'vitest';
import { proxyFor } from '../../src/doctor/proxy.js';

describe('proxyFor', () => {
  it('https URLs use HTTPS_PROXY, http URLs HTTP_PROXY; ALL_PROXY for either; lower-case forms too', () => {
    const env = { HTTPS_PROXY: 'http://secure:3128', HTTP_PROXY: 'http://plain:3128' };
    expect(proxyFor('https://api.example.com/api/v1', env)).toEqual({ url: 'http://secure:3128', from: 'HTTPS_PROXY' });
    expect(proxyFor('http://api.example.com/api/v1', env)).toEqual({ url: 'http://plain:3128', from: 'HTTP_PROXY' });
    expect(proxyFor('https://api.example.com', { all_proxy: 'proxy:8080' })).toEqual({ url: 'http://proxy:8080', from: 'all_proxy' });
    expect(proxyFor('https://api.example.com', { https_proxy: 'http://p:1' })).toEqual({ url: 'http://p:1', from: 'https_proxy' });
    expect(proxyFor('https://api.example.com', {})).toBeUndefined();
    expect(proxyFor('https://api.example.com', { HTTPS_PROXY: '  ' })).toBeUndefined();
  });

  it('NO_PROXY: exact hosts, domains with or without a leading dot, ports, and *', () => {
    const env = { HTTPS_PROXY: 'http://p:1', NO_PROXY: 'localhost, .internal.example, example.org:8443' };
    expect(proxyFor('https://localhost/api', env)).toBeUndefined();
    expect(proxyFor('https://a.internal.example/api', env)).toBeUndefined();
    expect(proxyFor('https://internal.example/api', env)).toBeUndefined();
    expect(proxyFor('https://example.org:8443/api', env)).toBeUndefined();
    expect(proxyFor('https://example.org/api', env)?.url).toBe('http://p:1');
    expect(proxyFor('https://notinternal.example/api', env)?.url).toBe('http://p:1');
    expect(proxyFor('https://anything/api', { HTTPS_PROXY: 'http://p:1', no_proxy: '*' })).toBeUndefined();
  });
});
