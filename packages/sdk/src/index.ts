/**
 * @headcount/sdk: a typed client for the Headcount API. README.md shows it in use.
 */
export { Headcount, DEFAULT_BASE_URL, DEFAULT_MAX_RETRIES, DEFAULT_TIMEOUT_MS, type HeadcountOptions } from './client.ts';
export {
  HeadcountError,
  HeadcountConnectionError,
  HeadcountTimeoutError,
  HEADCOUNT_ERROR_CODES,
  SDK_ERROR_CODES,
  type HeadcountErrorCode,
  type HeadcountErrorDetails,
  type ValidationItem,
} from './errors.ts';
export type {
  Schemas,
  OperationId,
  RequestOptions,
  RequestArgs,
  ResponseOf,
  BodyOf,
  QueryOf,
  PathParamsOf,
  BinaryBody,
  CallOptions,
  IdempotentCallOptions,
  HeadcountResponse,
} from './types.ts';
export type { WaitForResultOptions, WaitProgress } from './wait-for-result.ts';
export type {
  Questions,
  AskBody,
  UpdateQuestionBody,
  AddHeadsBody,
  ListQuestionsQuery,
  QuestionsPage,
  WaitQuery,
  WaitResponse,
  ResultQuery,
  AnswersQuery,
  AnswersPage,
  CancelResponse,
  AddHeadsResponse,
  CsvExportQuery,
  PngExportQuery,
  ExportFormat,
  ExportFile,
} from './resources/questions.ts';
export type { Billing, EstimateBody, LedgerQuery, LedgerPage } from './resources/billing.ts';
export type { Drafts, DraftBody } from './resources/drafts.ts';
export type { Webhooks, CreateWebhookBody, UpdateWebhookBody, WebhookTestBody } from './resources/webhooks.ts';
export type { Keys, CreateKeyBody, CreatedKey } from './resources/keys.ts';
export type { paths, operations, components } from './openapi.ts';
export { operationRoutes, type OperationRoute } from './operation-routes.ts';
export { SDK_VERSION } from './version.ts';
