// The words validate() uses for a text's length and a list's size: one wording for
// both, with the singular where the bound is 1.
import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { isCalendarDate, validate } from '../../src/api/validate.js';

const said = (schema: object, value: unknown): string[] => validate(schema, value).map((i) => i.message);

describe('validate: bounds in words', () => {
  it.each([
    [Type.String({ minLength: 2, maxLength: 5 }), '', 'must be 2 to 5 characters (got 0)'],
    [Type.String({ maxLength: 3 }), 'abcd', 'must be at most 3 characters (got 4)'],
    [Type.String({ minLength: 1 }), '', 'must be at least 1 character (got 0)'],
    [Type.String({ minLength: 3 }), 'ab', 'must be at least 3 characters (got 2)'],
  ])('text %#', (schema, value, message) => {
    expect(said(schema, value)).toEqual([message]);
  });

  it.each([
    [Type.Array(Type.String(), { minItems: 1, maxItems: 2 }), [], 'must have 1 to 2 items (got 0)'],
    [Type.Array(Type.String(), { maxItems: 1 }), ['a', 'b'], 'must have at most 1 item (got 2)'],
    [Type.Array(Type.String(), { minItems: 1 }), [], 'must have at least 1 item (got 0)'],
    [Type.Array(Type.String(), { minItems: 2 }), ['a'], 'must have at least 2 items (got 1)'],
  ])('list %#', (schema, value, message) => {
    expect(said(schema, value)).toEqual([message]);
  });
});

describe('validate: a URI, a calendar date', () => {
  it.each([
    ['not a url', 'must be an absolute URL (https://...)'],
    ['https://example.com/a b', 'must be a URI: a space at position 22 must be percent-encoded (RFC 3986)'],
    [
      'https://example.com/100%',
      'must be a URI: a % not followed by two hex digits at position 24 must be percent-encoded (RFC 3986)',
    ],
    ['https://example.com/<x>', 'must be a URI: "<" at position 21 must be percent-encoded (RFC 3986)'],
  ])('uri %s', (value, message) => {
    expect(said(Type.String({ format: 'uri' }), value)).toEqual([message]);
  });

  it.each([
    ['2024-02-29', true],
    ['2023-02-29', false],
    ['2000-02-29', true],
    ['1900-02-29', false],
    ['2023-02-28', true],
    ['2023-04-30', true],
    ['2023-04-31', false],
    ['2023-11-31', false],
    ['2023-12-31', true],
    ['2023-01-31', true],
    ['2023-01-32', false],
    ['2023-13-01', false],
    ['2023-00-01', false],
    ['2023-01-00', false],
  ])('date %s exists: %s', (text, exists) => {
    expect(isCalendarDate(text)).toBe(exists);
  });
});
