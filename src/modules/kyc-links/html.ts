/**
 * Small server-rendered pages for people (the sandbox KYC page, an invitation's page): no script,
 * inline styles only, every value escaped. They are answered outside the JSON API's shapes.
 */
import type { FastifyReply } from 'fastify';

export function escapeHtml(value: unknown): string {
  return String(value).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** A whole HTML document around body (already escaped HTML). */
export function htmlPage(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<style>
body{font-family:system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem;color:#1a1a1a}
h1{font-size:1.4rem}dl{display:grid;grid-template-columns:max-content 1fr;gap:.3rem 1rem}dt{color:#555}
button{font-size:1rem;padding:.5rem 1.2rem;margin-right:.6rem;border-radius:.3rem;border:1px solid #888;cursor:pointer}
.approve{background:#1f7a3a;color:#fff}.reject{background:#a12020;color:#fff}.note{color:#555;font-size:.9rem}
</style>
</head>
<body>
${body}
</body>
</html>
`;
}

/**
 * Sends a page. Its policy allows its own inline style and a form posting back to this origin
 * only; nothing may frame it, and the link's token never leaves in a Referer.
 */
export function sendPage(reply: FastifyReply, status: number, html: string) {
  return reply
    .code(status)
    .type('text/html; charset=utf-8')
    .header('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
    .header('Referrer-Policy', 'no-referrer')
    .header('X-Frame-Options', 'DENY')
    .send(html);
}
