// The key check doctor makes from GET /me's answer: accepted, accepted with an answer
// kagent does not know (a warning), refused (401), or another answer.
import { describe, expect, it } from 'vitest';
import type { Misfit } from '../../src/api/misfit.js';
import type { Resolved } from '../../src/config/resolve.js';
import { serviceChecks, type Probe } from '../../src/doctor/checks.js';

const base = new URL('http://127.0.0.1:9/api/v1');
const keyCheck = (status: number, misfit?: Misfit) => {
  const probe: Probe = { reachable: true, status, misfit, receivedAt: 0, elapsedMs: 5 };
  const checks = serviceChecks(probe, base, { apiKey: 'kak_x' } as Resolved, 'KAGENT_API_KEY');
  return checks.find((c) => c.name === 'key');
};

describe('doctor: the key check', () => {
  it('accepted', () => {
    expect(keyCheck(200)).toEqual({
      name: 'key',
      status: 'ok',
      summary: 'the API key is accepted (GET /me answered 200)',
      details: [],
      data: { status: 200 },
    });
  });

  it('accepted, with an account answer kagent does not know: a warning', () => {
    expect(keyCheck(200, {} as Misfit)).toEqual({
      name: 'key',
      status: 'warn',
      summary: 'the API key is accepted (GET /me answered 200)',
      details: ['the account answer differs from what kagent knows: see --debug'],
      data: { status: 200 },
    });
  });

  it('refused (401): says where the key came from', () => {
    expect(keyCheck(401)).toEqual({
      name: 'key',
      status: 'fail',
      summary: 'the API key is not accepted (401)',
      details: ['the key from KAGENT_API_KEY was refused: run `kagent auth login` again, or check KAGENT_API_KEY'],
      data: { status: 401 },
    });
  });

  it('another answer (500)', () => {
    expect(keyCheck(500)).toEqual({
      name: 'key',
      status: 'fail',
      summary: 'GET /me answered 500',
      details: ['the service refused the check'],
      data: { status: 500 },
    });
  });
});
