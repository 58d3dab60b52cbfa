// A real headless Chromium for end-to-end tests and measurements, with no browser download:
// @sparticuz/chromium ships the binary inside its npm tarball, playwright-core drives it.
import sparticuz from '@sparticuz/chromium';
import { type Browser, chromium } from 'playwright-core';

/** Flags of @sparticuz/chromium that would weaken what the tests check (same-origin rules, CSP), or end
 * the whole browser when one context closes (--single-process). */
const UNWANTED_FLAGS = ['--disable-web-security', '--allow-running-insecure-content', '--single-process'];
/** Keep Chromium quiet on a machine without internet (ENVIRONMENT.md). */
const QUIET_FLAGS = ['--disable-background-networking', '--disable-component-update', '--no-first-run'];

export async function launchChromium(): Promise<Browser> {
  const executablePath = await sparticuz.executablePath();
  const args = [...sparticuz.args.filter((flag) => !UNWANTED_FLAGS.includes(flag)), ...QUIET_FLAGS];
  return chromium.launch({ executablePath, args, headless: true, timeout: 60_000 });
}
