/**
 * Browser steps of issue 30's two-factor sign-in. Called from e2e/walk-bots.e2e.js (the second half of the main walk), or
 * run alone: `node e2e/two-factor.e2e.js` (after `npm run build`; it starts the built server as run.js does).
 *
 * A new account turns 2FA on from the account page (the setup key read off the page, codes computed from
 * it with the server's own RFC 6238 module in dist/), saves its recovery codes, adds a key (the code
 * prompt), signs out, signs in with password + code, with a recovery code (remembering this browser),
 * sees that recovery code refused in another browser, and signs in from the remembered browser without
 * a code. Screenshots at 1280 and 375 px go to e2e/artifacts/2fa-*.png.
 */
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { WIDE, NARROW } = require('./layout');
const { ROOT, ARTIFACTS, T, launchBrowser, log, startServer, steps } = require('./support/harness');
const { registerInForm, signInInForm, addKeyInForm } = require('./support/account-form');

/** The server's own TOTP (RFC 6238) module, as built. */
function totpModule() {
  const file = path.join(ROOT, 'dist/libs/identity/src/two-factor/totp.js');
  if (!fs.existsSync(file)) throw new Error(`${file} is missing: run \`npm run build:server\` first`);
  return require(file);
}

/** An authenticator app for one secret: the next code it may use (a used time step is refused by the server). */
function authenticator(secret) {
  const { base32Decode, hotp, totpStep } = totpModule();
  const key = base32Decode(secret);
  let last = -1;
  return {
    async code() {
      for (;;) {
        const now = totpStep(Date.now());
        const target = Math.max(last + 1, now);
        if (target <= now + 1) {
          last = target;
          return hotp(key, target);
        }
        await new Promise((r) => setTimeout(r, 1000));
      }
    },
  };
}

