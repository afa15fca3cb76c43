// The words a number option's bounds are refused with, for every shape of bounds.
import { describe, expect, it } from 'vitest';
import { numberParser, timeoutParser } from '../../src/cli/option-values.js';

const refusal = (parse: (value: string) => number, value: string): string => {
  try {
    parse(value);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error(`${value} was accepted`);
};

describe('numberParser: the bounds in words', () => {
  it.each([
    [{ type: 'integer', min: 1, max: 100 }, '0', 'It must be an integer from 1 to 100.'],
    [{ type: 'integer', min: 0 }, '-1', 'It must be an integer of at least 0.'],
    [{ type: 'number', max: 5 }, '6', 'It must be a number of at most 5.'],
    [{ type: 'number' }, 'x', 'It must be a number.'],
    [{ type: 'integer' }, '1.5', 'It must be an integer.'],
    [{ type: 'number', min: 0.5 }, '0', 'It must be a number greater than 0.'],
    [{ type: 'number', min: 0.001, max: 10 }, '11', 'It must be a number greater than 0 and at most 10.'],
    [{ type: 'number', min: 1, max: 1 }, '2', 'It must be a number from 1 to 1.'],
  ] as const)('%j refuses %s', (spec, value, message) => {
    expect(refusal(numberParser(spec), value)).toBe(message);
  });

  it('--timeout reads "greater than 0" up to what a timer holds', () => {
    expect(refusal(timeoutParser(), '0')).toBe('It must be a number greater than 0 and at most 2147483.');
    expect(timeoutParser()('0.5')).toBe(0.5);
  });
});
