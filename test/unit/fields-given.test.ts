// A request built from the flags given (src/kit/options.ts fieldsGiven): a flag
// not given is not sent, while null (`--no-icon`, `--note ""`: remove it), an
// empty text, false, 0 and an empty list are values the user asked for.
import { describe, expect, it } from 'vitest';
import { fieldsGiven } from '../../src/kit/options.js';

describe('fieldsGiven', () => {
  it('leaves out only what was not given, in the order declared', () => {
    const body = fieldsGiven({
      name: undefined,
      icon: null,
      note: '',
      position: 0,
      public: false,
      alerts: [],
      title: 'T',
    });
    expect(body).toEqual({ icon: null, note: '', position: 0, public: false, alerts: [], title: 'T' });
    expect(Object.keys(body)).toEqual(['icon', 'note', 'position', 'public', 'alerts', 'title']);
    expect('name' in body).toBe(false);
  });

  it('nothing given is an empty body (the command says there is nothing to change)', () => {
    expect(fieldsGiven({ cadence: undefined, alerts: undefined })).toEqual({});
  });
});
