import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyReply } from 'fastify';
import { projectPath } from '../common/paths.js';
import type { App } from '../http/types.js';

/** Where `npm install` (the root prepare script) builds the dashboard. */
export const DASHBOARD_DIST = projectPath('dashboard', 'dist');
export const NONCE_PLACEHOLDER = '__CSP_NONCE__';

/**
 * Scripts and everything else come from this server only; no inline script. Mantine writes a few
 * <style> elements at run time: they carry the per-response nonce (read from a meta tag).
 */
export function contentSecurityPolicy(nonce: string): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    `style-src 'self' 'nonce-${nonce}'`,
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

function securityHeaders(reply: FastifyReply, nonce: string) {
  reply.header('Content-Security-Policy', contentSecurityPolicy(nonce));
  reply.header('X-Frame-Options', 'DENY');
  reply.header('Referrer-Policy', 'same-origin');
}

/**
 * The dashboard's pages at /dashboard/: hashed assets from dashboard/dist/assets (cached for a
 * year; an unknown asset is 404), and index.html with a fresh CSP nonce for every other path (the
 * app routes in the browser).
 */
export async function dashboardPages(app: App, dist = DASHBOARD_DIST) {
  const indexFile = path.join(dist, 'index.html');
  await app.register(async (scope) => {
    if (!fs.existsSync(indexFile)) {
      scope.get('/dashboard/*', { schema: { hide: true } as object }, async (_req, reply) => {
        reply.code(503).type('text/plain; charset=utf-8');
        return 'The dashboard is not built. Run `npm install` (or `npm run build:dashboard`) in the Corridor directory, then restart.\n';
      });
      return;
    }
    const template = fs.readFileSync(indexFile, 'utf8');

    // Runs after the root onSend (which forbids caching): file names carry their content hash.
    scope.addHook('onSend', async (req, reply) => {
      if (req.url.startsWith('/dashboard/assets/') && reply.statusCode === 200) reply.header('Cache-Control', 'public, max-age=31536000, immutable');
    });

    await scope.register(fastifyStatic, {
      root: path.join(dist, 'assets'),
      prefix: '/dashboard/assets/',
      index: false,
      decorateReply: false,
      setHeaders: (reply) => {
        reply.header('Content-Security-Policy', contentSecurityPolicy(randomBytes(16).toString('base64')));
      },
    });

    const page = async (_req: unknown, reply: FastifyReply) => {
      const nonce = randomBytes(16).toString('base64');
      securityHeaders(reply, nonce);
      reply.type('text/html; charset=utf-8');
      return template.replaceAll(NONCE_PLACEHOLDER, nonce);
    };
    // With ignoreTrailingSlash this route also answers /dashboard/: only the bare path redirects,
    // so the app's relative URLs resolve under /dashboard/.
    scope.get('/dashboard', { schema: { hide: true } as object }, async (req, reply) =>
      req.url.split('?')[0] === '/dashboard' ? reply.redirect('/dashboard/', 302) : page(req, reply),
    );
    scope.get('/dashboard/*', { schema: { hide: true } as object }, page);
  });
}