async function twoFactorSteps({ base, step, T, launch }) {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  const browser = await launch();
  const email = `e2e-2fa-${Date.now()}@example.com`;
  const password = 'Launch-2025-pad';
  let app = null;
  let recovery = [];
  try {
    const mine = await browser.newContext({ viewport: WIDE });
    mine.setDefaultTimeout(T);
    const page = await mine.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    const go = (p) => page.goto(base + p, { waitUntil: 'domcontentloaded' });
    const atPath = (p, on = page) => on.waitForURL((u) => new URL(u).pathname === p, { timeout: T });
    const overflow = [];
    const shot = async (name, on = page) => {
      // the toasts of earlier steps would cover the section, as a user would dismiss them
      const toasts = on.getByRole('button', { name: 'Dismiss notification' });
      for (let i = 0; i < 10 && (await toasts.count()) > 0; i++) await toasts.first().click({ timeout: 2000 }).catch(() => undefined);
      await on.mouse.move(0, 0);
      // a full-page picture of a scrolled page draws the sticky navbar mid-page
      await on.evaluate(() => window.scrollTo(0, 0));
      await on.waitForTimeout(150);
      await on.screenshot({ path: path.join(ARTIFACTS, `2fa-${name}-1280.png`), fullPage: true });
      await on.setViewportSize(NARROW);
      await on.waitForTimeout(250);
      const o = await on.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      if (o > 1) overflow.push(`${name}: ${o} px`);
      await on.screenshot({ path: path.join(ARTIFACTS, `2fa-${name}-375.png`), fullPage: true });
      await on.setViewportSize(WIDE);
      await on.waitForTimeout(100);
    };
    const signIn = async (on) => {
      await on.goto(base + '/sign-in', { waitUntil: 'domcontentloaded' });
      await signInInForm(on, email, password);
    };
    const logout = async () => {
      await page.getByRole('button', { name: 'Logout' }).click();
      await atPath('/home');
    };

    const registered = await step('2FA: register a new account', async () => {
      await registerInForm(page, go, email, password);
      await atPath('/myaccount');
    });
    if (!registered) return;

    const on = await step('2FA: turn it on from the account page: setup key, confirming code, ten recovery codes shown once', async () => {
      const section = page.getByRole('region', { name: 'Two-factor sign-in' });
      await section.getByText('Off', { exact: true }).waitFor();
      await section.getByRole('button', { name: 'Turn on two-factor sign-in' }).click();
      const secret = ((await section.locator('#tfa-secret').textContent()) || '').replace(/\s/g, '');
      if (!/^[A-Z2-7]{32}$/.test(secret)) throw new Error(`the setup key on the page is ${secret}`);
      const href = await section.getByRole('link', { name: 'open it in your authenticator app' }).getAttribute('href');
      if (!href || !href.startsWith('otpauth://totp/GridRocket:') || !href.includes(`secret=${secret}`)) throw new Error(`the authenticator link is ${href}`);
      await section.scrollIntoViewIfNeeded();
      await shot('setup');
      app = authenticator(secret);
      // a wrong code first: refused on the field
      await section.getByLabel('Enter the 6-digit code the app shows').fill('000000');
      await section.getByRole('button', { name: 'Confirm and turn on' }).click();
      await section.getByText(/That code is not right/).waitFor();
      await section.getByLabel('Enter the 6-digit code the app shows').fill(await app.code());
      await section.getByRole('button', { name: 'Confirm and turn on' }).click();
      const list = section.locator('#tfa-codes li');
      await list.first().waitFor();
      recovery = (await list.allTextContents()).map((s) => s.trim());
      if (recovery.length !== 10 || !recovery.every((c) => /^[a-z2-7]{4}(-[a-z2-7]{4}){3}$/.test(c))) throw new Error(`recovery codes: ${recovery.join(', ')}`);
      await section.getByRole('button', { name: 'Download' }).waitFor();
      await shot('recovery-codes');
      await section.getByRole('button', { name: 'I have saved them' }).click();
      await section.getByText('On', { exact: true }).waitFor();
      await section.getByText('10 recovery codes left.').waitFor();
      // shown once: a reload does not show them again
      await page.reload({ waitUntil: 'domcontentloaded' });
      await section.getByText('10 recovery codes left.').waitFor();
      if (await section.locator('#tfa-codes').count()) throw new Error('the recovery codes are shown again after a reload');
      await shot('on');
    });
    if (!on) return;

    await step('2FA: adding an exchange key asks for a fresh code', async () => {
      await go('/security');
      await addKeyInForm(page, { apiKey: 'e2e-2fa-binance-key-01', secret: 'e2e-2fa-binance-secret-0123456789' });
      const prompt = page.getByRole('dialog', { name: 'Confirm with your code' });
      await prompt.getByText('Two-factor sign-in is on: enter a current code from your authenticator app to confirm this').waitFor();
      await shot('code-prompt');
      await prompt.getByLabel('6-digit code').fill(await app.code());
      await prompt.getByRole('button', { name: 'Confirm' }).click();
      await page.locator('.toast').filter({ hasText: 'API Key successfully added!' }).first().waitFor();
      await page.locator('table td', { hasText: 'e2e-2fa-binance-key-01' }).first().waitFor();
    });

    await step('2FA: sign out, sign in with password + code', async () => {
      await logout();
      await signIn(page);
      await page.waitForURL((u) => new URL(u).pathname === '/sign-in' && new URL(u).searchParams.get('step') === 'code');
      await page.getByRole('heading', { name: 'Two-factor sign-in' }).waitFor();
      // the half-session opens nothing: the guarded pages still send to sign-in
      const me = await page.evaluate(async () => (await fetch('/api/auth/me', { credentials: 'include' })).status);
      if (me !== 401) throw new Error(`during the code step /api/auth/me answered ${me}`);
      await page.getByLabel('6-digit code').fill('123456');
      await page.getByRole('button', { name: 'Verify' }).click();
      await page.getByText(/That code is not right/).waitFor();
      await shot('code-step');
      await page.getByLabel('6-digit code').fill(await app.code());
      await page.getByRole('button', { name: 'Verify' }).click();
      await atPath('/bots');
    });

    await step('2FA: sign in with a recovery code, remembering this browser', async () => {
      await logout();
      await signIn(page);
      await page.getByRole('heading', { name: 'Two-factor sign-in' }).waitFor();
      await page.getByRole('button', { name: 'Use a recovery code' }).click();
      await page.getByLabel('Recovery code').fill(recovery[0]);
      await page.getByLabel('Remember this browser for 30 days').check();
      await shot('recovery-step');
      await page.getByRole('button', { name: 'Verify' }).click();
      await atPath('/bots');
      await go('/myaccount');
      await page.getByText('9 recovery codes left.').waitFor();
    });

    await step('2FA: the used recovery code no longer works (another browser)', async () => {
      const other = await browser.newContext({ viewport: WIDE });
      other.setDefaultTimeout(T);
      const p2 = await other.newPage();
      try {
        await signIn(p2);
        await p2.getByRole('heading', { name: 'Two-factor sign-in' }).waitFor();
        await p2.getByRole('button', { name: 'Use a recovery code' }).click();
        await p2.getByLabel('Recovery code').fill(recovery[0]);
        await p2.getByRole('button', { name: 'Verify' }).click();
        await p2.getByText('That recovery code is not right or was already used').waitFor();
        await shot('recovery-used', p2);
        if (new URL(p2.url()).pathname !== '/sign-in') throw new Error(`after a used recovery code the browser is at ${p2.url()}`);
      } finally {
        await other.close();
      }
    });

    await step('2FA: the remembered browser signs in without a code', async () => {
      await logout();
      await signIn(page);
      await atPath('/bots');
      const me = await page.evaluate(async () => (await fetch('/api/auth/me', { credentials: 'include' })).status);
      if (me !== 200) throw new Error(`signed in from the remembered browser, /api/auth/me answered ${me}`);
    });

    await step('2FA: no page errors, no horizontal overflow at 375 px', async () => {
      if (errors.length) throw new Error(errors.slice(0, 3).join('\n'));
      if (overflow.length) throw new Error(overflow.join(', '));
    });
  } finally {
    await browser.close().catch(() => undefined);
  }
}

module.exports = { twoFactorSteps, launchBrowser };

/** Alone: the built server in a fresh data folder, these steps, `N passed, M failed`. */
if (require.main === module) {
  const os = require('node:os');
  const { step, fail, report } = steps({ lines: 6 });
  (async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gridrocket-e2e-2fa-'));
    let server = null;
    try {
      server = await startServer(dataDir, { logName: '2fa-server.log', env: { NODE_ENV: process.env.NODE_ENV || 'production' } });
      log(`GridRocket e2e: two-factor sign-in (${server.url})`);
      await twoFactorSteps({ base: server.url, step, T, launch: launchBrowser });
    } catch (e) {
      fail(null, e);
    } finally {
      if (server) await server.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
    process.exit(report() ? 0 : 1);
  })();
}
