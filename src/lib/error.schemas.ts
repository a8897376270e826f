import { Type, type Static } from '@sinclair/typebox';
import { Closed, StringEnum, RefOf } from './typebox.ts';

export const VALIDATION_CODES = ['required', 'too_long', 'too_short', 'too_many', 'too_few', 'out_of_range', 'invalid_format', 'unknown_value', 'not_allowed', 'in_past'] as const;

export const ValidationItemSchema = Closed(
  {
    field: Type.String({ description: 'Path of the field, such as draft.options[2].label.' }),
    code: StringEnum(VALIDATION_CODES),
    message: Type.String(),
  },
  { $id: 'ValidationItem' },
);

export const ErrorEnvelopeSchema = Closed(
  {
    error: Closed({
      code: Type.String({ description: 'Stable machine code, e.g. validation_failed, unauthorized, insufficient_scope, not_found, rate_limited.' }),
      message: Type.String({ description: 'One plain sentence.' }),
      details: Type.Optional(Type.Object({ validation: Type.Optional(Type.Array(RefOf(ValidationItemSchema))) }, { additionalProperties: true })),
      requestId: Type.Optional(Type.String({ description: 'Extension: the request id, also sent as the x-request-id header and written to the logs.' })),
    }),
  },
  { $id: 'Error' },
);
export type ErrorEnvelope = Static<typeof ErrorEnvelopeSchema>;
