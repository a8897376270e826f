import pino from 'pino';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import type { Clock } from '../../lib/clock.ts';
import { createLocalEngine } from './local-engine.ts';
import { createRemoteEngine } from './remote-engine.ts';
import { createInsightsRepository } from './insights.repository.ts';
import { createInsightsService, type InsightsService } from './insights.service.ts';
import { createApiTranslator, noTranslator } from './translate.ts';

/**
 * The insights module wired from configuration (one call in container.ts): the local engine, or
 * the configured API engine with the local one behind it, and the translator when configured.
 */
export function createInsights(config: Config, db: Db, clock: Clock): InsightsService {
  const log = pino({ level: config.logLevel, name: 'insights' });
  const local = createLocalEngine();
  const engine = config.insights.api ? createRemoteEngine(config.insights.api, local, log) : local;
  const translator = config.insights.translate ? createApiTranslator(config.insights.translate, log) : noTranslator;
  return createInsightsService({ repo: createInsightsRepository(db), clock, engine, translator, log });
}
