import type { Page } from 'playwright-core';

/**
 * The console errors Entrar causes on purpose with AUTH_MODE=jwt: it opens the restaurant
 * without a token first (GET /tenant and /me), and their 401 says the service asks who is
 * there. Chromium logs every error answer.
 */
export const SIGN_IN_PROBE = /status of 401.*\/api\/v1\/(tenant|me)\b/;

/** Entrar's first step: the restaurant; with AUTH_MODE=jwt the PIN pad follows. */
export async function enterRestaurant(page: Page, tenant: string): Promise<void> {
  await page.goto('/');
  await page.getByLabel('Restaurante').fill(tenant);
  await page.getByRole('button', { name: 'Entrar' }).click();
  await pinPad(page).waitFor();
}

/** The PIN pad on the page (Entrar's, or the one of "Cambiar de usuario"). */
export function pinPad(page: Page) {
  return page.getByRole('group', { name: 'Tu PIN' });
}

/** Types a PIN on the pad, a touch per digit, and presses OK. */
export async function typePin(page: Page, pin: string): Promise<void> {
  const pad = pinPad(page);
  for (const digit of pin) await pad.getByRole('button', { name: digit, exact: true }).click();
  await pad.getByRole('button', { name: 'OK' }).click();
}

/** Signs in as the owner of `pin` and waits for the screens. */
export async function signInWithPin(page: Page, tenant: string, pin: string): Promise<void> {
  await enterRestaurant(page, tenant);
  await typePin(page, pin);
  await page.getByRole('navigation', { name: 'Pantallas' }).waitFor();
}
