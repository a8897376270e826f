import pino from 'pino';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import type { Clock } from '../../lib/clock.ts';
import { createLocalEngine } from './local-engine.ts';
import { createRemoteEngine } from './remote-engine.ts';
import { createInsightsRepository } from './insights.repository.ts';
import { createInsightsService, type InsightsService } from './insights.service.ts';
import { createApiTranslator, noTranslator, type Translator } from '../text/translate.ts';

/**
 * The insights module wired from configuration (one call in container.ts): the local engine, or
 * the configured API engine with the local one behind it, and the translator when configured.
 */
export function createInsights(config: Config, db: Db, clock: Clock, translator: Translator = translatorFor(config)): InsightsService {
  const log = pino({ level: config.logLevel, name: 'insights' });
  const local = createLocalEngine();
  const engine = config.insights.api ? createRemoteEngine(config.insights.api, local, log) : local;
  return createInsightsService({ repo: createInsightsRepository(db), clock, engine, translator, log });
}

/** The configured translation engine, or none (summaries and answers stay untranslated). */
export function translatorFor(config: Config): Translator {
  return config.insights.translate ? createApiTranslator(config.insights.translate, pino({ level: config.logLevel, name: 'translate' })) : noTranslator;
}
