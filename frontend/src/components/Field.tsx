import { useId, type InputHTMLAttributes, type ReactNode } from 'react';

interface FieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange' | 'value'> {
  label: string;
  value: string;
  onValue: (v: string) => void;
  error?: string | null;
  hint?: ReactNode;
  /** A unit shown inside the input's right edge, e.g. '%' (the hint says it in words). */
  unit?: string;
}

/** A labelled input whose error is announced and tied to it (aria-describedby). */
/** A number typed in a form field: the decimal keyboard, no autocomplete, no spell check (every bot-form field). */
export const NUMERIC_INPUT = { inputMode: 'decimal' as const, autoComplete: 'off', spellCheck: false };

/**
 * A form's binder of its fields: `bind('spacing')` gives the field its name, value, setter and shown error,
 * the wiring every field of a form repeats.
 */
export function fieldBinder<K extends string>(values: Record<K, string>, set: (k: K, v: string) => void, error: (k: K) => string | null | undefined) {
  return (k: K) => ({ name: k, value: values[k], onValue: (v: string) => set(k, v), error: error(k) ?? null });
}

export function Field({ label, value, onValue, error, hint, unit, id, className, ...rest }: FieldProps) {
  const auto = useId();
  const inputId = id ?? auto;
  const errId = `${inputId}-err`;
  const hintId = `${inputId}-hint`;
  const described = [error ? errId : null, hint ? hintId : null].filter(Boolean).join(' ') || undefined;
  const input = (
    <input
      id={inputId}
      value={value}
      onChange={(e) => onValue(e.target.value)}
      aria-invalid={error ? true : undefined}
      aria-describedby={described}
      {...rest}
    />
  );
  return (
    <div className={`field${error ? ' field--invalid' : ''}${className ? ` ${className}` : ''}`}>
      <label htmlFor={inputId}>{label}</label>
      {unit ? (
        <span className="field__with-unit">
          {input}
          <span className="field__unit" aria-hidden="true">
            {unit}
          </span>
        </span>
      ) : (
        input
      )}
      {hint ? (
        <small id={hintId} className="field__hint">
          {hint}
        </small>
      ) : null}
      {error ? (
        <small id={errId} className="field__error" role="alert">
          {error}
        </small>
      ) : null}
    </div>
  );
}

interface SelectProps {
  label: string;
  value: string;
  onValue: (v: string) => void;
  options: Array<{ value: string; label: string }>;
  placeholder?: string;
  error?: string | null;
  disabled?: boolean;
  id?: string;
  name?: string;
}

export function SelectField({ label, value, onValue, options, placeholder, error, disabled, id, name }: SelectProps) {
  const auto = useId();
  const selectId = id ?? auto;
  return (
    <div className={`field${error ? ' field--invalid' : ''}`}>
      <label htmlFor={selectId}>{label}</label>
      <select
        id={selectId}
        name={name}
        value={value}
        disabled={disabled}
        onChange={(e) => onValue(e.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${selectId}-err` : undefined}
      >
        {placeholder !== undefined ? (
          <option value="" disabled>
            {placeholder}
          </option>
        ) : null}
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      {error ? (
        <small id={`${selectId}-err`} className="field__error" role="alert">
          {error}
        </small>
      ) : null}
    </div>
  );
}
