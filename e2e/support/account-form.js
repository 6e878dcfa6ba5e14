/** The register form as the browser walks fill it (issue 42: run.js and two-factor.e2e.js each had a copy). */
'use strict';

/** Opens /register-user with `go(path)`, fills the form for `email` and `password` and sends it. */
async function registerInForm(page, go, email, password) {
  await go('/register-user');
  const form = page.getByRole('form', { name: 'Register' });
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Password', { exact: true }).fill(password);
  await form.getByLabel('Repeat password').fill(password);
  await form.getByRole('button', { name: 'Register' }).click();
}

module.exports = { registerInForm };
