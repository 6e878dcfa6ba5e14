/** Field rules and the spec's messages (section 5), word for word where the spec gives them. */
export type Validator = (value: string, all: Record<string, string>) => string | null;

export const required = (msg: string): Validator => (v) => (v.trim() === '' ? msg : null);
export const minLength = (n: number, msg: string): Validator => (v) => (v.trim() !== '' && v.trim().length < n ? msg : null);
export const maxLength = (n: number, msg: string): Validator => (v) => (v.trim().length > n ? msg : null);
export const emailFormat: Validator = (v) =>
  v.trim().length >= 5 && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v.trim()) ? 'Please enter a valid email address' : null;

export const emailRules: Validator[] = [
  required('Email is required'),
  minLength(5, 'Email must be at least 5 characters'),
  maxLength(50, 'Email must be at most 50 characters'),
  emailFormat,
];

export const passwordRules: Validator[] = [
  required('Password is required'),
  minLength(8, 'Password must be at least 8 characters'),
  maxLength(30, 'Password must be at most 30 characters'),
];

export const passwordsMatch = (other: string): Validator => (v, all) =>
  v !== '' && all[other] !== undefined && v !== all[other] ? 'Passwords must match' : null;

export const apiKeyRules = {
  exchange: [
    required('Exchange is required'),
    minLength(2, 'Exchange must be at least 2 characters'),
    maxLength(20, 'Exchange must be at most 20 characters'),
  ],
  apiKey: [
    required('API Key is required'),
    minLength(5, 'API key must be at least 5 characters'),
    maxLength(100, 'API key must be at most 100 characters'),
  ],
  secretKey: [
    required('Secret Key is required'),
    minLength(12, 'Secret Key number must be at least 12 characters'),
    maxLength(100, 'Secret Key must be at most 100 characters'),
  ],
  passphrase: [
    minLength(4, 'Passphrase must be at least 4 characters'),
    maxLength(40, 'Passphrase must be at most 40 characters'),
  ],
};

/** Bot forms: every field required, with the spec's lengths; the numbers must be numbers above 0. */
const positiveNumber: Validator = (v) => {
  const t = v.trim();
  if (t === '') return null;
  return /^\d*\.?\d+$|^\d+\.$/.test(t) && Number(t) > 0 ? null : 'Must be a number greater than 0';
};
const wholeNumber: Validator = (v) => (v.trim() !== '' && !/^\d+$/.test(v.trim()) ? 'Must be a whole number' : null);
const lengths = (label: string, min: number, max: number): Validator[] => [
  required(`${label} is required`),
  minLength(min, `${label} must be at least ${min} character${min === 1 ? '' : 's'}`),
  maxLength(max, `${label} must be at most ${max} characters`),
];

export const botRules: Record<string, Validator[]> = {
  exchange: lengths('Exchange', 2, 20),
  symbol: lengths('Pair', 6, 10),
  entryPrice: [...lengths('Entry Price', 1, 10), positiveNumber],
  numOfOrders: [...lengths('Grid size', 1, 2), wholeNumber, positiveNumber],
  orderSize: [...lengths('Order size', 1, 4), positiveNumber],
  interval: [...lengths('Price interval', 1, 10), positiveNumber],
  takeProfit: [...lengths('Take profit', 1, 10), positiveNumber],
};

export function validate(
  values: Record<string, string>,
  rules: Record<string, Validator[]>,
): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  for (const [field, list] of Object.entries(rules)) {
    out[field] = null;
    for (const rule of list) {
      const msg = rule(values[field] ?? '', values);
      if (msg) {
        out[field] = msg;
        break;
      }
    }
  }
  return out;
}

export const hasErrors = (errors: Record<string, string | null>) => Object.values(errors).some(Boolean);
