import type { TSchema } from '@sinclair/typebox';
import { ErrorEnvelopeSchema, ValidationItemSchema } from './lib/error.schemas.ts';
import { QuestionDraftSchema, SavedDraftSchema } from './modules/draft/draft.schemas.ts';
import { QuestionSchema } from './modules/questions/questions.schemas.ts';
import { AnswerSchema, ResultPartSchema, ResultSchema } from './modules/results/results.schemas.ts';
import { InsightsSchema } from './modules/insights/insights.schemas.ts';
import { SettlementSchema } from './modules/settlement/settlement.schemas.ts';
import { ProjectSchema } from './modules/projects/projects.schemas.ts';
import { DraftRecordSchema } from './modules/drafts/drafts.schemas.ts';
import { BalanceSchema, BillingAlertsSchema, LedgerRowSchema } from './modules/credits/credits.schemas.ts';
import { WebhookAttemptSchema, WebhookDeliverySchema, WebhookEndpointSchema } from './modules/events/webhooks.schemas.ts';
import {
  ConfigSchema,
  CountriesCatalogueSchema,
  StatsSchema,
  TagsCatalogueSchema,
  TemplateSchema,
} from './modules/catalogues/catalogues.schemas.ts';
import { CountryEntrySchema } from './modules/draft/catalogue-entries.schemas.ts';
import { EstimateDraftSchema, EstimateSchema } from './modules/estimate/estimate.schemas.ts';
import { DisputeSchema } from './modules/moderation/moderation.schemas.ts';
import { LinkAnswerSchema, LinkViewSchema } from './modules/links/links.schemas.ts';
import { MembershipSchema, PersonSchema, SessionSchema } from './modules/people/people.schemas.ts';
import { ApiKeySchema } from './modules/accounts/accounts.schemas.ts';
import { ConnectionSchema } from './modules/connections/connections.schemas.ts';
import { InvitationForMeSchema, InvitationSchema, MemberSchema } from './modules/teams/teams.schemas.ts';
import { BankTransferSchema, CheckoutSchema } from './modules/billing/billing.schemas.ts';
import { SupportTicketRequestSchema } from './modules/support/support.schemas.ts';
import { ExportSchema } from './modules/exports/exports.schemas.ts';
import { AudienceGradeSchema, AudienceSchema } from './modules/audiences/audiences.schemas.ts';

/**
 * The shared component schemas of /openapi.json, one per resource of the spec (app.ts hands the
 * list to http/openapi.ts, which registers each with Fastify, Ajv and @fastify/swagger). A new
 * resource's schema is added here. Order matters: a schema's references come first.
 */
export const SHARED_SCHEMAS: TSchema[] = [
  ValidationItemSchema,
  ErrorEnvelopeSchema,
  QuestionDraftSchema,
  SavedDraftSchema,
  QuestionSchema,
  InsightsSchema,
  SettlementSchema,
  AnswerSchema,
  ResultSchema,
  ResultPartSchema,
  ProjectSchema,
  DraftRecordSchema,
  TemplateSchema,
  BalanceSchema,
  BillingAlertsSchema,
  LedgerRowSchema,
  CountryEntrySchema,
  ConfigSchema,
  CountriesCatalogueSchema,
  TagsCatalogueSchema,
  StatsSchema,
  WebhookEndpointSchema,
  WebhookDeliverySchema,
  WebhookAttemptSchema,
  EstimateSchema,
  LinkAnswerSchema,
  LinkViewSchema,
  DisputeSchema,
  ApiKeySchema,
  ConnectionSchema,
  PersonSchema,
  MembershipSchema,
  SessionSchema,
  MemberSchema,
  InvitationSchema,
  InvitationForMeSchema,
  BankTransferSchema,
  CheckoutSchema,
  SupportTicketRequestSchema,
  ExportSchema,
  AudienceGradeSchema,
  AudienceSchema,
  EstimateDraftSchema,
];


/** The sections of the API reference (OpenAPI tags), in reading order; every operation names one. */
export const API_TAGS = [
  { name: 'Pricing and config', description: 'Public prices, configuration and catalogues; no credential needed.' },
  { name: 'Audiences', description: 'Interest audiences: panels of heads who proved a trait, graded and paid by grade; asked through a saved draft (docs/audiences.md). No credential needed.' },
  { name: 'Questions', description: 'Asking questions and reading what came back.' },
  { name: 'Credits', description: 'Balance, ledger, and buying credit packs (checkout: portal session only).' },
  { name: 'Projects', description: 'Grouping questions.' },
  { name: 'Drafts', description: 'Questions not yet asked.' },
  { name: 'Uploads', description: 'Images and audio for questions: upload URLs, imports from public https URLs, and the files as heads see them (docs/uploads.md).' },
  { name: 'Answer link', description: 'Public endpoints of the page people answer on; no credential.' },
  { name: 'Exports', description: 'Files made from a result: the answers as CSV, the chart as PNG, a one-page PDF, export links, QR codes of the answer link, the click-test heatmap.' },
  { name: 'Public results', description: 'Results a requester chose to show outside the account: the public results page and private share links; no credential.' },
  { name: 'People and sessions', description: 'Signing in with an emailed code, the portal session it gives, and the person behind it (extensions; docs/portal.md).' },
  { name: 'Teams', description: 'Team accounts: members, roles and invitations by email; portal session only (docs/teams.md).' },
  { name: 'Developers', description: 'API keys, made and revoked by a signed-in person (the portal\'s Developers page); portal session only.' },
  { name: 'Connected apps', description: 'Apps and agents a person connected with OAuth (docs/agents.md): listed and disconnected by that person; portal session only.' },
  { name: 'Webhooks', description: 'Endpoints that receive signed events (Standard Webhooks), their deliveries and attempts; portal session only (docs/webhooks.md).' },
  { name: 'Support', description: 'Writing to support: a ticket, answered by email; any credential or none (docs/support.md).' },
  { name: 'Health', description: 'Liveness and readiness for operators.' },
];
