import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';

type Json = Record<string, any>;

/**
 * Checks real bodies against an OpenAPI document's schemas with Ajv (draft 2020-12). `closed`
 * checks answers strictly: every object the document describes must list every field the wire
 * sent, so an undocumented field fails as surely as a missing one.
 */
export class OpenApiCheck {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(readonly document: Json) {
    (ajvFormats as unknown as (ajv: Ajv2020) => void)(this.ajv);
  }

  /** The problems with `body` as the request body of `method path` (a document path, `{id}`-style); [] when it fits. */
  request(method: string, path: string, body: unknown): string[] {
    const schema = this.operation(method, path).requestBody?.content?.['application/json']?.schema;
    if (!schema) throw new Error(`${method} ${path} declares no JSON request body`);
    return this.validate(schema, body, false);
  }

  /** The problems with `body` as the JSON answer `status` of `method path`; [] when it fits. */
  response(method: string, path: string, status: number, body: unknown): string[] {
    let answer = this.operation(method, path).responses?.[String(status)];
    if (!answer) return [`${method} ${path} declares no ${status} answer`];
    if (answer.$ref) answer = this.resolve(answer.$ref);
    const schema = answer.content?.['application/json']?.schema;
    if (!schema) return [`${method} ${path} declares no JSON body for ${status}`];
    return this.validate(schema, body, true);
  }

  /** The problems with `value` by `schema` (one of the document's, its references resolved there); [] when it fits. */
  problems(schema: Json, value: unknown, closed = true): string[] {
    return this.validate(schema, value, closed);
  }

  private operation(method: string, path: string): Json {
    const operation = this.document.paths?.[path]?.[method.toLowerCase()];
    if (!operation) throw new Error(`The document has no ${method} ${path}`);
    return operation;
  }

  private resolve(ref: string): Json {
    return ref
      .slice(2)
      .split('/')
      .reduce((node: Json, part) => node[part.replace(/~1/g, '/').replace(/~0/g, '~')], this.document);
  }

  private validate(schema: Json, body: unknown, closed: boolean): string[] {
    const key = `${closed}:${JSON.stringify(schema)}`;
    let validate = this.compiled.get(key);
    if (!validate) {
      const schemas = closed ? closeObjects(this.document.components.schemas) : this.document.components.schemas;
      validate = this.ajv.compile({ ...(closed ? closeObjects(schema) : schema), components: { schemas } });
      this.compiled.set(key, validate);
    }
    return validate(body)
      ? []
      : (validate.errors ?? []).map((e: ErrorObject) => `${e.instancePath || '(body)'} ${e.message} ${JSON.stringify(e.params)}`);
  }
}

/** Every object schema that lists its properties and says nothing of others now refuses others. */
function closeObjects(node: unknown): any {
  if (Array.isArray(node)) return node.map(closeObjects);
  if (typeof node !== 'object' || node === null) return node;
  const closed: Json = Object.fromEntries(
    Object.entries(node).map(([key, value]) => [key, key === 'properties' ? mapValues(value as Json, closeObjects) : closeObjects(value)]),
  );
  if (closed.properties && !('additionalProperties' in closed)) closed.additionalProperties = false;
  return closed;
}

function mapValues(object: Json, map: (value: unknown) => unknown): Json {
  return Object.fromEntries(Object.entries(object).map(([key, value]) => [key, map(value)]));
}
