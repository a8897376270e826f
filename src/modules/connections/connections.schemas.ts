import { Type, type Static } from '@sinclair/typebox';
import { Closed, DateTime, Nullable, StringEnum } from '../../lib/typebox.ts';
import { SCOPES } from '../../lib/actor.ts';

/** An app a person connected with OAuth (docs/agents.md "Tokens and connections"), as their list shows it. */
export const ConnectionSchema = Closed(
  {
    id: Type.String({ description: 'con_…' }),
    clientId: Type.String({ description: 'The OAuth client: the id it registered with, or its client ID metadata document URL.' }),
    clientName: Type.String({ description: 'The name the app gave itself (unverified unless its client_id is an https document).' }),
    account: Closed({ id: Type.String(), name: Type.String(), kind: StringEnum(['person', 'team']) }, { description: 'The account it acts for, chosen at consent.' }),
    scopes: Type.Array(StringEnum(SCOPES)),
    dailyCapCredits: Nullable(Type.Integer({ minimum: 0 }), { description: 'Credits it may reserve in one UTC day; null for no cap.' }),
    autoApproveCredits: Type.Integer({ minimum: 0, description: 'Asks priced at or under this go ahead through MCP without a confirmation step.' }),
    createdAt: DateTime(),
    lastUsedAt: Nullable(DateTime(), { description: 'When it last called (to the minute).' }),
  },
  { $id: 'Connection' },
);
export type ConnectionView = Static<typeof ConnectionSchema>;
