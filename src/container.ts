import type { Config } from './config.ts';
import { systemClock, type Clock } from './lib/clock.ts';
import type { Database } from './db/database.ts';
import { createAccountsRepository } from './modules/accounts/accounts.repository.ts';
import { createAccountsService } from './modules/accounts/accounts.service.ts';
import { createPoolRepository } from './modules/panel/pool.repository.ts';
import { createHeadsRepository } from './modules/panel/heads.repository.ts';
import { createPoolService } from './modules/panel/pool.service.ts';
import { createEstimateService } from './modules/estimate/estimate.service.ts';
import { createCataloguesRepository } from './modules/catalogues/catalogues.repository.ts';
import { createCataloguesService } from './modules/catalogues/catalogues.service.ts';
import { createCreditsRepository } from './modules/credits/credits.repository.ts';
import { createCreditsService } from './modules/credits/credits.service.ts';
import { createDraftsRepository } from './modules/drafts/drafts.repository.ts';
import { createDraftsService } from './modules/drafts/drafts.service.ts';
import { createCreditHolds } from './modules/credits/credits.holds.ts';
import { createProjectsRepository } from './modules/projects/projects.repository.ts';
import { createProjectsService } from './modules/projects/projects.service.ts';
import { createQuestionsRepository } from './modules/questions/questions.repository.ts';
import { createIdempotencyRepository } from './modules/questions/idempotency.repository.ts';
import { createLifecycleService } from './modules/questions/lifecycle.service.ts';
import { createAskService } from './modules/questions/ask.service.ts';
import { createQuestionsService } from './modules/questions/questions.service.ts';
import { createAddHeadsService } from './modules/questions/add-heads.service.ts';
import { createAnswerRecordingService } from './modules/answers/answer-recording.service.ts';
import { createAnswersRepository } from './modules/answers/answers.repository.ts';
import { createResultService } from './modules/results/results.service.ts';
import { createResultsRepository } from './modules/results/results.repository.ts';
import { createAnswersService } from './modules/results/answer-list.service.ts';
import { createWaitService } from './modules/questions/wait.service.ts';
import { createLocalNotifier, type Notifier } from './lib/notifier.ts';
import { Timers } from './lib/timers.ts';
import type { JobQueue } from './lib/job.ts';
import { JOB_EXPIRE, JOB_GO_LIVE } from './modules/questions/questions.jobs.ts';
import { createLinkService } from './modules/links/links.service.ts';
import { createLinksRepository } from './modules/links/links.repository.ts';
import { createTurnstile } from './modules/links/turnstile.ts';
import { createModerationService } from './modules/moderation/moderation.service.ts';
import { createModerationRepository } from './modules/moderation/moderation.repository.ts';
import { createSharingService } from './modules/sharing/sharing.service.ts';
import { createSharingRepository } from './modules/sharing/sharing.repository.ts';
import { createInsights, translatorFor } from './modules/insights/insights.setup.ts';
import { createAnswerTranslations } from './modules/answers/answer-translations.ts';
import { createHeatmapService } from './modules/exports/heatmap.service.ts';
import { heatmapUrls } from './modules/sharing/heatmap-urls.ts';
import { createMailer } from './modules/mail/mail.service.ts';
import pino from 'pino';

export interface ContainerOptions {
  /** Cross-process wake-ups; main passes the PostgreSQL one on a server. Default: in-process. */
  notifier?: Notifier;
  /** Durable jobs for timers; main passes the pg-boss runner. Default: none (the sweep does the transitions). */
  queue?: JobQueue;
}

/**
 * Composition root (ARCHITECTURE §3): database → repositories → services. Tests build one with a
 * fake clock; main.ts and the CLI build one each.
 */
