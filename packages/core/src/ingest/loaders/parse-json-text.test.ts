import { describe, expect, it } from 'vitest';
import { catchInputError } from './__fixtures__/catch-input-error.js';
import { findJsonSyntaxError, parseJsonText } from './parse-json-text.js';

describe('findJsonSyntaxError', () => {
  it('returns nothing for valid JSON, whitespace included', () => {
    expect(findJsonSyntaxError(' {"a": [1, -2.5e3, true, null, "\\u00e9\\n"]} \n')).toBeUndefined();
  });

  it.each([
    ['{"a": 1,}', 1, 9, 'unexpected character "}": expected a double-quoted property name'],
    ['{"a" 1}', 1, 6, `unexpected character "1": expected ':' after a property name`],
    ['[1,\n2,\n3 x]', 3, 3, `unexpected character "x": expected ',' or ']' after an array element`],
    ['{"a":\n  }', 2, 3, 'unexpected character "}": expected a value'],
    ['[1, 2', 1, 6, `unexpected end of input: expected ',' or ']' after an array element`],
    ['{"a": "b\nc"}', 1, 9, 'unescaped control character in string'],
    ['["\\x"]', 1, 3, 'bad escape in string'],
    ['[01]', 1, 3, `unexpected character "1": expected ',' or ']' after an array element`],
    ['[1] [2]', 1, 5, 'unexpected content after the JSON value'],
    ['', 1, 1, 'unexpected end of input: expected a value'],
  ])('locates the error in %j', (text, line, column, reason) => {
    expect(findJsonSyntaxError(text)).toMatchObject({ line, column, reason });
  });
});

describe('parseJsonText', () => {
  it('parses JSON and ignores a byte-order mark', () => {
    expect(parseJsonText('\uFEFF{"a": 1}')).toEqual({ a: 1 });
  });

  it('names the source, line and column of a syntax error', () => {
    const error = catchInputError(() => parseJsonText('[\n  {"a": 1}\n  {"b": 2}\n]', { source: 'data.json' }));
    expect(error.message).toBe(`data.json:3:3: malformed JSON: unexpected character "{": expected ',' or ']' after an array element`);
    expect(error.source).toBe('data.json:3:3');
  });
});
