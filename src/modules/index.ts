import type { Container } from '../container.js';
import type { App } from '../http/types.js';
import { beneficialOwnerRoutes } from './beneficial-owners/routes.js';
import { configRoutes } from './config/routes.js';
import { customerRoutes } from './customers/routes.js';
import { discoveryRoutes } from './discoveries/routes.js';
import { documentRoutes } from './documents/routes.js';
import { tokenRoutes } from './tokens/routes.js';
import { webhookRoutes } from './webhooks/routes.js';
import { internalAccountRoutes } from './internal-accounts/routes.js';
import { sandboxFundRoutes } from './sandbox/fund.js';
import { externalAccountRoutes } from './external-accounts/routes.js';
import { quoteRoutes } from './quotes/routes.js';
import { transactionRoutes } from './transactions/routes.js';
import { transferRoutes } from './transfers/routes.js';
import { sandboxSendRoutes } from './sandbox/send.js';
import { receiverRoutes } from './receiver/routes.js';
import { incomingRoutes } from './incoming/routes.js';
import { sandboxReceiveRoutes } from './sandbox/receive.js';
import { sandboxHelperRoutes } from './sandbox/helpers.js';
import { sandboxClockRoutes } from './sandbox/clock-service.js';
import { exchangeRateRoutes } from './exchange-rates/routes.js';
import { umaProviderRoutes } from './uma-providers/routes.js';
import { invitationRoutes } from './invitations/routes.js';
import { kycLinkRoutes } from './kyc-links/routes.js';
import { customerImportRoutes } from './customer-imports/routes.js';

/** Every resource's routes, mounted under the API version prefix. */
export const apiModules: Array<(app: App, container: Container) => void> = [
  tokenRoutes,
  customerRoutes,
  beneficialOwnerRoutes,
  documentRoutes,
  discoveryRoutes,
  internalAccountRoutes,
  sandboxFundRoutes,
  externalAccountRoutes,
  configRoutes,
  webhookRoutes,
  quoteRoutes,
  transactionRoutes,
  transferRoutes,
  sandboxSendRoutes,
  receiverRoutes,
  incomingRoutes,
  sandboxReceiveRoutes,
  sandboxHelperRoutes,
  sandboxClockRoutes,
  exchangeRateRoutes,
  umaProviderRoutes,
  invitationRoutes,
  kycLinkRoutes,
  customerImportRoutes,
];
