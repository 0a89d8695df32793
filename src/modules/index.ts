import type { Container } from '../container.js';
import type { App } from '../http/types.js';
import { customerRoutes } from './customers/routes.js';
import { tokenRoutes } from './tokens/routes.js';

/** Every resource's routes, mounted under the API version prefix. */
export const apiModules: Array<(app: App, container: Container) => void> = [tokenRoutes, customerRoutes];
