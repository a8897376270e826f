/**
 * hc.questions: ask, read, change, cancel, add heads, wait, results, answers and exports
 * (docs/asking.md, docs/lifecycle.md, docs/results.md, docs/exports.md).
 *
 * Return values: a response that is one object in a one-field envelope (`{question}`,
 * `{result}`) returns that object; a response with more in it (cancel's refund, a page with its
 * cursor, wait's `done`) returns as served.
 */
import type { Headcount } from '../client.ts';
import { filenameFromContentDisposition } from '../content-disposition.ts';
import { paginate } from '../pagination.ts';
import type { BodyOf, CallOptions, IdempotentCallOptions, QueryOf, ResponseOf, Schemas } from '../types.ts';

export type AskBody = BodyOf<'askQuestion'>;
export type UpdateQuestionBody = BodyOf<'updateQuestion'>;
export type AddHeadsBody = BodyOf<'addHeads'>;
export type ListQuestionsQuery = QueryOf<'listQuestions'>;
export type QuestionsPage = ResponseOf<'listQuestions'>;
export type WaitQuery = QueryOf<'waitForQuestion'>;
export type WaitResponse = ResponseOf<'waitForQuestion'>;
export type ResultQuery = QueryOf<'getResult'>;
export type AnswersQuery = QueryOf<'listAnswers'>;
export type AnswersPage = ResponseOf<'listAnswers'>;
export type CancelResponse = ResponseOf<'cancelQuestion'>;
export type AddHeadsResponse = ResponseOf<'addHeads'>;
export type CsvExportQuery = QueryOf<'exportAnswersCsv'>;
export type PngExportQuery = QueryOf<'exportChartPng'>;
export type ExportFormat = 'csv' | 'pdf' | 'png';

/** An export's bytes with what the service said about them. */
export interface ExportFile {
  bytes: Uint8Array;
  /** `text/csv; charset=utf-8`, `application/pdf`, `image/png`. */
  contentType: string;
  /** The file's name from Content-Disposition (UTF-8), or null when none was sent. */
  filename: string | null;
}

const EXPORT_OPERATIONS = { csv: 'exportAnswersCsv', pdf: 'exportPdf', png: 'exportChartPng' } as const;

export class Questions {
  constructor(private readonly client: Headcount) {}

  /**
   * POST /v2/questions: reserves the price and asks. An Idempotency-Key is made when you give
   * none, and the same key goes with every retry of this call, so a retry after a lost answer
   * returns the same question and charges once.
   */
  async ask(body: AskBody, options: IdempotentCallOptions = {}): Promise<Schemas['Question']> {
    const { question } = await this.client.request('askQuestion', { ...options, body });
    return question;
  }

  /** GET /v2/questions/{id}: the question as it is now. */
  async get(id: string, options: CallOptions = {}): Promise<Schemas['Question']> {
    const { question } = await this.client.request('getQuestion', { ...options, path: { id } });
    return question;
  }

  /** PATCH /v2/questions/{id}: labels, project, archived, bookmarked, externalRef (once), minAnswers. */
  async update(id: string, body: UpdateQuestionBody, options: CallOptions = {}): Promise<Schemas['Question']> {
    const { question } = await this.client.request('updateQuestion', { ...options, path: { id }, body });
    return question;
  }

  /** POST /v2/questions/{id}/cancel: closes it and refunds what is left; `{question, refundCredits}`. */
  cancel(id: string, options: CallOptions = {}): Promise<CancelResponse> {
    return this.client.request('cancelQuestion', { ...options, path: { id } });
  }

  /**
   * POST /v2/questions/{id}/heads: `n` more answers for a complete or underfilled question
   * (`dryRun: true` only quotes). Carries an Idempotency-Key like `ask`.
   */
  addHeads(id: string, body: AddHeadsBody, options: IdempotentCallOptions = {}): Promise<AddHeadsResponse> {
    return this.client.request('addHeads', { ...options, path: { id }, body });
  }

  /** Every question matching `query`, newest first, across all pages (fetched as you iterate). */
  list(query: ListQuestionsQuery = {}, options: CallOptions = {}): AsyncGenerator<Schemas['Question'], void, undefined> {
    return paginate(
      (cursor) => this.listPage({ ...query, cursor }, options),
      (page) => page.questions,
      query.cursor,
    );
  }

  /** One page of GET /v2/questions, as served: `{questions, nextCursor}`. */
  listPage(query: ListQuestionsQuery = {}, options: CallOptions = {}): Promise<QuestionsPage> {
    return this.client.request('listQuestions', { ...options, query });
  }

  /**
   * One GET /v2/questions/{id}/wait, as served: `{result, done}` when the question closes (or
   * reaches `minAnswers`), else after `seconds` (default 25) with `done: false`. hc.waitForResult
   * loops on it for you.
   */
  wait(id: string, query: WaitQuery = {}, options: CallOptions = {}): Promise<WaitResponse> {
    return this.client.request('waitForQuestion', { ...options, path: { id }, query });
  }

  /** GET /v2/questions/{id}/result: the result (partial while live), with optional filters. */
  result(id: string, query?: ResultQuery & { fields?: undefined }, options?: CallOptions): Promise<Schemas['Result']>;
  /** With `fields` (a comma-separated list of Result properties): only those (ResultPart). */
  result(id: string, query: ResultQuery & { fields: string }, options?: CallOptions): Promise<Schemas['ResultPart']>;
  async result(id: string, query: ResultQuery = {}, options: CallOptions = {}): Promise<Schemas['Result'] | Schemas['ResultPart']> {
    const { result } = await this.client.request('getResult', { ...options, path: { id }, query });
    return result;
  }

  /** Every answer matching `query`, newest first, across all pages. */
  answers(id: string, query: AnswersQuery = {}, options: CallOptions = {}): AsyncGenerator<Schemas['Answer'], void, undefined> {
    return paginate(
      (cursor) => this.answersPage(id, { ...query, cursor }, options),
      (page) => page.answers,
      query.cursor,
    );
  }

  /** One page of GET /v2/questions/{id}/answers, as served (`answers`, `total`, `nextCursor`, …). */
  answersPage(id: string, query: AnswersQuery = {}, options: CallOptions = {}): Promise<AnswersPage> {
    return this.client.request('listAnswers', { ...options, path: { id }, query });
  }

  /**
   * An export's bytes: `csv` every answer (the result's filters apply), `pdf` the one-page
   * report, `png` the chart (`size`: square, wide, story). Read whole into memory.
   */
  export(id: string, format: 'csv', query?: CsvExportQuery, options?: CallOptions): Promise<ExportFile>;
  export(id: string, format: 'png', query?: PngExportQuery, options?: CallOptions): Promise<ExportFile>;
  export(id: string, format: 'pdf', query?: undefined, options?: CallOptions): Promise<ExportFile>;
  export(id: string, format: ExportFormat, query?: CsvExportQuery | PngExportQuery, options?: CallOptions): Promise<ExportFile>;
  async export(id: string, format: ExportFormat, query?: CsvExportQuery | PngExportQuery, options: CallOptions = {}): Promise<ExportFile> {
    const operationId = EXPORT_OPERATIONS[format];
    if (!operationId) throw new TypeError(`Unknown export format "${String(format)}": use csv, pdf or png`);
    const response = await this.client.requestWithResponse(operationId, { ...options, path: { id }, query } as never);
    return {
      bytes: response.data as Uint8Array,
      contentType: response.headers.get('content-type') ?? 'application/octet-stream',
      filename: filenameFromContentDisposition(response.headers.get('content-disposition')),
    };
  }
}
