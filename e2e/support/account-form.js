/** The account forms as the browser walks fill them (issue 42: run.js, proxy, two-factor, keys and sessions each had copies). */
'use strict';

/** Opens /register-user with `go(path)`, fills the form for `email` and `password` and sends it; returns what `go` answered (the page's response). */
async function registerInForm(page, go, email, password) {
  const opened = await go('/register-user');
  const form = page.getByRole('form', { name: 'Register' });
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Password', { exact: true }).fill(password);
  await form.getByLabel('Repeat password').fill(password);
  await form.getByRole('button', { name: 'Register' }).click();
  return opened;
}

/** Fills the sign-in page's Login form (already open in `page`) with `email` and `password` and sends it. */
async function signInInForm(page, email, password) {
  const form = page.getByRole('form', { name: 'Login' });
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Password').fill(password);
  await form.getByRole('button', { name: 'Login' }).click();
}

/**
 * On the Security page (already open), opens "Add API Keys", chooses `exchange`, fills `apiKey` and `secret`
 * and saves; returns the dialog, for what the caller checks next (the toast, a refusal, a code prompt).
 */
async function addKeyInForm(page, { exchange = 'Binance', apiKey, secret }) {
  await page.getByRole('button', { name: 'Add API Keys' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add api keys' });
  await dialog.waitFor();
  await dialog.getByLabel('Exchange').selectOption(exchange);
  await dialog.getByLabel('API Key', { exact: true }).fill(apiKey);
  await dialog.getByLabel('Secret Key', { exact: true }).fill(secret);
  await dialog.getByRole('button', { name: 'Save' }).click();
  return dialog;
}

module.exports = { registerInForm, signInInForm, addKeyInForm };
