import { throwInputError } from './loader-issues.js';

/** Where and why a JSON text stops being valid. */
export interface JsonSyntaxError {
  /** 0-based character offset of the offending character (the text length at an unexpected end). */
  offset: number;
  /** 1-based line. */
  line: number;
  /** 1-based column. */
  column: number;
  /** What was expected, e.g. `expected ',' or '}' after a property value`. */
  reason: string;
}

/**
 * Parses JSON text; malformed text raises an InvalidInputError naming the line and column,
 * `data.json:12:5: malformed JSON: expected ',' or '}' after a property value`.
 * `firstLine` numbers the text's first line (JSONL passes the line it came from).
 */
export function parseJsonText(text: string, options: { source?: string; firstLine?: number } = {}): unknown {
  const result = tryParseJson(text);
  if ('value' in result) return result.value;
  const line = result.error.line + (options.firstLine ?? 1) - 1;
  const where = `${options.source ?? 'input'}:${line}:${result.error.column}`;
  return throwInputError(where, `malformed JSON: ${result.error.reason}`, { cause: result.cause });
}

/** Parses JSON text (a leading byte-order mark is ignored), returning the value or where the syntax breaks. */
export function tryParseJson(text: string): { value: unknown } | { error: JsonSyntaxError; cause: unknown } {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  try {
    return { value: JSON.parse(body) as unknown };
  } catch (cause) {
    // V8's messages often lack a position ("Unexpected token ..."), so locate the error ourselves.
    const error = findJsonSyntaxError(body) ?? {
      offset: 0,
      line: 1,
      column: 1,
      reason: cause instanceof Error ? cause.message : String(cause),
    };
    return { error, cause };
  }
}

/** Finds the first syntax error of a JSON text, or `undefined` when the text is valid JSON. */
export function findJsonSyntaxError(text: string): JsonSyntaxError | undefined {
  const scanner = new Scanner(text);
  try {
    scanner.skipWhitespace();
    scanner.value();
    scanner.skipWhitespace();
    if (scanner.position < text.length) scanner.fail('unexpected content after the JSON value');
    return undefined;
  } catch (error) {
    if (!(error instanceof SyntaxFailure)) throw error;
    return { offset: error.offset, ...lineAndColumn(text, error.offset), reason: error.reason };
  }
}

function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let index = text.indexOf('\n'); index !== -1 && index < offset; index = text.indexOf('\n', index + 1)) {
    line += 1;
    lineStart = index + 1;
  }
  return { line, column: offset - lineStart + 1 };
}

class SyntaxFailure {
  constructor(
    readonly offset: number,
    readonly reason: string,
  ) {}
}

const numberPattern = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const hexPattern = /^[0-9a-fA-F]{4}$/;

/** A minimal recursive-descent JSON checker; it only runs after JSON.parse has failed. */
class Scanner {
  position = 0;

  constructor(private readonly text: string) {}

  fail(reason: string, offset = this.position): never {
    throw new SyntaxFailure(offset, reason);
  }

  skipWhitespace(): void {
    while (this.position < this.text.length) {
      const char = this.text[this.position];
      if (char !== ' ' && char !== '\t' && char !== '\n' && char !== '\r') return;
      this.position += 1;
    }
  }

  private describeHere(): string {
    const char = this.text[this.position];
    return char === undefined ? 'unexpected end of input' : `unexpected character ${JSON.stringify(char)}`;
  }

  value(): void {
    const char = this.text[this.position];
    if (char === '{') this.object();
    else if (char === '[') this.array();
    else if (char === '"') this.string();
    else if (char === '-' || (char !== undefined && char >= '0' && char <= '9')) this.number();
    else if (!this.literal('true') && !this.literal('false') && !this.literal('null')) {
      this.fail(`${this.describeHere()}: expected a value`);
    }
  }

  private literal(word: string): boolean {
    if (!this.text.startsWith(word, this.position)) return false;
    this.position += word.length;
    return true;
  }

  private object(): void {
    this.position += 1;
    this.skipWhitespace();
    if (this.text[this.position] === '}') {
      this.position += 1;
      return;
    }
    for (;;) {
      if (this.text[this.position] !== '"') this.fail(`${this.describeHere()}: expected a double-quoted property name`);
      this.string();
      this.skipWhitespace();
      if (this.text[this.position] !== ':') this.fail(`${this.describeHere()}: expected ':' after a property name`);
      this.position += 1;
      this.skipWhitespace();
      this.value();
      this.skipWhitespace();
      const next = this.text[this.position];
      if (next !== ',' && next !== '}') this.fail(`${this.describeHere()}: expected ',' or '}' after a property value`);
      this.position += 1;
      if (next === '}') return;
      this.skipWhitespace();
    }
  }

  private array(): void {
    this.position += 1;
    this.skipWhitespace();
    if (this.text[this.position] === ']') {
      this.position += 1;
      return;
    }
    for (;;) {
      this.value();
      this.skipWhitespace();
      const next = this.text[this.position];
      if (next !== ',' && next !== ']') this.fail(`${this.describeHere()}: expected ',' or ']' after an array element`);
      this.position += 1;
      if (next === ']') return;
      this.skipWhitespace();
    }
  }

  private string(): void {
    const start = this.position;
    this.position += 1;
    for (;;) {
      const char = this.text[this.position];
      if (char === undefined) this.fail('unterminated string', start);
      if (char === '"') {
        this.position += 1;
        return;
      }
      if (char === '\\') {
        const escape = this.text[this.position + 1];
        if (escape === 'u') {
          if (!hexPattern.test(this.text.slice(this.position + 2, this.position + 6))) this.fail('bad \\u escape in string');
          this.position += 6;
        } else if (escape !== undefined && '"\\/bfnrt'.includes(escape)) {
          this.position += 2;
        } else {
          this.fail('bad escape in string');
        }
      } else if (char.charCodeAt(0) < 0x20) {
        this.fail('unescaped control character in string');
      } else {
        this.position += 1;
      }
    }
  }

  private number(): void {
    numberPattern.lastIndex = this.position;
    const match = numberPattern.exec(this.text);
    if (match === null) this.fail('bad number');
    this.position += match[0].length;
  }
}
