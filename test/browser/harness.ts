import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { CHROMIUM } from '../../scripts/ensure-chromium.js';
import { serverEnvironment, startServer, type RunningServer } from '../helpers/server.js';

export const API = '/2025-10-13';
export const ADMIN_EMAIL = 'admin@localhost';
export const ADMIN_PASSWORD = 'browser-test-admin-password';

/** The flags this machine needs (docs: the env notes): no sandbox as root, no background networking. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

export interface Credentials {
  platformId: string;
  clientId: string;
  clientSecret: string;
  dashboardEmail: string;
  dashboardPassword: string;
}

export interface Harness {
  server: RunningServer;
  baseUrl: string;
  env: Record<string, string>;
  credentials: Credentials;
  browser: Browser;
  /** A fresh browser profile (its own cookies) at a viewport size. */
  context(viewport?: { width: number; height: number }): Promise<BrowserContext>;
  /** The API with the bootstrap token (HTTP Basic), as an integrator calls it. */
  api(method: string, apiPath: string, body?: unknown): Promise<{ status: number; body: any }>;
  close(): Promise<void>;
}

/** Starts the real server (fresh SQLite data directory) and Debian's Chromium. */
export async function startHarness(extraEnv: Record<string, string> = {}): Promise<Harness> {
  const { env, dataDir, cleanup } = await serverEnvironment('sqlite');
  Object.assign(env, { CORRIDOR_BOOTSTRAP_ADMIN_PASSWORD: ADMIN_PASSWORD, WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true', ...extraEnv });
  const server = await startServer(env);
  const credentials = JSON.parse(fs.readFileSync(path.join(dataDir, 'credentials.json'), 'utf8')) as Credentials;
  // launch() gives Chromium a new empty profile directory of its own (removed on close).
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
  const authorization = `Basic ${Buffer.from(`${credentials.clientId}:${credentials.clientSecret}`).toString('base64')}`;
  return {
    server,
    baseUrl: server.baseUrl,
    env,
    credentials,
    browser,
    context: (viewport = { width: 1280, height: 900 }) => browser.newContext({ viewport, baseURL: server.baseUrl }),
    async api(method, apiPath, body) {
      const res = await fetch(`${server.baseUrl}${API}${apiPath}`, {
        method,
        headers: { authorization, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : undefined };
    },
    async close() {
      await browser.close();
      await server.stop();
      await cleanup();
    },
  };
}

/** Collects what the page complains about: CSP violations, console errors, uncaught exceptions. */
export function watchProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (msg) => {
    // A refused sign-in or CSRF probe logs its 4xx as a console error: those are expected.
    if (msg.type() === 'error' && !/status of 4\d\d/.test(msg.text())) problems.push(`console: ${msg.text()}`);
  });
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  return problems;
}

export async function signIn(page: Page, email = ADMIN_EMAIL, password = ADMIN_PASSWORD) {
  await page.goto('/dashboard/');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel(/^Password/).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}
