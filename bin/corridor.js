#!/usr/bin/env node
// The operator CLI. Runs the TypeScript sources through tsx, like `npm start`.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/index.ts');
