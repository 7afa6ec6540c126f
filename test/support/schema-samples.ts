import { sampleMatching } from './regex-samples.js';
import type { SeededRandom } from './seeded-random.js';

type Json = Record<string, any>;

/** How deep a sample goes before it takes the shortest way out (no optional members, fewest items). */
const DEEP = 5;

/**
 * Values drawn from the JSON Schemas of an OpenAPI document (draft 2020-12, the keywords zod
 * emits): `valid` aims inside a schema and `invalid` just outside it, breaking one rule at one
 * place. Both only aim: the property run asks a validator which side a sample landed on, and
 * keeps or draws again.
 */
export class SchemaSamples {
  constructor(
    private readonly schemas: Readonly<Record<string, Json>>,
    private readonly random: SeededRandom,
  ) {}

  valid(schema: Json | boolean, depth = 0): unknown {
    if (schema === true || schema === undefined) return this.anyJson(depth);
    if (schema === false) return undefined;
    const s = this.resolve(schema);
    if ('const' in s) return s.const;
    if (s.enum) return this.random.pick(s.enum);
    if (s.anyOf ?? s.oneOf) return this.valid(this.branch(s.anyOf ?? s.oneOf, depth), depth + 1);
    if (s.allOf) return this.valid(s.allOf[0], depth + 1);
    switch (this.typeOf(s)) {
      case 'string':
        return this.string(s);
      case 'integer':
        return this.number(s, true);
      case 'number':
        return this.number(s, false);
      case 'boolean':
        return this.random.chance(0.5);
      case 'null':
        return null;
      case 'array':
        return this.array(s, depth);
      case 'object':
        return this.object(s, depth);
      default:
        return this.anyJson(depth);
    }
  }

  /** A value that breaks one rule of `schema` somewhere (or, rarely, none: check it). */
  invalid(schema: Json | boolean, depth = 0): unknown {
    if (typeof schema === 'boolean') return schema ? undefined : null;
    const s = this.resolve(schema);
    const type = this.typeOf(s);
    // Go inside a structure, or break a rule here.
    if (type === 'object' && Object.keys(s.properties ?? {}).length > 0 && depth < DEEP && this.random.chance(0.6)) {
      const names = Object.keys(s.properties);
      const base = this.object(s, depth) as Json;
      const name = this.random.pick(names);
      return { ...base, [name]: this.invalid(s.properties[name], depth + 1) };
    }
    if (type === 'array' && s.items && depth < DEEP && this.random.chance(0.5)) {
      const items = this.array({ ...s, minItems: Math.max(1, s.minItems ?? 0) }, depth) as unknown[];
      items[this.random.int(0, items.length - 1)] = this.invalid(s.items, depth + 1);
      return items;
    }
    if ((s.anyOf ?? s.oneOf) && this.random.chance(0.7)) return this.invalid(this.random.pick(s.anyOf ?? s.oneOf), depth + 1);
    return this.random.pick(this.breakers(s, type, depth))();
  }

  /** The ways to break `s` right here. */
  private breakers(s: Json, type: string | undefined, depth: number): Array<() => unknown> {
    const breakers: Array<() => unknown> = [() => this.otherType(type)];
    if ('const' in s) breakers.push(() => (typeof s.const === 'string' ? `${s.const}x` : 'not-the-constant'));
    if (s.enum) breakers.push(() => `not-${String(this.random.pick(s.enum))}`);
    if (type === 'string') {
      if ((s.minLength ?? 0) > 0) breakers.push(() => String(this.valid(s, depth)).slice(0, s.minLength - 1));
      if (s.maxLength !== undefined && s.maxLength < 100_000) breakers.push(() => 'x'.repeat(s.maxLength + 1));
      if (s.pattern || s.format) {
        for (const inject of [' ', '\u0000', '#', '/', '@', 'é', ':'])
          breakers.push(() => {
            const text = String(this.valid(s, depth));
            const at = this.random.int(0, text.length);
            return `${text.slice(0, at)}${inject}${text.slice(at)}`;
          });
        breakers.push(() => '');
      }
    }
    if (type === 'integer' || type === 'number') {
      if (s.minimum !== undefined) breakers.push(() => s.minimum - 1);
      if (s.maximum !== undefined) breakers.push(() => s.maximum + 1);
      if (type === 'integer') breakers.push(() => Number(this.valid(s, depth)) + 0.5);
    }
    if (type === 'array') {
      if ((s.minItems ?? 0) > 0) breakers.push(() => []);
      if (s.maxItems !== undefined && s.maxItems < 1000)
        breakers.push(() => Array.from({ length: s.maxItems + 1 }, () => this.valid(s.items ?? true, DEEP)));
    }
    if (type === 'object') {
      if (s.required?.length)
        breakers.push(() => {
          const value = this.object(s, depth) as Json;
          delete value[this.random.pick(s.required as string[])];
          return value;
        });
      if (s.additionalProperties === false) breakers.push(() => ({ ...(this.object(s, depth) as Json), unexpectedMember: 1 }));
      if (s.propertyNames)
        breakers.push(() => ({ [this.invalid(s.propertyNames, DEEP) as string]: this.valid(s.additionalProperties ?? true, DEEP) }));
    }
    return breakers;
  }

