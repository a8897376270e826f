import type { Config } from './config.ts';
import { systemClock, type Clock } from './lib/clock.ts';
import type { Database } from './db/database.ts';
import { createAccountsRepository } from './modules/accounts/accounts.repository.ts';
import { createAccountsService } from './modules/accounts/accounts.service.ts';
import { createPoolRepository } from './modules/panel/pool.repository.ts';
import { createHeadsRepository } from './modules/panel/heads.repository.ts';
import { createPoolService } from './modules/panel/pool.service.ts';
import { createEstimateService } from './modules/estimate/estimate.service.ts';
import { createAudiencesRepository } from './modules/audiences/audiences.repository.ts';
import { createAudiencesService } from './modules/audiences/audiences.service.ts';
import { createAudienceAdminService } from './modules/audiences/audience-admin.service.ts';
import { createCataloguesRepository } from './modules/catalogues/catalogues.repository.ts';
import { createCataloguesService } from './modules/catalogues/catalogues.service.ts';
import { createCreditsRepository } from './modules/credits/credits.repository.ts';
import { createCreditsService } from './modules/credits/credits.service.ts';
import { createDraftsRepository } from './modules/drafts/drafts.repository.ts';
import { createDraftsService } from './modules/drafts/drafts.service.ts';
import { createCreditHolds } from './modules/credits/credits.holds.ts';
import { createCreditAlerts } from './modules/credits/credits.alerts.ts';
import { createBalanceView } from './modules/credits/credits-balance-view.ts';
import { createProjectsRepository } from './modules/projects/projects.repository.ts';
import { createProjectsService } from './modules/projects/projects.service.ts';
import { createQuestionsRepository } from './modules/questions/questions.repository.ts';
import { createIdempotencyRepository } from './modules/questions/idempotency.repository.ts';
import { createLifecycleService } from './modules/questions/lifecycle.service.ts';
import { createAskService } from './modules/questions/ask.service.ts';
import { createShownPricesService } from './modules/questions/shown-prices.service.ts';
import { createShownPricesRepository } from './modules/questions/shown-prices.repository.ts';
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
import { createExportService } from './modules/exports/exports.service.ts';
import { chartRenderer } from './modules/exports/render/chart-renderer.ts';
import { heatmapUrls } from './modules/sharing/heatmap-urls.ts';
import { createMailer } from './modules/mail/mail.service.ts';
import pino from 'pino';
import { createConnectionsRepository } from './modules/connections/connections.repository.ts';
import { createOauthStoreRepository } from './modules/connections/oauth-store.repository.ts';
import { createConnectionsService } from './modules/connections/connections.service.ts';
import { createOauthProvider, type OauthFetch } from './oauth/oauth-provider.ts';
import { createOauthInteractions } from './oauth/oauth-interactions.ts';
import { createOauthFetch } from './oauth/oauth-fetch.ts';
import { createOauthTokenAuthenticator, isAccessTokenShaped } from './oauth/oauth-tokens.ts';
import { createOauthPages } from './web/portal/oauth-pages.ts';
import { loadAssets } from './web/shared/assets.ts';
import { createPeopleRepository } from './modules/people/people.repository.ts';
import { createSessionsRepository } from './modules/people/sessions.repository.ts';
import { createPeopleService } from './modules/people/people.service.ts';
import { createSessionsService } from './modules/people/sessions.service.ts';
import { createSignInService } from './modules/people/sign-in.service.ts';
import { createDeveloperKeysService } from './modules/accounts/developer-keys.service.ts';
import { createFormNoncesRepository } from './modules/accounts/form-nonces.repository.ts';
import { createFormNoncesService } from './modules/accounts/form-nonces.service.ts';
import { createTeamsRepository } from './modules/teams/teams.repository.ts';
import { createTeamsService } from './modules/teams/teams.service.ts';
import { createCheckoutsRepository } from './modules/billing/checkouts.repository.ts';
import { createCheckoutService } from './modules/billing/checkout.service.ts';
import { createPaymentEventsService } from './modules/billing/payment-events.service.ts';
import { createPurchaseLedger } from './modules/credits/credits.purchases.ts';
import { createStripeProvider } from './modules/billing/stripe-provider.ts';
import { createTestProvider } from './modules/billing/test-provider.ts';
import { createSupportRepository } from './modules/support/support.repository.ts';
import { createSupportService } from './modules/support/support.service.ts';
import { SESSION_TOKEN_PREFIX } from './lib/api-key-format.ts';
import { checkOutboundUrl, outboundRequest, type Lookup } from './lib/outbound-http.ts';
import { createSecretBox } from './lib/secret-box.ts';
import { createWebhookEndpointsRepository } from './modules/events/webhook-endpoints.repository.ts';
import { createWebhookDeliveriesRepository } from './modules/events/webhook-deliveries.repository.ts';
import { createWebhookEndpointsService } from './modules/events/webhook-endpoints.service.ts';
import { createWebhookDelivery } from './modules/events/webhook-delivery.service.ts';
import { createWebhookOwnerMail } from './modules/events/webhook-mail.ts';
import type { Actor } from './lib/actor.ts';
import { createUploadsRepository } from './modules/uploads/uploads.repository.ts';
import { createUploadsService } from './modules/uploads/uploads.service.ts';
import { createPostgresStorage } from './modules/uploads/upload-blobs.repository.ts';
import { createFilesystemStorage } from './modules/uploads/file-storage.ts';
import { createMetrics, type PoolStats } from './lib/metrics.ts';
import { createJobQueueRepository } from './db/job-queue.repository.ts';

