#!/usr/bin/env node
// The operator CLI: the JavaScript `npm install` built (scripts/build.mjs), like `npm start`.
await import('../dist/cli.js');