  private string(s: Json): string {
    const min = s.minLength ?? 0;
    const max = s.maxLength ?? Infinity;
    for (let attempt = 0; attempt < 8; attempt += 1) {
      const text = s.pattern ? sampleMatching(s.pattern, this.random) : (this.formatted(s.format) ?? this.text(min, max));
      const length = [...text].length;
      if (length >= min && length <= max) return text;
    }
    return this.text(min, max);
  }

  private formatted(format: string | undefined): string | undefined {
    switch (format) {
      case 'uri':
        return `${this.random.pick(['https', 'http'])}://${this.random.pick(['example.com', '127.0.0.1', 'localhost:8080', 'a.test'])}/${sampleMatching('[a-z0-9]{0,8}', this.random)}`;
      case 'email':
        return `${sampleMatching('[a-z]{1,8}', this.random)}@example.com`;
      case 'date-time':
        return new Date(Date.UTC(2025, this.random.int(0, 11), this.random.int(1, 28))).toISOString();
      default:
        return undefined;
    }
  }

  private text(min: number, max: number): string {
    const length = this.random.count(min, max);
    return sampleMatching(`[a-zA-Z0-9 ._é-]{${length}}`, this.random);
  }

  private number(s: Json, integer: boolean): number {
    const low = s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : -5);
    const high = s.maximum ?? (s.exclusiveMaximum !== undefined ? s.exclusiveMaximum - 1 : Math.max(low, 0) + 100);
    const roll = this.random.next();
    const value = roll < 0.15 ? low : roll < 0.3 ? high : low + Math.floor(this.random.next() * Math.min(high - low + 1, 1000));
    return integer || this.random.chance(0.5) ? value : Math.min(high, value + 0.25);
  }

  private array(s: Json, depth: number): unknown[] {
    const deep = depth >= DEEP;
    const min = s.minItems ?? 0;
    const length = deep ? min : this.random.count(min, Math.min(s.maxItems ?? 4, min + 4));
    return Array.from({ length }, () => this.valid(s.items ?? true, depth + 1));
  }

  private object(s: Json, depth: number): Json {
    const value: Json = {};
    const required = new Set<string>(s.required ?? []);
    for (const [name, property] of Object.entries<Json>(s.properties ?? {})) {
      if (required.has(name) || (depth < DEEP && this.random.chance(0.5))) value[name] = this.valid(property, depth + 1);
    }
    if (!s.properties && s.additionalProperties !== false && depth < DEEP) {
      const members = this.random.count(0, 3);
      for (let i = 0; i < members; i += 1) {
        const name = s.propertyNames ? String(this.valid(s.propertyNames, depth + 1)) : sampleMatching('[a-z]{1,8}', this.random);
        value[name] = this.valid(s.additionalProperties ?? true, depth + 1);
      }
    }
    return value;
  }

  /** A branch of a union; deep down, a branch that is not a structure when there is one. */
  private branch(options: Json[], depth: number): Json {
    if (depth < DEEP) return this.random.pick(options);
    const flat = options.filter((option) => !['object', 'array'].includes(this.typeOf(this.resolve(option)) ?? 'object'));
    return this.random.pick(flat.length ? flat : options);
  }

  private anyJson(depth: number): unknown {
    const kinds = depth < DEEP ? ['string', 'number', 'boolean', 'null', 'array', 'object'] : ['string', 'number', 'boolean', 'null'];
    switch (this.random.pick(kinds)) {
      case 'string':
        return this.text(0, 12);
      case 'number':
        return this.random.int(-10, 1000);
      case 'boolean':
        return this.random.chance(0.5);
      case 'null':
        return null;
      case 'array':
        return Array.from({ length: this.random.int(0, 3) }, () => this.anyJson(depth + 1));
      default:
        return Object.fromEntries(Array.from({ length: this.random.int(0, 3) }, (_, i) => [`k${i}`, this.anyJson(depth + 1)]));
    }
  }

  private otherType(type: string | undefined): unknown {
    const others: unknown[] = [42, 'text', true, null, [1], { a: 1 }, 1.5];
    const fits = (value: unknown) =>
      type === undefined
        ? false
        : type === 'integer'
          ? Number.isInteger(value)
          : type === 'number'
            ? typeof value === 'number'
            : type === 'array'
              ? Array.isArray(value)
              : type === 'object'
                ? typeof value === 'object' && value !== null && !Array.isArray(value)
                : type === 'null'
                  ? value === null
                  : typeof value === type;
    return this.random.pick(others.filter((value) => !fits(value)));
  }

  private typeOf(s: Json): string | undefined {
    if (Array.isArray(s.type)) return this.random.pick(s.type);
    if (s.type) return s.type;
    if (s.properties || s.additionalProperties !== undefined || s.propertyNames) return 'object';
    if (s.items || s.prefixItems) return 'array';
    if (s.pattern || s.minLength !== undefined || s.maxLength !== undefined || s.format) return 'string';
    return undefined;
  }

  private resolve(schema: Json): Json {
    let s = schema;
    while (s.$ref) {
      const name = String(s.$ref).split('/').pop()!;
      const { $ref: _, ...rest } = s;
      s = { ...this.schemas[name], ...rest };
    }
    return s;
  }
}
