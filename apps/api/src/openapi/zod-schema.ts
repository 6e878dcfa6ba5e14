import type { ZodTypeAny } from 'zod';
import { documentedSchemaOf } from '@gridrocket/shared';

/** An OpenAPI 3.0 schema object (JSON Schema subset), as the document carries it. */
export type SchemaObject = Record<string, unknown>;

/**
 * The JSON Schema (OpenAPI 3.0 dialect) of a zod 3 schema: the same schema objects the routes parse
 * with, so the document cannot drift from what the server accepts. zod 3 has no converter of its own
 * (zod 4's z.toJSONSchema reads zod 4 schemas only) and none is installed (zod-to-json-schema would
 * be the maintained one); this reads the few kinds the rules use. A preprocess documents its inner
 * schema's type; a rule whose input is not that (numbers sent as numbers or text) names its canonical
 * JSON type with `documentedAs` (libs/shared), which wins. What cannot be said in JSON Schema
 * (refinements such as "a take-profit covering the fees", transforms) stays with the server: the
 * document describes the canonical input, and a 400 with field messages answers the rest.
 */
export function zodToSchema(schema: ZodTypeAny): SchemaObject {
  const documented = documentedSchemaOf(schema); // the rule named its canonical JSON type (documentedAs)
  if (documented) return { ...documented };
  const def = (schema as unknown as { _def: Record<string, any> })._def;
  const description = (schema as unknown as { description?: string }).description;
  const out = convert(def);
  return description ? { ...out, description } : out;
}

function convert(def: Record<string, any>): SchemaObject {
  switch (def.typeName) {
    case 'ZodString': {
      const s: SchemaObject = { type: 'string' };
      for (const c of def.checks ?? []) {
        if (c.kind === 'min') s.minLength = Math.max(Number(s.minLength ?? 0), c.value);
        else if (c.kind === 'max') s.maxLength = Math.min(Number(s.maxLength ?? Infinity), c.value);
        else if (c.kind === 'length') s.minLength = s.maxLength = c.value;
        else if (c.kind === 'email') s.format = 'email';
        else if (c.kind === 'uuid') s.format = 'uuid';
        else if (c.kind === 'url') s.format = 'uri';
        else if (c.kind === 'regex') s.pattern = (c.regex as RegExp).source;
      }
      return s;
    }
    case 'ZodNumber': {
      const s: SchemaObject = { type: 'number' };
      for (const c of def.checks ?? []) {
        if (c.kind === 'int') s.type = 'integer';
        else if (c.kind === 'min') {
          s.minimum = c.value;
          if (!c.inclusive) s.exclusiveMinimum = true;
        } else if (c.kind === 'max') {
          s.maximum = c.value;
          if (!c.inclusive) s.exclusiveMaximum = true;
        }
      }
      return s;
    }
    case 'ZodBoolean':
      return { type: 'boolean' };
    case 'ZodEnum':
      return { type: 'string', enum: [...def.values] };
    case 'ZodLiteral':
      return { type: typeof def.value, enum: [def.value] };
    case 'ZodObject': {
      const shape = def.shape() as Record<string, ZodTypeAny>;
      const properties: Record<string, SchemaObject> = {};
      const required: string[] = [];
      for (const [key, value] of Object.entries(shape)) {
        properties[key] = zodToSchema(value);
        if (!value.isOptional()) required.push(key);
      }
      return { type: 'object', properties, ...(required.length ? { required } : {}) };
    }
    case 'ZodArray':
      return { type: 'array', items: zodToSchema(def.type) };
    case 'ZodRecord':
      return { type: 'object', additionalProperties: zodToSchema(def.valueType) };
    case 'ZodUnion':
      return { anyOf: (def.options as ZodTypeAny[]).map(zodToSchema) };
    case 'ZodOptional':
    case 'ZodDefault':
    case 'ZodCatch':
    case 'ZodReadonly':
    case 'ZodBranded':
      return zodToSchema(def.innerType ?? def.type);
    case 'ZodNullable':
      return { ...zodToSchema(def.innerType), nullable: true };
    case 'ZodEffects':
      // preprocess / refine / transform: the input is the inner schema's
      return zodToSchema(def.schema);
    case 'ZodPipeline': {
      // `a.pipe(b)`: what passes both; b's bounds are the tighter ones (the same type)
      const a = zodToSchema(def.in);
      const b = zodToSchema(def.out);
      return a.type === b.type ? { ...a, ...b } : b;
    }
    case 'ZodAny':
    case 'ZodUnknown':
      return {};
    default:
      throw new Error(`zodToSchema: no conversion for ${String(def.typeName)}`);
  }
}
