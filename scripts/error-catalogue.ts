// Prints docs/errors.md from the codes every module declares: npx tsx scripts/error-catalogue.ts > docs/errors.md
import { errorCatalogue } from '../src/common/errors.js';
import '../src/app.js';
import '../src/container.js';

export function renderErrorCatalogue(): string {
  const rows = [...errorCatalogue.entries()].sort(([a, x], [b, y]) => x.status - y.status || a.localeCompare(b));
  return `# Error codes

Every error response has the same shape (the HTTP status is repeated in the body):

\`\`\`json
{
  "status": 400,
  "code": "INVALID_INPUT",
  "message": "The request is invalid; see details.fields",
  "details": { "fields": [{ "field": "address.country", "in": "body", "message": "must be an ISO 3166-1 alpha-2 country code in upper case (e.g. US)" }] }
}
\`\`\`

\`details\` is present when there is more to say: \`fields\` for INVALID_INPUT (each with \`field\`,
\`in\` = body | query | path | header, and \`message\`), the conflicting values for conflicts, the
missing fields or amounts for business rules. Branch on \`code\`, never on \`message\`: messages may
be reworded, codes never change.

An error answer stays small whatever the request: \`fields\` lists at most 50 problems (when there
were more, \`omittedFields\` says how many were left out), texts in \`details\` are cut at 500
characters and \`message\` at 1,000.

| HTTP | code | meaning |
|---|---|---|
${rows.map(([code, d]) => `| ${d.status} | \`${code}\` | ${d.message} |`).join('\n')}

Sandbox identifiers ending in 105 answer 400 and ending in 109 answer 500 on purpose (see the
sandbox test patterns).
`;
}

if (import.meta.url === `file://${process.argv[1]}`) process.stdout.write(renderErrorCatalogue());
