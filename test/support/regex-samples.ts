import type { SeededRandom } from './seeded-random.js';

/**
 * Strings a JSON Schema `pattern` matches, for the property run over the OpenAPI document: the
 * subset of ECMAScript regular expressions the document uses (classes and ranges, `\d \w \s \S
 * \xHH \uHHHH`, groups, alternation, quantifiers, anchors, `.`). A pattern not anchored at an end
 * may be followed (or preceded) by anything, so a sample sometimes is.
 */

type Node =
  | { kind: 'chars'; set: CharSet }
  | { kind: 'seq'; items: Node[] }
  | { kind: 'alt'; options: Node[] }
  | { kind: 'repeat'; node: Node; min: number; max: number }
  | { kind: 'anchor' };

/** A character class: the characters it holds, or (negated) those of the universe it does not. */
interface CharSet {
  readonly ranges: ReadonlyArray<readonly [number, number]>;
  readonly negated: boolean;
}

/** What `.` and a negated class draw from: printable ASCII, a few accented letters, a space and an emoji. */
const UNIVERSE: ReadonlyArray<readonly [number, number]> = [
  [0x20, 0x7e],
  [0xe9, 0xe9],
  [0x1f600, 0x1f600],
];

const DIGIT: Array<[number, number]> = [[0x30, 0x39]];
const WORD: Array<[number, number]> = [
  [0x30, 0x39],
  [0x41, 0x5a],
  [0x5f, 0x5f],
  [0x61, 0x7a],
];
const SPACE: Array<[number, number]> = [
  [0x09, 0x0d],
  [0x20, 0x20],
];

class Parser {
  private at = 0;
  constructor(private readonly source: string) {}

  parse(): Node {
    const node = this.alternation();
    if (this.at < this.source.length) throw new Error(`Unsupported pattern ${this.source} at ${this.at}`);
    return node;
  }

  private alternation(): Node {
    const options = [this.sequence()];
    while (this.peek() === '|') {
      this.at += 1;
      options.push(this.sequence());
    }
    return options.length === 1 ? options[0]! : { kind: 'alt', options };
  }

  private sequence(): Node {
    const items: Node[] = [];
    while (this.at < this.source.length && this.peek() !== '|' && this.peek() !== ')') items.push(this.quantified(this.atom()));
    return { kind: 'seq', items };
  }

  private quantified(node: Node): Node {
    const c = this.peek();
    let min: number;
    let max: number;
    if (c === '*') [min, max] = [0, Infinity];
    else if (c === '+') [min, max] = [1, Infinity];
    else if (c === '?') [min, max] = [0, 1];
    else if (c === '{' && /^\{\d+(,\d*)?\}/.test(this.source.slice(this.at))) {
      const [, low, comma, high] = /^\{(\d+)(,(\d*))?\}/.exec(this.source.slice(this.at))!;
      min = Number(low);
      max = comma === undefined ? min : high ? Number(high) : Infinity;
      this.at += /^\{\d+(,\d*)?\}/.exec(this.source.slice(this.at))![0].length - 1;
    } else return node;
    this.at += 1;
    if (this.peek() === '?') this.at += 1;
    return { kind: 'repeat', node, min, max };
  }

  private atom(): Node {
    const c = this.source[this.at++]!;
    if (c === '^' || c === '$') return { kind: 'anchor' };
    if (c === '.') return { kind: 'chars', set: { ranges: [[0x0a, 0x0a]], negated: true } };
    if (c === '(') {
      if (this.source.startsWith('?:', this.at)) this.at += 2;
      const inner = this.alternation();
      if (this.source[this.at++] !== ')') throw new Error(`Unclosed group in ${this.source}`);
      return inner;
    }
    if (c === '[') return { kind: 'chars', set: this.characterClass() };
    if (c === '\\') return { kind: 'chars', set: this.escape(false) };
    return { kind: 'chars', set: { ranges: [[c.codePointAt(0)!, c.codePointAt(0)!]], negated: false } };
  }