export interface ContainerOptions {
  /** Cross-process wake-ups; main passes the PostgreSQL one on a server. Default: in-process. */
  notifier?: Notifier;
  /** Durable jobs for timers; main passes the pg-boss runner. Default: none (the sweep does the transitions). */
  queue?: JobQueue;
  /**
   * Where services log outside a request (the dev mailbox's mail, a mail that failed). Default:
   * JSON lines on stdout; the admin CLI sends them to stderr, its stdout being one JSON object.
   */
  log?: pino.Logger;
  /**
   * How the authorization server fetches client ID metadata documents (docs/agents.md). Default:
   * the service's SSRF-safe client (oauth/oauth-fetch.ts); tests hand in one that reaches a local
   * stand-in.
   */
  oauthFetch?: OauthFetch;
  /** How webhook deliveries resolve names (default: the system's); tests hand in one that lies, to play DNS rebinding. */
  outboundLookup?: Lookup;
  /**
   * Tests only (docs/uploads.md "Testing imports"): certificate authorities image imports trust
   * instead of the system's (a local https stand-in's self-signed certificate), and a rule that
   * replaces the public-address rule of imports (one loopback address standing in for a public
   * host). Never set by main or the CLI: imports are public https only everywhere.
   */
  importCa?: string;
  importAllowedAddress?: (ip: string) => boolean;
  /** More connection pools for the metrics beside the service's own (main: the job queue's, `jobs`). */
  metricsPools?: Readonly<Record<string, PoolStats>>;
}

/**
 * Composition root (ARCHITECTURE §3): database → repositories → services. Tests build one with a
 * fake clock; main.ts and the CLI build one each.
 */
