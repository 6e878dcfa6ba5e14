/**
 * How the API contract (apps/api/src/openapi) describes a validation schema whose accepted input cannot
 * be read from the schema itself: a zod `preprocess`/`transform` that takes several JSON types (the bot
 * form's numbers arrive as JSON numbers or as query-string text). The rule stays the one place that
 * says what is accepted; this only names its canonical JSON type for clients. Pure: a WeakMap.
 */
const documented = new WeakMap<object, Record<string, unknown>>();

export function documentedAs<T extends object>(schema: T, jsonSchema: Record<string, unknown>): T {
  documented.set(schema, jsonSchema);
  return schema;
}

export function documentedSchemaOf(schema: object): Record<string, unknown> | undefined {
  return documented.get(schema);
}