  private characterClass(): CharSet {
    const negated = this.peek() === '^';
    if (negated) this.at += 1;
    const ranges: Array<readonly [number, number]> = [];
    let first = true;
    while (this.at < this.source.length && (this.peek() !== ']' || first)) {
      first = false;
      const low = this.classMember();
      if (this.peek() === '-' && this.source[this.at + 1] !== ']' && low.length === 1 && low[0]![0] === low[0]![1]) {
        this.at += 1;
        const high = this.classMember();
        ranges.push([low[0]![0], high[0]![1]]);
      } else ranges.push(...low);
    }
    this.at += 1;
    return { ranges, negated };
  }

  private classMember(): ReadonlyArray<readonly [number, number]> {
    const c = this.source[this.at++]!;
    if (c !== '\\') return [[c.codePointAt(0)!, c.codePointAt(0)!]];
    const set = this.escape(true);
    if (set.negated) throw new Error(`Unsupported negated escape in a class: ${this.source}`);
    return set.ranges;
  }

  private escape(inClass: boolean): CharSet {
    const c = this.source[this.at++]!;
    const hex = (length: number) => {
      const code = parseInt(this.source.slice(this.at, this.at + length), 16);
      this.at += length;
      return { ranges: [[code, code] as const], negated: false };
    };
    switch (c) {
      case 'd':
        return { ranges: DIGIT, negated: false };
      case 'D':
        return { ranges: DIGIT, negated: true };
      case 'w':
        return { ranges: WORD, negated: false };
      case 'W':
        return { ranges: WORD, negated: true };
      case 's':
        return { ranges: SPACE, negated: false };
      case 'S':
        return { ranges: SPACE, negated: true };
      case 'x':
        return hex(2);
      case 'u':
        return hex(4);
      case 'n':
        return { ranges: [[0x0a, 0x0a]], negated: false };
      case 't':
        return { ranges: [[0x09, 0x09]], negated: false };
      case 'r':
        return { ranges: [[0x0d, 0x0d]], negated: false };
      default:
        if (/[A-Za-z0-9]/.test(c) && !inClass) throw new Error(`Unsupported escape \\${c} in ${this.source}`);
        return { ranges: [[c.codePointAt(0)!, c.codePointAt(0)!]], negated: false };
    }
  }

  private peek(): string | undefined {
    return this.source[this.at];
  }
}

const parsed = new Map<string, Node>();

/** A string `pattern` matches (as a whole, or, for an unanchored end, with something around it). */
export function sampleMatching(pattern: string, random: SeededRandom): string {
  let node = parsed.get(pattern);
  if (!node) parsed.set(pattern, (node = new Parser(pattern).parse()));
  const core = generate(node, random);
  // An unanchored pattern matches inside a longer string too.
  const before = !pattern.startsWith('^') && random.chance(0.3) ? sampleMatching('[a-z ]{1,4}', random) : '';
  const after = !pattern.endsWith('$') && random.chance(0.3) ? sampleMatching('[a-z ]{1,4}', random) : '';
  return `${before}${core}${after}`;
}

function generate(node: Node, random: SeededRandom): string {
  switch (node.kind) {
    case 'anchor':
      return '';
    case 'chars':
      return String.fromCodePoint(pickChar(node.set, random));
    case 'seq':
      return node.items.map((item) => generate(item, random)).join('');
    case 'alt':
      return generate(random.pick(node.options), random);
    case 'repeat': {
      const times = random.count(node.min, node.max);
      let text = '';
      for (let i = 0; i < times; i += 1) text += generate(node.node, random);
      return text;
    }
  }
}

function pickChar(set: CharSet, random: SeededRandom): number {
  const ranges = set.negated ? subtract(UNIVERSE, set.ranges) : set.ranges;
  const total = ranges.reduce((sum, [low, high]) => sum + high - low + 1, 0);
  let index = random.int(0, total - 1);
  for (const [low, high] of ranges) {
    if (index <= high - low) return low + index;
    index -= high - low + 1;
  }
  throw new Error('empty character class');
}

function subtract(
  from: ReadonlyArray<readonly [number, number]>,
  minus: ReadonlyArray<readonly [number, number]>,
): Array<readonly [number, number]> {
  let result: Array<readonly [number, number]> = [...from];
  for (const [low, high] of minus) {
    result = result.flatMap(([a, b]): Array<readonly [number, number]> => {
      if (high < a || low > b) return [[a, b]];
      return [...(low > a ? [[a, low - 1] as const] : []), ...(high < b ? [[high + 1, b] as const] : [])];
    });
  }
  return result;
}
