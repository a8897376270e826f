import type { Clock } from '../lib/clock.ts';
import type { Actor } from '../lib/actor.ts';
import type { AskService } from '../modules/questions/ask.service.ts';
import type { ShownPricesService } from '../modules/questions/shown-prices.service.ts';
import type { AddHeadsService } from '../modules/questions/add-heads.service.ts';
import type { LifecycleService } from '../modules/questions/lifecycle.service.ts';
import type { QuestionsService } from '../modules/questions/questions.service.ts';
import type { WaitService } from '../modules/questions/wait.service.ts';
import type { EstimateService } from '../modules/estimate/estimate.service.ts';
import type { ResultService } from '../modules/results/results.service.ts';
import type { InsightsService } from '../modules/insights/insights.service.ts';
import type { CreditsService } from '../modules/credits/credits.service.ts';
import type { CataloguesService } from '../modules/catalogues/catalogues.service.ts';

/**
 * What the MCP tools use: the same services the REST routes call (ARCHITECTURE §1, "adapters over
 * the same services"), handed in by app.ts from the container. Nothing here reaches the database
 * any other way.
 */
export interface McpDeps {
  asks: Pick<AskService, 'ask' | 'quote' | 'keyStoredAt'>;
  shownPrices: Pick<ShownPricesService, 'remember' | 'shown'>;
  estimates: EstimateService;
  questions: Pick<QuestionsService, 'list' | 'get'>;
  lifecycle: Pick<LifecycleService, 'cancel'>;
  addHeads: Pick<AddHeadsService, 'addHeads'>;
  waits: Pick<WaitService, 'waitForProgress'>;
  results: Pick<ResultService, 'forAccount'>;
  insights: Pick<InsightsService, 'get' | 'refresh'>;
  credits: Pick<CreditsService, 'balance'>;
  catalogues: Pick<CataloguesService, 'templates'>;
  clock: Clock;
}

/** Where a tool logs the cause of an unexpected failure (the request's pino logger). */
export interface McpLog {
  error(details: Record<string, unknown>, message: string): void;
}

/** Per-request settings of the MCP server. */
export interface McpOptions {
  /** The service's public address (config.publicBaseUrl), for links in tool results. */
  publicBaseUrl: string;
  log: McpLog;
}

/** What every tool of one request shares: who calls, the services and the settings. */
export interface ToolContext {
  actor: Actor;
  deps: McpDeps;
  options: McpOptions;
}
