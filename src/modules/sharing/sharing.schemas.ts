import { Type, type Static } from '@sinclair/typebox';
import { Closed, DateTime, Nullable, RefOf } from '../../lib/typebox.ts';
import { QuestionSchema } from '../questions/questions.schemas.ts';
import { ResultSchema } from '../results/results.schemas.ts';

/** Public results may be cached briefly: turning the page off takes at most this long to reach every cache. */
export const PUBLIC_RESULTS_MAX_AGE_SECONDS = 60;

export const ShareBodySchema = Closed({
  public: Type.Boolean({ description: 'true turns the public results page on (the question gets a `publicCode`), false turns it off (the code stops working for good).' }),
});

export const SHARE_LINK_DEFAULT_DAYS = 30;

export const CreateShareLinkBodySchema = Closed({
  expiresInDays: Type.Optional(Type.Integer({ minimum: 1, maximum: 90, default: SHARE_LINK_DEFAULT_DAYS, description: 'Days until the link stops working (1 to 90; default 30).' })),
  label: Type.Optional(Type.String({ maxLength: 80, description: 'A note to tell links apart, e.g. who it was sent to.' })),
});
export type CreateShareLinkBody = Static<typeof CreateShareLinkBodySchema>;

export const ShareLinkSchema = Closed({
  id: Type.String({ description: 'shl_…' }),
  label: Nullable(Type.String()),
  createdAt: DateTime(),
  expiresAt: DateTime(),
  revokedAt: Nullable(DateTime()),
  url: Type.Optional(Type.String({ format: 'uri', description: 'The link to send; only in the response that created it.' })),
  token: Type.Optional(Type.String({ description: 'The secret of the link, shown only once, at creation; only its hash is stored.' })),
});
export type ShareLink = Static<typeof ShareLinkSchema>;

export const ShareLinkParams = Closed({
  id: Type.String({ pattern: '^[A-Za-z0-9_]{1,64}$', description: 'The question id.' }),
  linkId: Type.String({ pattern: '^[A-Za-z0-9_]{1,64}$', description: 'The share link id (shl_…).' }),
});

/** Public codes are base62 (12 characters today). */
export const PublicCodeParams = Closed({ code: Type.String({ pattern: '^[A-Za-z0-9]{4,32}$', description: 'The `publicCode` of a question.' }) });

/** Any string: an unknown, tampered, expired or revoked token is a 404, never a 400. */
export const TokenParams = Closed({ token: Type.String({ minLength: 1, maxLength: 200, description: 'The token of a private share link.' }) });

export const PublicResultsSchema = Closed({ question: RefOf(QuestionSchema), result: RefOf(ResultSchema) });
export type PublicResults = Static<typeof PublicResultsSchema>;
