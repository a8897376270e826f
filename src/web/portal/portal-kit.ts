import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config.ts';
import type { Clock } from '../../lib/clock.ts';
import type { SessionsService } from '../../modules/people/sessions.service.ts';
import type { PeopleService } from '../../modules/people/people.service.ts';
import type { SignInService } from '../../modules/people/sign-in.service.ts';
import type { Mailer } from '../../modules/mail/mail.types.ts';
import type { CreditsService } from '../../modules/credits/credits.service.ts';
import type { QuestionsService } from '../../modules/questions/questions.service.ts';
import type { ResultService } from '../../modules/results/results.service.ts';
import type { CheckoutService } from '../../modules/billing/checkout.service.ts';
import type { DeveloperKeysService } from '../../modules/accounts/developer-keys.service.ts';
import type { FormNoncesService } from '../../modules/accounts/form-nonces.service.ts';
import type { TeamsService } from '../../modules/teams/teams.service.ts';
import type { SupportService } from '../../modules/support/support.service.ts';
import type { AssetBundle } from '../shared/assets.ts';
import type { ConnectionsService } from '../../modules/connections/connections.service.ts';
import type { WebhookEndpointsService } from '../../modules/events/webhook-endpoints.service.ts';
import type { OauthInteractions } from '../../oauth/oauth-interactions.ts';
import type { PortalContext } from './portal-context.ts';

/** The services the portal's pages call (the container hands them in; pages know no other way in). */
export interface PortalDeps {
  config: Config;
  clock: Clock;
  sessions: SessionsService;
  people: PeopleService;
  signIn: SignInService;
  mailer: Mailer;
  credits: CreditsService;
  questions: QuestionsService;
  results: ResultService;
  checkouts: CheckoutService;
  developerKeys: DeveloperKeysService;
  formNonces: FormNoncesService;
  teams: TeamsService;
  support: SupportService;
  connections: ConnectionsService;
  webhooks: WebhookEndpointsService;
  oauth: OauthInteractions;
}

/**
 * A portal page's request: the form body as URLSearchParams (`get` is one value or null, whatever
 * a crafted form repeats; `getAll` for the fields that are lists), the query as Fastify parses it
 * (read it with `queryParam`), path parameters as text.
 */
export type PageRequest = FastifyRequest<{ Querystring: Record<string, string | string[] | undefined>; Body: URLSearchParams | undefined; Params: Record<string, string> }>;

/** One query parameter as text; a repeated or missing one is undefined. */
export function queryParam(request: PageRequest, name: string): string | undefined {
  const value = request.query[name];
  return typeof value === 'string' ? value : undefined;
}

/** One form field as text ('' when it is missing). */
export const formField = (request: PageRequest, name: string): string => request.body?.get(name) ?? '';
export type SignedInHandler = (request: PageRequest, reply: FastifyReply, ctx: PortalContext) => Promise<unknown>;

/** Pages for a signed-in person: a signed-out visitor is sent to sign in first (GET) or refused the post. */
export interface SignedInRoutes {
  get(path: string, handler: SignedInHandler): void;
  post(path: string, handler: SignedInHandler): void;
}

/** What every page of the portal is built with (one per app, handed to each group of pages by portal.routes.ts). */
export interface PortalKit {
  deps: PortalDeps;
  assets: AssetBundle;
  /** The form token of this request's person (or of a signed-out visitor): bound to the session. */
  csrf(reply: FastifyReply): string;
  /** The signed-in person, or null after answering with a redirect to the sign-in page. */
  signedIn(request: FastifyRequest, reply: FastifyReply): PortalContext | null;
  /** A signed-in page: the frame around `content`. */
  page(request: FastifyRequest, reply: FastifyReply, ctx: PortalContext, title: string, content: string): string;
  signedOut(request: FastifyRequest, title: string, content: string): string;
  /** Registers pages for signed-in people on `app` (hidden from /openapi.json, no API scope). */
  routes(app: FastifyInstance): SignedInRoutes;
}

/** A page's route options: not part of the API description, and no credential header (the cookie decides). */
export const PAGE = { schema: { hide: true }, config: { scope: null } } as const;

/** The signature every group of pages has. */
export type PortalPages = (app: FastifyInstance, kit: PortalKit) => void;
