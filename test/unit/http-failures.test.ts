// The words of failures that need no service to show: an answer that is not JSON, and
// where a wire error's code is read from.
import { describe, expect, it } from 'vitest';
import { classifyNetworkError, notJsonAnswer } from '../../src/http/failures.js';

describe('a 2xx that is not JSON: the hint', () => {
  const url = new URL('https://api.example.com/api/v1/me');
  it.each([
    [
      'a write that may have taken effect',
      'text/html',
      false,
      'the request reached the service and probably took effect: check before running it again',
    ],
    [
      'a web page',
      'text/html',
      true,
      "https://api.example.com answered with a web page (a wrong base URL, or a network's sign-in page?): check the base URL (--base-url / KAGENT_BASE_URL)",
    ],
    [
      'an XHTML page',
      'application/xhtml+xml',
      true,
      "https://api.example.com answered with a web page (a wrong base URL, or a network's sign-in page?): check the base URL (--base-url / KAGENT_BASE_URL)",
    ],
    ['another type', 'text/plain', true, 'check the base URL (--base-url / KAGENT_BASE_URL), or try again later'],
  ])('%s', (_name, type, replayable, hint) => {
    expect(notJsonAnswer('GET', url, 200, type, replayable).hint).toBe(hint);
  });
});

describe("a wire error's code", () => {
  it.each([
    ['its own', { code: 'ECONNRESET', cause: { code: 'EPIPE' } }, 'ECONNRESET'],
    [
      "its cause's (fetch wraps the system's error)",
      { message: 'fetch failed', cause: { code: 'ECONNREFUSED' } },
      'ECONNREFUSED',
    ],
    ['UNKNOWN when neither is text', { code: 7, cause: { code: 8 } }, 'UNKNOWN'],
    ['UNKNOWN for nothing', undefined, 'UNKNOWN'],
  ])('%s', (_name, error, code) => {
    expect(classifyNetworkError(error).code).toBe(code);
  });
});