export function createContainer(config: Config, database: Database, clock: Clock = systemClock, options: ContainerOptions = {}) {
  const { db } = database;
  // Prometheus metrics (docs/operations.md "Metrics"): this container's own registry. What lives
  // in a service is read at scrape time; the services below only count, through `counters`.
  const jobQueue = createJobQueueRepository(db);
  const metrics = createMetrics({
    pools: { app: database.pool, ...options.metricsPools },
    jobQueue: () => jobQueue.counts(),
    waitsOpen: () => waits.waiting(),
    resultCache: () => results.cacheStats(),
    now: () => clock.now().getTime(),
  });
  const { counters } = metrics;
  const accountsRepo = createAccountsRepository(db);
  const notifier = options.notifier ?? createLocalNotifier({ foreignChanges: database.onForeignChange ?? undefined });
  const accounts = createAccountsService({ repo: accountsRepo, clock, keyChanges: notifier });
  const pool = createPoolService({ repo: createPoolRepository(db), clock });
  const audiencesRepo = createAudiencesRepository(db);
  const audiences = createAudiencesService({ repo: audiencesRepo, clock });
  const audienceAdmin = createAudienceAdminService({ db, repo: audiencesRepo, clock, accountExists: async (id) => (await accountsRepo.findAccount(id)) !== undefined });
  const estimates = createEstimateService({ pool, audiences, clock });
  const catalogues = createCataloguesService({ repo: createCataloguesRepository(db), clock });
  const creditsRepo = createCreditsRepository(db);
  const draftsRepo = createDraftsRepository(db);
  const drafts = createDraftsService({ repo: draftsRepo, clock });
  const projectsRepo = createProjectsRepository(db);
  const projects = createProjectsService({ repo: projectsRepo, clock });
  const timers = new Timers(options.queue ?? null);
  // The credits' events (credits.low, connection.cap_warning, credits.expiring) carry the balance
  // as GET /v1/billing/balance shows it, whose freeQuestionToday the questions module knows.
  const balanceView = createBalanceView({ repo: creditsRepo, accounts: accountsRepo, privateToday: (accountId, at, tx) => questions.privateToday(accountId, at, tx) });
  const creditAlerts = createCreditAlerts({ repo: creditsRepo, balanceView });
  const holds = createCreditHolds(creditsRepo, creditAlerts, counters);
  const questionsRepo = createQuestionsRepository(db);
  const effects = {
    changed: (id: string) => notifier.publish(id),
    wentLive: async (q: { id: string; closesAt: Date | null }) => timers.at(JOB_EXPIRE, { id: q.id }, q.closesAt),
  };
  const lifecycle = createLifecycleService({ db, clock, questions: questionsRepo, holds, effects, publicBaseUrl: config.publicBaseUrl });
  const shownPrices = createShownPricesService({ repo: createShownPricesRepository(db), clock });
  const asks = createAskService({
    db,
    clock,
    questions: questionsRepo,
    drafts: draftsRepo,
    projects: projectsRepo,
    idempotency: createIdempotencyRepository(db),
    holds,
    pool,
    audiences,
    publicBaseUrl: config.publicBaseUrl,
    ownFile: (url) => uploads.ownFile(url),
    counters,
    effects: {
      async timers(q) {
        const goLive = q.status === 'scheduled' ? await timers.statementAt(JOB_GO_LIVE, { id: q.id }, q.scheduledFor) : null;
        const expire = await timers.statementAt(JOB_EXPIRE, { id: q.id }, q.closesAt);
        return [goLive, expire].filter((statement) => statement !== null);
      },
      questionCreated: (q) => effects.changed(q.id),
    },
  });
  const questions = createQuestionsService({ db, clock, repo: questionsRepo, projects: projectsRepo, lifecycle, publicBaseUrl: config.publicBaseUrl });
  const credits = createCreditsService({ db, repo: creditsRepo, accounts: accountsRepo, clock, balanceView, alerts: creditAlerts });
  const addHeads = createAddHeadsService({ db, clock, questions: questionsRepo, holds, pool, effects, publicBaseUrl: config.publicBaseUrl });
  const heads = createHeadsRepository(db);
  const answersRepo = createAnswersRepository(db);
  const answers = createAnswerRecordingService({ db, clock, repo: answersRepo, heads, questions: questionsRepo, holds, lifecycle, changed: effects.changed, counters });
  const translator = translatorFor(config);
  const insights = createInsights(config, db, clock, translator);
  const answerTranslations = createAnswerTranslations({ db, repo: answersRepo, clock, translator, changed: effects.changed });
  const heatmapUrl = heatmapUrls(config.publicBaseUrl);
  const results = createResultService({
    repo: createResultsRepository(db), questions: questionsRepo, notifier, insights, heatmapUrl: (id, filter, aspect) => heatmapUrl.owner(id, filter, aspect),
    freshness: { writes: database.writes, hearsEveryChange: () => notifier.hearsEveryChange() },
  });
  const resultAnswers = createAnswersService({ results });
  const waits = createWaitService({ questions: questionsRepo, notifier, lifecycle, results, recheckMs: config.waitRecheckSeconds * 1000 });
  const links = createLinkService({ repo: createLinksRepository(db), clock, recorder: answers, humanCheck: createTurnstile(config.turnstile), lifecycle });
  const moderation = createModerationService({ db, clock, repo: createModerationRepository(db), questions: questionsRepo, credits: creditsRepo, insights, changed: effects.changed, counters });
  const sharing = createSharingService({ db, clock, repo: createSharingRepository(db), questions: questionsRepo, results, publicBaseUrl: config.publicBaseUrl });
  const heatmaps = createHeatmapService({ results, sharing });
  const exportFiles = createExportService({
    questions: questionsRepo,
    results,
    renderer: chartRenderer,
    clock,
    publicBaseUrl: config.publicBaseUrl,
    signingSecret: config.sessions.secret,
  });
  // Services log outside any request: the dev mailbox's lines are where a person reads mail in
  // development (silent under test); a mail that could not be sent is noted for operators.
  const log = options.log ?? pino({ level: config.logLevel });
  const mailer = createMailer(config, log.child({ name: 'mail' }), clock);
  const serviceLog = log.child({ name: 'service' });
  // People, their sessions and sign-in (issue 10; docs/portal.md).
  const peopleRepo = createPeopleRepository(db);
  const sessionsRepo = createSessionsRepository(db);
  const people = createPeopleService({ repo: peopleRepo, accounts: accountsRepo, clock });
  const sessions = createSessionsService({ repo: sessionsRepo, people: peopleRepo, clock, lifetimes: config.sessions });
  const signIn = createSignInService({ db, repo: sessionsRepo, people: peopleRepo, peopleService: people, sessions, mailer, clock, publicBaseUrl: config.publicBaseUrl });
  const developerKeys = createDeveloperKeysService({ accounts });
  const formNonces = createFormNoncesService({ repo: createFormNoncesRepository(db), clock });
  const teamsRepo = createTeamsRepository(db);
  const teams = createTeamsService({ db, repo: teamsRepo, people: peopleRepo, accounts: accountsRepo, mailer, clock, publicBaseUrl: config.publicBaseUrl, log: serviceLog });
  // Support tickets (docs/support.md): a mail that fails is logged, the ticket kept.
  const support = createSupportService({ db, repo: createSupportRepository(db), mailer, clock, log: serviceLog });
  // Buying credits (docs/payments.md): Stripe in production, the built-in test provider elsewhere.
  const checkoutsRepo = createCheckoutsRepository(db);
  const purchases = createPurchaseLedger(creditsRepo);
  const stripe = config.payments.stripe ? createStripeProvider(config.payments.stripe, clock) : null;
  const paymentProvider = stripe ?? createTestProvider(config.publicBaseUrl);
  const checkouts = createCheckoutService({ db, repo: checkoutsRepo, accounts: accountsRepo, people: peopleRepo, purchases, provider: paymentProvider, clock, publicBaseUrl: config.publicBaseUrl });
  const paymentEvents = createPaymentEventsService({ db, repo: checkoutsRepo, purchases, checkouts, provider: paymentProvider, clock });
  const stripeEvents = stripe ? (rawBody: string, signature: string | undefined) => stripe.parseEvent(rawBody, signature) : null;
  // Agents (issue 11; docs/agents.md): the authorization server, its storage and the connections
  // people grant. The pages it draws itself share the portal's look (the same asset bundle as app.ts).
  const assets = loadAssets();
  const oauthStore = createOauthStoreRepository(db);
  const connections = createConnectionsService({ repo: createConnectionsRepository(db), store: oauthStore, people: peopleRepo, clock });
  const { provider: oauthProvider, urls: oauthUrls } = createOauthProvider({ config, log: log.child({ name: 'oauth' }), store: oauthStore, connections, pages: createOauthPages(assets, config),
    fetch: options.oauthFetch ?? createOauthFetch({ allowPrivate: config.nodeEnv !== 'production' }) });
  const oauth = createOauthInteractions({ provider: oauthProvider, connections, urls: oauthUrls });
  const oauthToken = createOauthTokenAuthenticator({ provider: oauthProvider, urls: oauthUrls, connections });

  // Webhooks (issue 12; docs/webhooks.md): endpoints, and the sender the worker's dispatcher runs.
  const secretBox = createSecretBox(config.webhooks.secretKeys);
  const addressRules = { allowPrivate: config.webhooks.allowPrivate, allowHttp: config.webhooks.allowHttp, lookup: options.outboundLookup };
  const webhookEndpointsRepo = createWebhookEndpointsRepository(db);
  const webhookDeliveriesRepo = createWebhookDeliveriesRepository(db);
  const webhooks = createWebhookEndpointsService({
    db, endpoints: webhookEndpointsRepo, deliveries: webhookDeliveriesRepo, box: secretBox, clock, maxEndpoints: config.webhooks.maxEndpoints,
    checkUrl: (url) => checkOutboundUrl(url, addressRules),
  });
  const webhookDelivery = createWebhookDelivery({
    db, repo: webhookDeliveriesRepo, endpoints: webhookEndpointsRepo, box: secretBox, clock, rng: Math.random, timeoutMs: config.webhooks.timeoutMs, perEndpoint: config.webhooks.perEndpoint,
    send: (url, sendOptions) => outboundRequest(url, { ...sendOptions, ...addressRules }),
    endpointDisabled: createWebhookOwnerMail({ members: (accountId) => teamsRepo.members(accountId), mailer, publicBaseUrl: config.publicBaseUrl }),
    log: log.child({ name: 'webhooks' }),
    counters,
  });
  // Uploads (issue 13; docs/uploads.md): files in PostgreSQL or under DATA_DIR, imports through
  // the SSRF-safe client with no relaxation outside production (public https only everywhere).
  const uploads = createUploadsService({
    repo: createUploadsRepository(db),
    storage: config.uploads.storage === 'filesystem' ? createFilesystemStorage(config.uploads.dir) : createPostgresStorage(db),
    clock,
    publicBaseUrl: config.publicBaseUrl,
    fetch: (url, fetchOptions) => outboundRequest(url, { ...fetchOptions, lookup: options.outboundLookup, ca: options.importCa, isAllowedAddress: options.importAllowedAddress }),
  });
  /**
   * A bearer credential → the actor (docs/api.md "Authentication"): a portal session by its
   * prefix, an OAuth access token by its shape (for the route's resource), else an API key (which
   * refuses anything malformed before any lookup).
   */
  const authenticate = (credential: string, context: { account: string | null; audience: 'api' | 'mcp' }): Promise<Actor> => {
    if (credential.startsWith(SESSION_TOKEN_PREFIX)) return sessions.authenticate(credential, context);
    if (isAccessTokenShaped(credential)) return oauthToken(credential, context);
    return accounts.authenticate(credential, context);
  };
  return {
    people, sessions, signIn, developerKeys, formNonces, teams, authenticate, checkouts, paymentEvents, paymentProvider, stripeEvents,
    assets, oauthStore, connections, oauthProvider, oauthUrls, oauth,
    insights, answerTranslations, heads,
    config, clock, database, db, accounts, pool, estimates, catalogues, credits, drafts, projects,
    notifier, timers, holds, lifecycle, asks, shownPrices, questions, addHeads, answers, results, resultAnswers, waits, links,
    moderation, sharing, heatmaps, exportFiles, mailer, support, webhooks, webhookDelivery, webhookDeliveriesRepo,
    uploads, audiences, audienceAdmin, metrics,
  };
}
export type Container = ReturnType<typeof createContainer>;
