/**
 * Browser steps of issue 31's personal access tokens, called from e2e/run.js once the user is signed in
 * (not against the stub server): My account → Access tokens → New token (name, Trade scope, 90 days); the
 * token is shown once; a script (Node's fetch, no cookie, no CSRF header) reads the user's bots with it;
 * Revoke (asked first) and the script is refused. Screenshots at 1280 and 375 px.
 */
'use strict';

async function tokenSteps({ page, step, shot, T, base, password }) {
  const url = (p) => new URL(p, base).toString();
  let token = null;
  await step('My account: a new access token is shown once; a script reads the bots with it, no cookie (issue 31)', async () => {
    await page.goto(url('/myaccount'), { waitUntil: 'domcontentloaded' });
    const section = page.locator('section', { has: page.getByRole('heading', { name: 'Access tokens' }) });
    await section.waitFor({ timeout: T });
    await section.getByText('No access tokens yet.').waitFor({ timeout: T });
    await section.getByRole('button', { name: 'New token' }).click();
    const form = page.getByRole('form', { name: 'New access token' });
    await form.getByLabel('Name').fill('e2e script');
    await form.getByRole('checkbox', { name: /Trade/ }).check();
    await form.getByLabel('Expires after').selectOption('90');
    await section.scrollIntoViewIfNeeded();
    await shot('myaccount-token-form');
    await form.getByRole('button', { name: 'Create token' }).click();
    const made = page.getByRole('group', { name: 'Your new token' });
    // issue 38: past RECENT_SIGN_IN_SECONDS (5 minutes) after the sign-in, a token needs the current password
    const asked = page.getByRole('dialog', { name: 'Confirm with your password' });
    await made.or(asked).first().waitFor({ timeout: T });
    if (await asked.isVisible()) {
      await shot('myaccount-token-password');
      await asked.getByLabel('Current password').fill(password);
      await asked.getByRole('button', { name: 'Confirm' }).click();
    }
    await made.waitFor({ timeout: T });
    token = ((await made.getByLabel('New token').textContent()) || '').trim();
    if (!/^grt_[A-Za-z0-9_-]{43}$/.test(token)) throw new Error(`the page shows "${token}" as the token`);
    await section.getByRole('listitem', { name: 'e2e script' }).waitFor({ timeout: T });
    await shot('myaccount-token-made');
    const res = await fetch(url('/api/bots'), { headers: { authorization: `Bearer ${token}` } });
    if (res.status !== 200) throw new Error(`GET /api/bots with the token: ${res.status} ${await res.text()}`);
    await made.getByRole('button', { name: 'I have copied it' }).click();
    if ((await page.content()).includes(token)) throw new Error('the token is still on the page after "I have copied it"');
    // the use shows in the list after a reload
    await page.reload({ waitUntil: 'domcontentloaded' });
    await section.getByRole('listitem', { name: 'e2e script' }).getByText(/^Last used /).waitFor({ timeout: T });
    await section.scrollIntoViewIfNeeded();
    await shot('myaccount-tokens');
  });

  await step('Revoke asks first, then the script is refused with 401 (issue 31)', async () => {
    if (!token) throw new Error('no token from the previous step');
    const section = page.locator('section', { has: page.getByRole('heading', { name: 'Access tokens' }) });
    await section.getByRole('button', { name: 'Revoke e2e script' }).click();
    const dialog = page.getByRole('alertdialog');
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Yes' }).click();
    await section.getByRole('listitem', { name: 'e2e script' }).waitFor({ state: 'detached', timeout: T });
    const res = await fetch(url('/api/bots'), { headers: { authorization: `Bearer ${token}` } });
    if (res.status !== 401) throw new Error(`GET /api/bots with the revoked token: ${res.status}`);
  });
}

module.exports = { tokenSteps };
