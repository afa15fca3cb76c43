// answerValues (src/http/body.ts): the values JSON.parse would make of a text,
// counted without parsing, so that an answer too costly to parse is refused first.
import { describe, expect, it } from 'vitest';
import { answerValues, MAX_ANSWER_VALUES } from '../../src/http/body.js';

/** `text` padded past the size below which nothing is counted (spaces are no values). */
const padded = (text: string) => `${text}${' '.repeat(1_048_576)}`;

describe('answerValues', () => {
  it('counts containers, strings (keys too) and literals', () => {
    expect(answerValues(padded('{"a":[1,-2.5e3,true,null],"b":{"c":"d"}}'))).toBe(11);
  });

  it('reads brackets, colons, commas and escaped quotes inside strings as text', () => {
    expect(answerValues(padded('["a:b,{[", "say \\"x\\": [1]", "\\\\"]'))).toBe(4);
  });

  it('counts each key of an object past its first 1,000 as ten more (V8 keeps such an object as a dictionary)', () => {
    const keys = (n: number) => Array.from({ length: n }, (_, i) => `"k${i}":0`).join(',');
    expect(answerValues(padded(`{${keys(1000)}}`))).toBe(1 + 2000);
    expect(answerValues(padded(`{${keys(1001)}}`))).toBe(1 + 2002 + 10);
    // Small objects in a large array are not dictionaries.
    expect(answerValues(padded(`[${'{"a":1},'.repeat(2000)}{"a":1}]`))).toBe(1 + 2001 * 3);
  });

  it('stays right past the depth it tracks', () => {
    expect(answerValues(padded(`${'['.repeat(600)}{"a":1}${']'.repeat(600)}`))).toBe(603);
  });

  it('counts nothing in text too short to hold the cap, and stops counting once past it', () => {
    expect(answerValues('[1,2,3]')).toBeUndefined();
    const big = `[${'1,'.repeat(MAX_ANSWER_VALUES)}1]`;
    const counted = answerValues(big) ?? 0;
    expect(counted).toBeGreaterThan(MAX_ANSWER_VALUES);
    expect(counted).toBeLessThan(MAX_ANSWER_VALUES + 5);
  });
});
