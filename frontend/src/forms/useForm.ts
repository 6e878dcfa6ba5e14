import { useCallback, useMemo, useState, type FormEvent } from 'react';
import { hasErrors, validate, type Validator } from './validation';

/**
 * Spec section 4: each form has a submitted flag; errors show only after a submit attempt; an
 * invalid form is not submitted.
 */
export function useForm<K extends string>(initial: Record<K, string>, rules: Partial<Record<K, Validator[]>>) {
  const [values, setValues] = useState<Record<K, string>>(initial);
  const [submitted, setSubmitted] = useState(false);
  const errors = useMemo(
    () => validate(values as Record<string, string>, rules as Record<string, Validator[]>) as Record<K, string | null>,
    [values, rules],
  );
  const invalid = hasErrors(errors);
  const set = useCallback((field: K, value: string) => setValues((v) => ({ ...v, [field]: value })), []);
  const reset = useCallback((next?: Record<K, string>) => {
    setValues(next ?? initial);
    setSubmitted(false);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  const handleSubmit = (fn: (values: Record<K, string>) => void | Promise<void>) => (e?: FormEvent) => {
    e?.preventDefault();
    setSubmitted(true);
    if (invalid) return;
    return fn(values);
  };
  const shown = (field: K): string | null => (submitted ? errors[field] : null);
  /** What a <Field> of `field` takes from the form: its value, its setter and its shown error. */
  const bind = (field: K) => ({ value: values[field], onValue: (v: string) => set(field, v), error: shown(field) });
  return { values, set, errors, invalid, submitted, setSubmitted, handleSubmit, shown, bind, reset, setValues };
}