export function createContainer(config: Config, database: Database, clock: Clock = systemClock, options: ContainerOptions = {}) {
  const { db } = database;
  const accountsRepo = createAccountsRepository(db);
  const accounts = createAccountsService({ repo: accountsRepo, clock });
  const pool = createPoolService({ repo: createPoolRepository(db), clock });
  const estimates = createEstimateService({ pool, clock });
  const catalogues = createCataloguesService({ repo: createCataloguesRepository(db), clock });
  const creditsRepo = createCreditsRepository(db);
  const draftsRepo = createDraftsRepository(db);
  const drafts = createDraftsService({ repo: draftsRepo, clock });
  const projectsRepo = createProjectsRepository(db);
  const projects = createProjectsService({ repo: projectsRepo, clock });
  const notifier = options.notifier ?? createLocalNotifier();
  const timers = new Timers(options.queue ?? null);
  const holds = createCreditHolds(creditsRepo);
  const questionsRepo = createQuestionsRepository(db);
  const effects = {
    changed: (id: string) => notifier.publish(id),
    wentLive: async (q: { id: string; closesAt: Date | null }) => timers.at(JOB_EXPIRE, { id: q.id }, q.closesAt),
  };
  const lifecycle = createLifecycleService({ db, clock, questions: questionsRepo, holds, effects, publicBaseUrl: config.publicBaseUrl });
  const asks = createAskService({
    db,
    clock,
    questions: questionsRepo,
    drafts: draftsRepo,
    projects: projectsRepo,
    idempotency: createIdempotencyRepository(db),
    holds,
    pool,
    publicBaseUrl: config.publicBaseUrl,
    effects: {
      async questionCreated(q) {
        effects.changed(q.id);
        if (q.status === 'scheduled') await timers.at(JOB_GO_LIVE, { id: q.id }, q.scheduledFor);
        await timers.at(JOB_EXPIRE, { id: q.id }, q.closesAt);
      },
    },
  });
  const questions = createQuestionsService({ db, clock, repo: questionsRepo, projects: projectsRepo, lifecycle, publicBaseUrl: config.publicBaseUrl });
  // The balance says whether today's private question is still free: a fact the questions module knows.
  const credits = createCreditsService({ db, repo: creditsRepo, accounts: accountsRepo, clock, privateToday: (actor) => questions.privateToday(actor) });
  const addHeads = createAddHeadsService({ db, clock, questions: questionsRepo, holds, pool, effects, publicBaseUrl: config.publicBaseUrl });
  const heads = createHeadsRepository(db);
  const answersRepo = createAnswersRepository(db);
  const answers = createAnswerRecordingService({ db, clock, repo: answersRepo, heads, questions: questionsRepo, holds, lifecycle, changed: effects.changed });
  const translator = translatorFor(config);
  const insights = createInsights(config, db, clock, translator);
  const answerTranslations = createAnswerTranslations({ db, repo: answersRepo, clock, translator, changed: effects.changed });
  const heatmapUrl = heatmapUrls(config.publicBaseUrl);
  const results = createResultService({ repo: createResultsRepository(db), questions: questionsRepo, notifier, insights, heatmapUrl: (id, filter) => heatmapUrl.owner(id, filter) });
  const resultAnswers = createAnswersService({ results });
  const waits = createWaitService({ questions: questionsRepo, notifier, lifecycle, results });
  const links = createLinkService({ repo: createLinksRepository(db), clock, recorder: answers, humanCheck: createTurnstile(config.turnstile), lifecycle });
  const moderation = createModerationService({ db, clock, repo: createModerationRepository(db), questions: questionsRepo, credits: creditsRepo, insights, changed: effects.changed });
  const sharing = createSharingService({ db, clock, repo: createSharingRepository(db), questions: questionsRepo, results, publicBaseUrl: config.publicBaseUrl });
  const heatmaps = createHeatmapService({ results, sharing });
  // Its own pino logger, as insights has (the container gets no logger): the dev mailbox's lines
  // are where a person reads mail in development; silent under test.
  const mailer = createMailer(config, pino({ level: config.logLevel, name: 'mail' }), clock);
  return {
    insights, answerTranslations, heads,
    config, clock, database, db, accounts, pool, estimates, catalogues, credits, drafts, projects,
    notifier, timers, holds, lifecycle, asks, questions, addHeads, answers, results, resultAnswers, waits, links,
    moderation, sharing, heatmaps, mailer,
  };
}
export type Container = ReturnType<typeof createContainer>;
