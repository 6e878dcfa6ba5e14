/**
 * Forms that say why (issue 40, point 7): a disabled Save names each field that is missing or wrong, so
 * a trader never faces a grey button alone (the neutral form waited for a "Take profit" its hint said it
 * did not use). Each form lists its problems in its own field order; this puts them in words.
 */

/** One problem of a form: the field's label as the form shows it, and its message (the server's, in the form's words). */
export interface FormProblem {
  label: string;
  message: string;
}

/** A message the form shows under a field, named by the field when it does not start with it already. */
export function named({ label, message }: FormProblem): string {
  return message.toLowerCase().startsWith(label.toLowerCase()) ? message : `${label}: ${message}`;
}

const isRequired = (p: FormProblem) => /\bis required\.?$/.test(p.message);

/**
 * The lines of a disabled Save: the fields still empty in one line ("Fill in: Exchange, Pair, Take
 * profit"), then one line for each wrong one ("Order size must be a multiple of 0.00001 …"), each once.
 */
export function saveReasons(problems: readonly FormProblem[]): string[] {
  const seen = new Set<string>();
  const missing: string[] = [];
  const wrong: string[] = [];
  for (const p of problems) {
    const line = isRequired(p) ? p.label : named(p);
    if (seen.has(line)) continue;
    seen.add(line);
    (isRequired(p) ? missing : wrong).push(line);
  }
  return [...(missing.length ? [`Fill in: ${missing.join(', ')}`] : []), ...wrong];
}
