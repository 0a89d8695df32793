import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderErrorCatalogue } from '../scripts/error-catalogue.js';

describe('docs/errors.md', () => {
  it('lists every error code the service can return (regenerate with: npx tsx scripts/error-catalogue.ts > docs/errors.md)', () => {
    expect(fs.readFileSync(new URL('../docs/errors.md', import.meta.url), 'utf8')).toBe(renderErrorCatalogue());
  });
});
